// history.edges (the picture): messages of a recent window counted
// per sender, receiver and outcome, on a real hub over its real socket; the
// UI token only; a held message moves to `approved` when the user approves.
import { afterEach, describe, expect, it } from 'vitest';
import { RpcError } from '../../../core/client/client.js';
import type { HistoryEdgesView } from '../../../core/protocol/views.js';
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
  /** alice (team red) sent bob "old" two hours ago, then "one", "two" and a held "held"; bob sent alice "back". */
  async function traffic() {
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
    const edges = (windowMs: number) => c.call('history.edges', { uiToken: ui, windowMs });
    return { clock, c, ui, alice, bob, held, edges };
  }
  const byKey = (v: HistoryEdgesView) =>
    Object.fromEntries(v.edges.map((e) => [`${e.from.name}>${e.to.name}:${e.outcome}`, e.count]));

  it('counts the messages of each pair by outcome within the window', async () => {
    const { clock, edges } = await traffic();
    const view = await edges(3_600_000);
    expect(view.since).toBe(clock.now() - 3_600_000);
    expect(view.truncated).toBe(false);
    expect(byKey(view)).toEqual({ 'alice>bob:queued': 2, 'alice>bob:held': 1, 'bob>alice:queued': 1 });
    // The whole day: "old" counts too.
    expect(byKey(await edges(24 * 3_600_000))['alice>bob:queued']).toBe(3);
  });

  it('names both ends of a pair by session, address and team', async () => {
    const { c, alice, bob, edges } = await traffic();
    const ab = (await edges(3_600_000)).edges.find((e) => e.from.name === 'alice' && e.outcome === 'held')!;
    expect(ab).toMatchObject({
      from: { sessionId: alice.sessionId, address: alice.address, team: 'red' },
      to: { sessionId: bob.sessionId, address: bob.address, team: null },
    });
    // Sessions list their team, so the picture can group a session that has not talked yet.
    const rows = (await c.call('agents.list', {})).rows;
    expect(rows.find((r) => r.name === 'alice')?.team).toBe('red');
  });

  it('an approved held message counts as approved', async () => {
    const { c, ui, held, edges } = await traffic();
    await c.call('held.approve', { uiToken: ui, id: held.msg_id });
    expect(byKey(await edges(3_600_000))).toEqual({
      'alice>bob:queued': 2,
      'alice>bob:approved': 1,
      'bob>alice:queued': 1,
    });
  });

  /** alice sent bob, carol and dave one message each; a page holds 2 pairs. */
  async function threePairs() {
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
    return { c, alice, ui: th.hub.uiToken };
  }

  it('is the UI token’s only: a session token or a wrong UI token is refused', async () => {
    const { c, alice } = await threePairs();
    expect(await reason(c.call('history.edges', { sessionId: alice.sessionId, token: alice.token } as never))).toBe(
      'invalid_params',
    );
    expect(await reason(c.call('history.edges', { uiToken: 'x'.repeat(48) }))).toBe('unauthorized');
  });

  it('refuses a window past its bound', async () => {
    const { c, ui } = await threePairs();
    expect(await reason(c.call('history.edges', { uiToken: ui, windowMs: 365 * 24 * 3_600_000 }))).toBe(
      'invalid_params',
    );
  });

  it('a full page keeps the newest pairs and says it was truncated', async () => {
    // Every message in one millisecond (a frozen clock): "newest" is the order they were sent in.
    th = await startHub({ clock: fakeClock(), limits: { historyEdgeRows: 2 } });
    const c = await th.client();
    const alice = await th.register(c, { name: 'alice' });
    const names = ['bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan'];
    for (const to of names) {
      await th.register(c, { name: to });
      await c.call('message.send', {
        sessionId: alice.sessionId,
        token: alice.token,
        to,
        summary: 'hi',
        message: 'hi',
      });
    }
    const view = await c.call('history.edges', { uiToken: th.hub.uiToken });
    expect(view.edges.map((e) => e.to.name)).toEqual(['ivan', 'heidi']); // newest first
    expect(view.truncated).toBe(true);
  });
});
