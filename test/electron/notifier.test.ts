// The desktop notifier (electron/notifications/notifier.ts) against a real
// hub, the native notifications faked: one notification per new held
// message, once; its buttons decide through the bridge — Approve, Deny, and
// an hour-long Allow or Block rule for that sender made from the
// notification, which decides that message too; a decision the hub no
// longer takes opens the Approvals view instead of vanishing.
import { afterEach, describe, expect, it } from 'vitest';
import { runBridgeOperation } from '../../core/index.js';
import type { Registration } from '../../core/protocol/methods.js';
import { createNotifier } from '../../electron/notifications/notifier.js';
import type { NotificationSpec } from '../../electron/notifications/route.js';
import { startHub, until, type TestHub } from '../helpers/hub.js';

let th: TestHub | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});

const auth = (r: Registration) => ({ sessionId: r.sessionId, token: r.token });

async function setUp(platform: NodeJS.Platform = 'darwin') {
  th = await startHub();
  const t = th;
  const c = await t.client();
  const web = await t.register(c, { name: 'web', agent: 'claude' });
  const api = await t.register(c, { name: 'api', permissionMode: 'bypassPermissions' }); // parity holds web's sends
  const shown: Array<{ spec: NotificationSpec; action: (i: number) => void; click: () => void }> = [];
  const focused: Array<[string, string | undefined]> = [];
  const logged: string[] = [];
  const mode = { quiet: false };
  const notifier = createNotifier({
    quiet: () => mode.quiet,
    run: (op, input) => runBridgeOperation(t.hub, op, input),
    focus: async (view, itemId) => void focused.push([view, itemId]),
    platform,
    log: (m) => void logged.push(m),
    native: { supported: () => true, show: (spec, action, click) => void shown.push({ spec, action, click }) },
  });
  const send = async (text: string) => {
    expect((await c.call('message.send', { ...auth(web), to: 'api', summary: 's', message: text })).status).toBe(
      'held',
    );
    notifier.event({ type: 'held.changed' }); // as the hub pushes it to the desktop UI
  };
  const held = async () => (await c.call('held.list', { uiToken: t.hub.uiToken })).items;
  const rules = async () => (await c.call('rules.list', { uiToken: t.hub.uiToken })).rules;
  return { c, web, api, shown, focused, logged, notifier, send, held, rules, mode };
}

describe('desktop notifications', () => {
  it('raises one notification per new held message, whose Approve and Deny decide it', async () => {
    const h = await setUp();
    await h.send('first');
    await until(() => h.shown.length === 1);
    await h.send('second');
    await until(() => h.shown.length === 2);
    h.notifier.event({ type: 'held.changed' });
    expect(
      h.shown.map((s) => s.spec.body),
      'one per message, once',
    ).toEqual(['Agent text (not from you): first', 'Agent text (not from you): second']);
    h.shown[0]!.action(1); // Approve
    h.shown[1]!.action(0); // Deny
    await until(async () => (await h.held()).length === 0);
  });

  it('"Allow this sender for an hour" makes the rule from the notification and decides the message', async () => {
    const h = await setUp();
    await h.send('please');
    await until(() => h.shown.length === 1);
    h.shown[0]!.action(2);
    await until(async () => (await h.rules()).length === 1);
    const [rule] = await h.rules();
    expect(rule).toMatchObject({ effect: 'allow', lifetime: 'hour', madeWith: 'desktop app' });
    await until(async () => (await h.held()).length === 0);
    // The next message from web is approved by the rule: nothing is held.
    expect((await h.c.call('message.send', { ...auth(h.web), to: 'api', summary: 's', message: 'again' })).status).toBe(
      'queued',
    );
  });

  it('quiet: nothing is raised, and what arrived meanwhile is not raised later', async () => {
    const h = await setUp();
    h.mode.quiet = true;
    await h.send('while focused'); // its held.changed event comes while quiet
    h.mode.quiet = false;
    await h.send('after');
    await until(() => h.shown.length === 1);
    expect(h.shown.map((s) => s.spec.body)).toEqual(['Agent text (not from you): after']);
  });

  it('a decision the hub no longer takes (decided elsewhere) opens Approvals on it, and says so', async () => {
    const h = await setUp();
    await h.send('x');
    await until(() => h.shown.length === 1);
    const id = h.shown[0]!.spec.itemId;
    await h.c.call('held.deny', { uiToken: th!.hub.uiToken, id }); // the web UI was quicker
    h.shown[0]!.action(1);
    await until(() => h.focused.length === 1);
    expect(h.focused).toEqual([['approvals', id]]);
    expect(h.logged).toEqual(['a decision from a notification was not taken']);
  });
});
