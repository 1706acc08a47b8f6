import { describe, expect, it } from 'vitest';
import { HeldQueue, type HeldEntry } from '../../../core/policy/held.js';
import { THROTTLE_DEFAULTS } from '../../../core/settings/effective.js';
import { Throttle } from '../../../core/policy/throttle.js';
import type { Envelope } from '../../../core/delivery/envelope.js';

function fakeClock() {
  let t = 1000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const S = THROTTLE_DEFAULTS;

describe('throttle (docs/design.md#10-throttling)', () => {
  it('drops an identical repeat within 30 s as duplicate, not after', () => {
    const c = fakeClock();
    const t = new Throttle(c.now);
    expect(t.admit('r', 's', 'same', 0, S)).toBeNull();
    c.advance(29_999);
    expect(t.admit('r', 's', 'same', 0, S)).toBe('duplicate');
    expect(t.admit('r', 'other-sender', 'same', 0, S)).toBeNull();
    expect(t.admit('r', 's', 'different', 0, S)).toBeNull();
    c.advance(30_000);
    expect(t.admit('r', 's', 'different', 0, S)).toBeNull();
  });

  it('a bucket of 30 refilled at 0.5/s limits the rate', () => {
    const c = fakeClock();
    const t = new Throttle(c.now);
    for (let i = 0; i < 30; i++) expect(t.admit('r', 's', `m${i}`, 0, S)).toBeNull();
    expect(t.admit('r', 's', 'm30', 0, S)).toBe('rate-limited');
    c.advance(1999);
    expect(t.admit('r', 's', 'm31', 0, S)).toBe('rate-limited');
    c.advance(1);
    expect(t.admit('r', 's', 'm32', 0, S)).toBeNull();
    expect(t.admit('r', 's', 'm33', 0, S)).toBe('rate-limited');
  });

  it('50 or more unread peer messages mean queue-full', () => {
    const t = new Throttle(fakeClock().now);
    expect(t.admit('r', 's', 'a', 49, S)).toBeNull();
    expect(t.admit('r', 's', 'b', 50, S)).toBe('queue-full');
  });

  it('folds drop reports: at most one per sender per 60 s, with the count', () => {
    const c = fakeClock();
    const t = new Throttle(c.now);
    expect(t.dropped('r', 's', 'rate-limited', S)).toBe(1);
    for (let i = 0; i < 5; i++) expect(t.dropped('r', 's', 'rate-limited', S)).toBe(0);
    expect(t.flush(() => 60_000)).toEqual([]);
    c.advance(60_000);
    expect(t.flush(() => 60_000)).toEqual([{ receiverId: 'r', senderKey: 's', count: 5, reason: 'rate-limited' }]);
    expect(t.flush(() => 60_000)).toEqual([]);
    expect(t.dropped('r', 's', 'duplicate', S)).toBe(0);
    c.advance(60_000);
    expect(t.dropped('r', 's', 'duplicate', S)).toBe(2);
  });

  it('honours other numbers from settings', () => {
    const c = fakeClock();
    const t = new Throttle(c.now);
    const s = { ...S, bucketSize: 2, duplicateWindowMs: 0 };
    expect(t.admit('r', 's', 'x', 0, s)).toBeNull();
    expect(t.admit('r', 's', 'x', 0, s)).toBeNull();
    expect(t.admit('r', 's', 'x', 0, s)).toBe('rate-limited');
  });
});

function entry(id: string, receiverId = 'r'): HeldEntry {
  const env: Envelope = {
    msgId: id,
    fromAddress: 'uds:/x',
    fromName: 'x',
    fromSessionId: null,
    fromClass: null,
    ownChild: false,
    summary: null,
    body: id,
    at: 0,
  };
  return { id, receiverId, env, reason: 'test', heldAt: 0, deadline: null };
}

describe('held queue', () => {
  it('keeps at most 100 per receiver, evicting the oldest', () => {
    const q = new HeldQueue(100, fakeClock().now);
    for (let i = 0; i < 100; i++) expect(q.add(entry(`m${i}`))).toBeUndefined();
    expect(q.add(entry('other', 'r2'))).toBeUndefined();
    expect(q.add(entry('m100'))?.id).toBe('m0');
    expect(q.forReceiver('r')).toHaveLength(100);
    expect(q.forReceiver('r')[0]!.id).toBe('m1');
    expect(q.size).toBe(101);
  });

  it('counts down only once an interface is attached, on the monotonic clock', () => {
    const c = fakeClock();
    const q = new HeldQueue(100, c.now);
    q.add(entry('a'));
    c.advance(10 * 60_000);
    expect(q.takeExpired()).toEqual([]);
    q.startCountdowns(300_000);
    expect(q.remainingMs(q.get('a')!)).toBe(300_000);
    c.advance(299_999);
    expect(q.takeExpired()).toEqual([]);
    c.advance(1);
    expect(q.takeExpired().map((e) => e.id)).toEqual(['a']);
    expect(q.size).toBe(0);
  });

  it('never expires with dialogExpiry "never"', () => {
    const c = fakeClock();
    const q = new HeldQueue(100, c.now);
    q.add(entry('a'));
    q.startCountdowns(null);
    c.advance(365 * 24 * 3600_000);
    expect(q.takeExpired()).toEqual([]);
    expect(q.take('a')?.id).toBe('a');
    expect(q.take('a')).toBeUndefined();
  });
});
