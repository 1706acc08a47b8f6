// history.edges (the picture): messages of a recent window counted
// per sender, receiver and outcome, on a real hub over its real socket; the
// UI token only; a held message moves to `approved` when the user approves.
import { afterEach, describe, expect, it } from 'vitest';
import { RpcError } from '../../../core/client/client.js';
import { fakeClock, startHub, type TestHub } from '../../helpers/hub.js';

let th: TestHub | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});

async function reason(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof RpcError) return err.reason;
    throw err;
  }
  return 'no error';
}

describe('history.edges', () => {
  it('counts each pair by outcome in the window, with addresses and teams; held turns approved', async () => {
    const clock = fakeClock();
    th = await startHub({ clock });
    const c = await th.client();
    const alice = await th.register(c, { name: 'alice', team: 'red', member: 'alice' });
    const bob = await th.register(c, { name: 'bob' });
    const ui = th.hub.uiToken;
    const send = (summary: string) =>
      c.call('message.send', { sessionId: alice.sessionId, token: alice.token, to: 'bob', summary, message: summary });
    await send('old');
    clock.advance(2 * 3_600_000); // two hours later: "old" is outside a one-hour window
    await send('one');
    await send('two');
    await c.call('message.send', {
      sessionId: bob.sessionId,
      token: bob.token,
      to: 'alice',
      summary: 'back',
      message: 'back',
    });
    await c.call('settings.set', { uiToken: ui, key: 'crossSessionInbound', value: 'hold' });
    const held = await send('held');
    expect(held.status).toBe('held');

    const view = await c.call('history.edges', { uiToken: ui, windowMs: 3_600_000 });
    expect(view.since).toBe(clock.now() - 3_600_000);
    expect(view.truncated).toBe(false);
    const byKey = (v: typeof view) =>
      Object.fromEntries(v.edges.map((e) => [`${e.from.name}>${e.to.name}:${e.outcome}`, e.count]));
    expect(byKey(view)).toEqual({ 'alice>bob:queued': 2, 'alice>bob:held': 1, 'bob>alice:queued': 1 });
    const ab = view.edges.find((e) => e.from.name === 'alice' && e.outcome === 'held')!;
    expect(ab).toMatchObject({
      from: { sessionId: alice.sessionId, address: alice.address, team: 'red' },
      to: { sessionId: bob.sessionId, address: bob.address, team: null },
    });
    // The whole day: "old" counts too.
    expect(byKey(await c.call('history.edges', { uiToken: ui, windowMs: 24 * 3_600_000 }))['alice>bob:queued']).toBe(3);

    await c.call('held.approve', { uiToken: ui, id: held.msg_id });
    expect(byKey(await c.call('history.edges', { uiToken: ui, windowMs: 3_600_000 }))).toEqual({
      'alice>bob:queued': 2,
      'alice>bob:approved': 1,
      'bob>alice:queued': 1,
    });
    // Sessions list their team, so the picture can group a session that has not talked yet.
    const rows = (await c.call('agents.list', {})).rows;
    expect(rows.find((r) => r.name === 'alice')?.team).toBe('red');
  });

  it('is the UI token’s only, with a bounded window; a full page says it was truncated', async () => {
    th = await startHub({ limits: { historyEdgeRows: 2 } });
    const c = await th.client();
    const alice = await th.register(c, { name: 'alice' });
    for (const to of ['bob', 'carol', 'dave']) {
      await th.register(c, { name: to });
      await c.call('message.send', {
        sessionId: alice.sessionId,
        token: alice.token,
        to,
        summary: 'hi',
        message: `hi ${to}`,
      });
    }
    expect(await reason(c.call('history.edges', { sessionId: alice.sessionId, token: alice.token } as never))).toBe(
      'invalid_params',
    );
    expect(await reason(c.call('history.edges', { uiToken: 'x'.repeat(48) }))).toBe('unauthorized');
    expect(await reason(c.call('history.edges', { uiToken: th.hub.uiToken, windowMs: 365 * 24 * 3_600_000 }))).toBe(
      'invalid_params',
    );
    const view = await c.call('history.edges', { uiToken: th.hub.uiToken });
    expect(view.edges.map((e) => e.to.name)).toEqual(['dave', 'carol']); // newest first
    expect(view.truncated).toBe(true);
  });
});
