import { tempDir } from '../../helpers/temp.js';
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import * as sqlite from 'node:sqlite';
import type { HistoryRecord } from '../../../core/protocol/history.js';
import { HistoryStore } from '../../../core/history/store.js';

const DAY = 86_400_000;
let stores: HistoryStore[] = [];
afterEach(() => {
  for (const s of stores) s.close();
  stores = [];
});

function open(file = ':memory:'): HistoryStore {
  const s = new HistoryStore(sqlite, file);
  stores.push(s);
  return s;
}

let n = 0;
function msg(
  from: string,
  to: string,
  text: string,
  at: number,
  extra: Partial<Extract<HistoryRecord, { t: 'm' }>> = {},
): Extract<HistoryRecord, { t: 'm' }> {
  return {
    t: 'm',
    msgId: `m${++n}`,
    at,
    senderSession: `id-${from}`,
    senderName: from,
    senderAddress: `uds:/tmp/${from}.sock`,
    senderTeam: null,
    receiverSession: `id-${to}`,
    receiverName: to,
    receiverTeam: null,
    summary: null,
    text,
    ...extra,
  };
}
const receipt = (m: { msgId: string }, status: string, at: number, reason = ''): HistoryRecord => ({
  t: 'e',
  at,
  kind: 'receipt',
  status,
  msgId: m.msgId,
  sender: 'x',
  receiver: 'y',
  reason,
});
const decision = (m: { msgId: string }, status: string, at: number, reason: string): HistoryRecord => ({
  t: 'e',
  at,
  kind: 'decision',
  status,
  msgId: m.msgId,
  sender: 'x',
  receiver: 'y',
  reason,
});
const routed = (m: { msgId: string }, status: string, at: number, reason = ''): HistoryRecord => ({
  t: 'o',
  msgId: m.msgId,
  at,
  status,
  reason,
});

describe('history store', () => {
  describe('search', () => {
    function three() {
      const s = open();
      const a = msg('alice', 'bob', 'please rebase the payments branch', 1000, { summary: 'rebase request' });
      const b = msg('bob', 'alice', 'done, the tests are green', 2000);
      const c = msg('carol', 'bob', 'lunch?', 3000);
      s.write([a, b, c]);
      return { s, a, b, c };
    }

    it('finds a message by any of its words, in its text, summary or names', () => {
      const { s, a, b, c } = three();
      expect(
        s.query({ text: 'payments', limit: 10, order: 'newest' }).map((m) => m.msgId),
        'text',
      ).toEqual([a.msgId]);
      expect(
        s.query({ text: 'REQUEST', limit: 10, order: 'newest' }).map((m) => m.msgId),
        'summary',
      ).toEqual([a.msgId]);
      expect(
        s.query({ text: 'carol', limit: 10, order: 'newest' }).map((m) => m.msgId),
        'a name',
      ).toEqual([c.msgId]);
      expect(
        s.query({ text: 'tests green', limit: 10, order: 'newest' }).map((m) => m.msgId),
        'all words',
      ).toEqual([b.msgId]);
      expect(s.query({ text: 'tests lunch', limit: 10, order: 'newest' }), 'not words of two messages').toEqual([]);
    });

    it('treats FTS operators and quotes in a query as plain words, never a syntax error', () => {
      const { s } = three();
      expect(() => s.query({ text: 'NEAR( "x" OR * AND -', limit: 10, order: 'newest' })).not.toThrow();
      expect(s.query({ text: '"()*', limit: 10, order: 'newest' })).toEqual([]);
    });
  });

  it('keeps the framed text as delivered, searchable, also when it arrives in a later batch', () => {
    const s = open();
    const m = msg('alice', 'bob', 'raw body', 1000);
    s.write([m, routed(m, 'held', 1001, 'the receiver holds')]);
    s.write([
      { t: 'x', msgId: m.msgId, text: '<cross-session-message approved="after-hold">raw body</cross-session-message>' },
      receipt(m, 'approved', 1500, 'approved by its user'),
    ]);
    const [got] = s.query({ text: 'approved', limit: 10, order: 'newest' });
    expect(got?.text).toContain('after-hold');
    expect(got?.outcome).toBe('approved');
  });

  it('removes messages and events older than the retention (fake clock), keeps the rest', () => {
    const s = open();
    const old = msg('alice', 'bob', 'old news', 0);
    const recent = msg('alice', 'bob', 'recent news', 10 * DAY);
    s.write([
      old,
      decision(old, 'deliver', 0, 'mode parity'),
      recent,
      decision(recent, 'deliver', 10 * DAY, 'mode parity'),
    ]);
    expect(s.prune(29 * DAY, { maxAgeMs: 30 * DAY, maxBytes: 1e9 }).removed).toBe(0);
    expect(s.prune(31 * DAY, { maxAgeMs: 30 * DAY, maxBytes: 1e9 }).removed).toBe(1);
    expect(s.query({ limit: 10, order: 'oldest' }).map((m) => m.msgId)).toEqual([recent.msgId]);
    expect(s.stats()).toMatchObject({ messages: 1, events: 1 });
  });

  it('keeps the database under the size cap by removing the oldest messages first', () => {
    const dir = tempDir('sbh-');
    const file = path.join(dir, 'h.sqlite');
    fs.writeFileSync(file, '', { mode: 0o600 });
    const s = open(file);
    const all = Array.from({ length: 400 }, (_, i) =>
      msg('alice', 'bob', `message ${i} ` + 'lorem ipsum dolor '.repeat(100), i),
    );
    for (let i = 0; i < all.length; i += 50) s.write(all.slice(i, i + 50));
    const before = s.stats();
    expect(before.bytes).toBeGreaterThan(1_000_000);
    const cap = 300_000;
    const { removed } = s.prune(400, { maxAgeMs: DAY, maxBytes: cap });
    const after = s.stats();
    expect(removed).toBeGreaterThan(0);
    expect(after.bytes).toBeLessThanOrEqual(cap);
    expect(after.messages).toBe(400 - removed);
    const kept = s.query({ limit: 500, order: 'oldest' }).map((m) => m.msgId);
    expect(kept).toEqual(all.slice(removed).map((m) => m.msgId)); // exactly the newest ones
    expect(s.query({ text: 'message 399', limit: 5, order: 'newest' })).toHaveLength(1);
  });

  it('gives a conversation in order with each outcome and its trail', () => {
    const s = open();
    const q = msg('alice', 'bob', 'one', 1);
    const h1 = msg('bob', 'alice', 'two', 2);
    const h2 = msg('alice', 'bob', 'three', 3);
    const d = msg('alice', 'bob', 'four', 4);
    const other = msg('alice', 'carol', 'not in this pair', 5);
    s.write([
      q,
      decision(q, 'deliver', 1, 'accept'),
      routed(q, 'queued', 1),
      h1,
      decision(h1, 'hold', 2, 'the receiver is prompting'),
      receipt(h1, 'held', 2, 'the receiver is prompting'),
      routed(h1, 'held', 2, 'the receiver is prompting'),
    ]);
    s.write([
      h2,
      routed(h2, 'held', 3, 'hold'),
      d,
      routed(d, 'dropped', 4, 'duplicate'),
      other,
      routed(other, 'queued', 5),
    ]);
    s.write([
      receipt(q, 'delivered', 10, 'handed to the agent'),
      receipt(h1, 'approved', 11, 'approved by its user'),
      receipt(h2, 'denied', 12, 'its user denied it'),
    ]);
    const conv = s.query({ between: ['alice', 'id-bob'], limit: 10, order: 'oldest' });
    expect(conv.map((m) => [m.text, m.outcome, m.reason])).toEqual([
      ['one', 'delivered', 'handed to the agent'],
      ['two', 'approved', 'approved by its user'],
      ['three', 'denied', 'its user denied it'],
      ['four', 'dropped', 'duplicate'],
    ]);
    expect(conv[1]?.trail.map((e) => `${e.kind}:${e.status}`)).toEqual([
      'decision:hold',
      'receipt:held',
      'receipt:approved',
    ]);
    expect(conv.map((m) => m.seq)).toEqual([...conv.map((m) => m.seq)].sort((a, b) => a - b));
    expect(
      s
        .query({ between: ['alice', 'bob'], outcome: ['denied', 'dropped'], limit: 10, order: 'oldest' })
        .map((m) => m.text),
    ).toEqual(['three', 'four']);
    expect(
      s.query({ between: ['alice', 'bob'], since: 2, until: 3, limit: 10, order: 'oldest' }).map((m) => m.text),
    ).toEqual(['two', 'three']);
    // Paging: after the first two, the rest.
    expect(
      s.query({ between: ['alice', 'bob'], after: conv[1]!.seq, limit: 10, order: 'oldest' }).map((m) => m.text),
    ).toEqual(['three', 'four']);
  });

  it('an admission result never overrides a receipt that overtook it', () => {
    const s = open();
    const m = msg('alice', 'bob', 'fast', 1);
    s.write([m]);
    s.write([receipt(m, 'delivered', 2, 'handed to the agent'), routed(m, 'queued', 3)]);
    expect(s.query({ limit: 1, order: 'newest' })[0]?.outcome).toBe('delivered');
  });

  it('scopes to one session: only what it sent or received, and `with` only on the other side', () => {
    const s = open();
    const ab = msg('alice', 'bob', 'secret plan', 1);
    const bc = msg('bob', 'carol', 'secret too', 2);
    const ca = msg('carol', 'alice', 'hello alice', 3);
    s.write([ab, bc, ca]);
    const ids = (q: Parameters<HistoryStore['query']>[0]): string[] => s.query(q).map((m) => m.msgId);
    expect(ids({ scope: 'id-alice', limit: 10, order: 'oldest' })).toEqual([ab.msgId, ca.msgId]);
    expect(ids({ scope: 'id-alice', text: 'secret', limit: 10, order: 'oldest' })).toEqual([ab.msgId]);
    expect(ids({ scope: 'id-alice', with: 'carol', limit: 10, order: 'oldest' })).toEqual([ca.msgId]);
    expect(ids({ scope: 'id-carol', with: 'alice', limit: 10, order: 'oldest' })).toEqual([ca.msgId]);
    expect(ids({ scope: 'id-alice', with: 'id-alice', limit: 10, order: 'oldest' })).toEqual([]);
    const team = msg('dana', 'erin', 'team news', 4, { senderTeam: 'red', receiverTeam: 'red' });
    const toTeam = msg('alice', 'erin', 'to the team', 5, { receiverTeam: 'red' });
    s.write([team, toTeam]);
    expect(ids({ team: 'red', limit: 10, order: 'oldest' })).toEqual([team.msgId, toTeam.msgId]);
    expect(ids({ team: 'red', scope: 'id-alice', limit: 10, order: 'oldest' })).toEqual([toTeam.msgId]);
    // A name is not a scope: a session is scoped by its id only.
    expect(ids({ scope: 'alice', limit: 10, order: 'oldest' })).toEqual([]);
  });

  it('deletes one conversation (both directions) or everything', () => {
    const s = open();
    const ab = msg('alice', 'bob', 'x', 1);
    const ba = msg('bob', 'alice', 'y', 2);
    const ac = msg('alice', 'carol', 'z', 3);
    s.write([ab, receipt(ab, 'delivered', 5), ba, ac, receipt(ac, 'delivered', 6)]);
    expect(s.delete({ between: ['alice', 'bob'] })).toEqual({ deleted: 2 });
    expect(s.query({ limit: 10, order: 'oldest' }).map((m) => m.msgId)).toEqual([ac.msgId]);
    expect(s.query({ text: 'x', limit: 10, order: 'oldest' })).toEqual([]);
    expect(s.stats().events).toBe(1);
    expect(s.delete({ all: true })).toEqual({ deleted: 1 });
    expect(s.stats()).toMatchObject({ messages: 0, events: 0 });
  });

  it('uses SQLite FTS5 from node:sqlite (the runtime this hub runs on)', () => {
    const db = new DatabaseSync(':memory:');
    expect(() => db.exec('CREATE VIRTUAL TABLE t USING fts5(a)')).not.toThrow();
    db.close();
  });
});
