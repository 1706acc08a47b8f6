// history.moved (the picture's live counts) on a real hub over its
// real socket: the counts of `history.edges` at its cursor, with every move
// after the cursor applied, are the counts `history.edges` answers later —
// through new messages, holds, approvals, denials, drops and refusals; the
// sequence has no gaps; what no single move can say (a deletion, a receipt
// for a message this run never saw) is a reset.
import { afterEach, describe, expect, it } from 'vitest';
import type { PictureMove } from '../../../core/protocol/events.js';
import type { HistoryEdgesView } from '../../../core/protocol/methods.js';
import { startHub, until, type TestHub } from '../../helpers/hub.js';
import { MoveTracker } from '../../../core/history/moves.js';
import type { HistoryMove, HistoryRecord } from '../../../core/protocol/history.js';

let th: TestHub | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});

type Flat = Record<string, number>;
const flat = (v: HistoryEdgesView): Flat =>
  Object.fromEntries(v.edges.map((e) => [`${e.from.name}>${e.to.name}:${e.outcome}`, e.count]));

/** What a user interface does with the moves: `counts` at the answer's cursor, each later move applied once. */
function fold(counts: Flat, cursor: number, moves: PictureMove[]): Flat {
  const out = { ...counts };
  let seq = cursor;
  for (const m of moves) {
    if (m.seq <= seq) continue;
    expect(m.seq).toBe(seq + 1); // no gaps
    seq = m.seq;
    if (m.kind !== 'count') throw new Error('unexpected reset');
    const key = (o: string) => `${m.from.name}>${m.to.name}:${o}`;
    if (m.previous !== null) {
      out[key(m.previous)]! -= 1;
      if (out[key(m.previous)] === 0) delete out[key(m.previous)];
    }
    out[key(m.outcome)] = (out[key(m.outcome)] ?? 0) + 1;
  }
  return out;
}

describe('history.moved', () => {
  it('folded over history.edges at its cursor, gives the later history.edges', async () => {
    th = await startHub();
    const c = await th.client();
    const ui = th.hub.uiToken;
    const alice = await th.register(c, { name: 'alice' });
    const bob = await th.register(c, { name: 'bob' });
    const send = (from: typeof alice, to: string, text: string) =>
      c.call('message.send', { sessionId: from.sessionId, token: from.token, to, summary: text, message: text });
    await send(alice, 'bob', 'before anyone looks'); // before the UI attached: only in the answer

    const toSessions: unknown[] = []; // the sessions' own connection never hears it: UI token only
    c.on('ui.event', (e) => toSessions.push(e));
    const watcher = await th.client();
    const moves: PictureMove[] = [];
    watcher.on('ui.event', (e) => {
      const ev = e as { type: string; move?: PictureMove };
      if (ev.type === 'history.moved') moves.push(ev.move!);
    });
    await watcher.call('ui.attach', { uiToken: ui });
    await send(alice, 'bob', 'seen live, maybe in the answer too');
    const first = await watcher.call('history.edges', { uiToken: ui });
    expect(first.cursor.seq).toBeGreaterThan(0);

    await send(bob, 'alice', 'back');
    await send(bob, 'alice', 'back'); // the same words at once: dropped as a duplicate
    await c.call('settings.set', { uiToken: ui, key: 'crossSessionInbound', value: 'hold' });
    const held1 = await send(alice, 'bob', 'held, then approved');
    const held2 = await send(alice, 'bob', 'held, then denied');
    expect([held1.status, held2.status]).toEqual(['held', 'held']);
    await c.call('held.approve', { uiToken: ui, id: held1.msg_id });
    await c.call('held.deny', { uiToken: ui, id: held2.msg_id });
    await c.call('settings.set', { uiToken: ui, key: 'crossSessionInbound', value: null });
    await c.call('inbound.pause', { uiToken: ui, paused: true });
    await send(bob, 'alice', 'refused while paused');
    await c.call('inbound.pause', { uiToken: ui, paused: false });

    const last = await watcher.call('history.edges', { uiToken: ui });
    await until(() => moves.some((m) => m.seq === last.cursor.seq));
    expect(flat(last)).toEqual({
      'alice>bob:queued': 2,
      'alice>bob:approved': 1,
      'alice>bob:denied': 1,
      'bob>alice:queued': 1,
      'bob>alice:dropped': 1,
      'bob>alice:refused': 1,
    });
    expect(fold(flat(first), first.cursor.seq, moves)).toEqual(flat(last));
    expect(last.cursor.epoch).toBe(first.cursor.epoch);
    expect(toSessions).toEqual([]);
    const live = moves.filter((m) => m.kind === 'count' && m.seq > first.cursor.seq);
    expect(live.map((m) => (m.kind === 'count' ? `${m.previous}→${m.outcome}` : m.kind))).toContain('held→approved');
    expect(live.find((m) => m.kind === 'count' && m.outcome === 'approved')).toMatchObject({
      from: { sessionId: alice.sessionId, address: alice.address },
      to: { sessionId: bob.sessionId, address: bob.address },
    });
  });

  it('says reset when the counts change in a way no move says: a deleted conversation, an unknown message', async () => {
    th = await startHub();
    const c = await th.client();
    const ui = th.hub.uiToken;
    const alice = await th.register(c, { name: 'alice' });
    await th.register(c, { name: 'bob' });
    const moves: PictureMove[] = [];
    c.on('ui.event', (e) => {
      const ev = e as { type: string; move?: PictureMove };
      if (ev.type === 'history.moved') moves.push(ev.move!);
    });
    await c.call('ui.attach', { uiToken: ui });
    await c.call('message.send', {
      sessionId: alice.sessionId,
      token: alice.token,
      to: 'bob',
      summary: 'hi',
      message: 'hi',
    });
    await c.call('history.delete', { uiToken: ui, between: ['alice', 'bob'] });
    th.hub.recordActivity({
      at: 0,
      kind: 'receipt',
      status: 'delivered',
      sender: 'x',
      receiver: 'y',
      msgId: 'never-recorded',
      reason: '',
    });
    await until(() => moves.filter((m) => m.kind === 'reset').length === 2);
    expect(moves.map((m) => m.kind)).toEqual(['count', 'reset', 'reset']);
    expect(moves.map((m) => m.seq)).toEqual(moves.map((_, i) => moves[0]!.seq + i));
    expect(flat(await c.call('history.edges', { uiToken: ui }))).toEqual({});
  });

  it('says reset for what it did not keep: while nobody followed, or past its bound', () => {
    const out: HistoryMove[] = [];
    let following = false;
    const t = new MoveTracker(
      2,
      (m) => out.push(m),
      () => following,
    );
    const m = (id: string): HistoryRecord => ({
      t: 'm',
      msgId: id,
      at: 1,
      senderSession: 'a',
      senderName: 'alice',
      senderAddress: 'uds:/a',
      senderTeam: null,
      receiverSession: 'b',
      receiverName: 'bob',
      receiverTeam: null,
      summary: null,
      text: 'hi',
    });
    const held = (id: string): HistoryRecord => ({ t: 'o', msgId: id, at: 2, status: 'held', reason: '' });
    t.record(m('before'));
    t.record(held('before'));
    expect([out, t.cursor().seq], 'nobody follows: nothing built, nothing counted').toEqual([[], 0]);
    following = true;
    t.record({
      t: 'e',
      at: 3,
      kind: 'receipt',
      status: 'approved',
      msgId: 'before',
      sender: 'alice',
      receiver: 'bob',
      reason: '',
    });
    for (const id of ['one', 'two', 'three']) t.record(m(id)); // the ring keeps two: 'one' goes
    t.record(held('three'));
    t.record(held('one'));
    expect(
      out.map((x) => (x.kind === 'count' ? `${x.seq} ${x.msgId} ${x.previous}→${x.outcome}` : `${x.seq} reset`)),
      'reset for the unfollowed message and the one past the bound',
    ).toEqual([
      '1 reset',
      '2 one null→queued',
      '3 two null→queued',
      '4 three null→queued',
      '5 three queued→held',
      '6 reset',
    ]);
  });
});
