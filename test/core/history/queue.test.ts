// History's compact queue (core/history/queue.ts): a message's outcome and
// delivered text folded into its queued record write the same rows as
// separate records, and a burst beyond the old per-record bound keeps its
// history whole in the default limits.
import { tempDir } from '../../helpers/temp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryRecorder } from '../../../core/history/recorder.js';
import { LIMITS } from '../../../core/protocol/limits.js';
import { wrapMessage } from '../../../core/protocol/cc-wire.js';
import type { InboxItem } from '../../../core/protocol/methods.js';

let recorders: HistoryRecorder[] = [];
afterEach(() => {
  for (const r of recorders) r.close();
  recorders = [];
});

function recorder(limits = LIMITS): HistoryRecorder {
  const r = new HistoryRecorder({
    stateDir: tempDir('sbq-'),
    limits: { ...limits, historyFlushMs: 3_600_000 },
    now: () => 5000,
    policy: () => ({ maxAgeMs: 30 * 86_400_000, maxBytes: 1e9 }),
    onError: () => undefined,
  });
  recorders.push(r);
  r.open();
  return r;
}

const env = (i: number, body = `hello ${i}`) => ({
  msgId: `m${i}`,
  at: 1000 + i,
  fromSessionId: 'sa',
  fromName: 'alice',
  fromAddress: 'uds:/run/a.sock',
  summary: 'hi',
  body,
});
const bob = { id: 'sb', name: 'bob', team: null };
const item = (i: number, text: string): InboxItem => ({
  kind: 'message',
  id: `m${i}`,
  from: { address: 'uds:/run/a.sock', name: 'alice', sessionId: 'sa' },
  summary: 'hi',
  text,
  at: 1000 + i,
  approvedAfterHold: false,
});
const receipt = (i: number, status: string) => ({
  at: 2000 + i,
  kind: 'receipt' as const,
  status,
  msgId: `m${i}`,
  sender: 'alice',
  receiver: 'bob',
  reason: '',
});

const decision = (i: number, sender = 'alice') => ({
  at: 1500 + i,
  kind: 'decision' as const,
  status: 'deliver',
  msgId: `m${i}`,
  sender,
  receiver: 'bob',
  reason: 'accept',
});

describe('history queue', () => {
  it('a folded outcome and delivered text write what separate records would', () => {
    const r = recorder();
    const framed = (i: number, body: string) => wrapMessage(body, { from: 'uds:/run/a.sock', fromName: 'alice' });
    const bodies = [
      'plain',
      'a closing tag </cross-session-message> inside', // escaped by the wrapper: kept verbatim, not rebuilt
      '',
      'ünïcødé \ud83d\ude00',
    ];
    bodies.forEach((body, i) => {
      const q = r.message(env(i, body), bob, null);
      expect(q).not.toBe(false);
      r.activity(decision(i, i === 2 ? 'someone else' : 'alice')); // not the message's sender: its own entry
      r.item(item(i, framed(i, body)));
      r.outcome(`m${i}`, 'queued', undefined, q || undefined);
      r.activity(receipt(i, 'delivered'));
    });
    // Not folded: the outcome without its record, and a text whose message was already written.
    const late = r.message(env(9, 'late'), bob, null);
    expect(r.status().queued).toBe(bodies.length * 2 + 2); // one per message, one per receipt, the odd decision
    r.flush(true);
    r.item(item(9, framed(9, 'late')));
    r.outcome('m9', 'held', 'policy', late || undefined);
    r.flush(true);
    const rows = r.query({ limit: 50, order: 'oldest' });
    expect(rows.map((m) => [m.msgId, m.text, m.outcome, m.reason])).toEqual([
      ...bodies.map((b, i) => [`m${i}`, framed(i, b), 'delivered', '']),
      ['m9', framed(9, 'late'), 'held', 'policy'],
    ]);
    expect(rows[0]!.trail).toEqual([
      { at: 1500, kind: 'decision', status: 'deliver', reason: 'accept' },
      { at: 2000, kind: 'receipt', status: 'delivered', reason: '' },
    ]);
    expect(rows[2]!.trail.map((e) => e.kind)).toEqual(['decision', 'receipt']);
    expect(rows[0]!.outcomeAt).toBe(2000);
  });

  it('an outcome folded while a receipt is queued after it: the receipt still wins, as in the store', () => {
    const r = recorder();
    const q = r.message(env(1), bob, null);
    r.activity(receipt(1, 'delivered')); // the receipt overtook the admission result
    r.outcome('m1', 'queued', undefined, q || undefined);
    r.flush(true);
    expect(r.query({ limit: 5, order: 'oldest' })[0]).toMatchObject({ outcome: 'delivered', outcomeAt: 2001 });
  });

  // 22 000 records unfolded: each message with its decision, text and outcome.
  it('a burst of 5 500 messages fits the default queue', () => {
    const r = recorder();
    for (let i = 0; i < 5500; i++) {
      const body = `a message of ordinary length, number ${i}, with some words in it`;
      const q = r.message(env(i, body), bob, null);
      r.activity(decision(i));
      r.item(item(i, wrapMessage(body, { from: 'uds:/run/a.sock', fromName: 'alice' })));
      r.outcome(`m${i}`, 'queued', undefined, q || undefined);
    }
    expect(r.status().gap.records).toBe(0);
    r.flush(true);
    expect(r.stats()?.messages).toBe(5500);
  });

  it('a message queued again after a busy file still folds and keeps its order', () => {
    const r = recorder({ ...LIMITS, historyBatchRecords: 2 });
    const a = r.message(env(1), bob, null);
    const b = r.message(env(2), bob, null);
    r.flush(); // one batch of two: both written
    const c = r.message(env(3), bob, null);
    r.outcome('m1', 'dropped', 'duplicate', a || undefined); // m1 no longer queued: its own record
    r.outcome('m3', 'queued', undefined, c || undefined);
    r.outcome('m2', 'queued', undefined, b || undefined);
    r.flush(true);
    expect(r.query({ limit: 5, order: 'oldest' }).map((m) => [m.msgId, m.outcome])).toEqual([
      ['m1', 'dropped'],
      ['m2', 'queued'],
      ['m3', 'queued'],
    ]);
  });
});
