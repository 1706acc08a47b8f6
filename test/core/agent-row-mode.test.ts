// The listing carries each session's permission mode and its class, so a
// person can see which sessions bypass permission prompts (and so hold
// messages from prompting ones); a mode change shows up in the next listing.
import { afterEach, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../helpers/hub.js';

let th: TestHub;
afterEach(async () => th?.close());

describe('agents.list permission mode and class', () => {
  it('lists the mode and the mode-parity class of every hosted session', async () => {
    th = await startHub();
    const c = await th.client();
    await th.register(c, { name: 'careful', permissionMode: 'default' });
    const yolo = await th.register(c, { name: 'yolo', permissionMode: 'bypassPermissions' });
    await th.register(c, { name: 'planner', permissionMode: 'plan', bypassAvailable: true });
    const byName = async () =>
      Object.fromEntries((await c.call('agents.list', {})).rows.map((r) => [r.name, [r.mode, r.modeClass]]));
    expect(await byName()).toEqual({
      careful: ['default', 'prompting'],
      yolo: ['bypassPermissions', 'bypass'],
      planner: ['plan', 'bypass'],
    });
    await c.call('session.mode', { sessionId: yolo.sessionId, token: yolo.token, permissionMode: 'acceptEdits' });
    expect((await byName()).yolo).toEqual(['acceptEdits', 'prompting']);
  });
});
