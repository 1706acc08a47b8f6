// The reclaimer gives memory back once a burst is over: after a storm of
// ended sessions, and after a burst of requests that grew the heap, at most
// once per interval and never while requests still pour in.

import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { Reclaimer, RECLAIM_HEAP_GROWTH, RECLAIM_QUIET_REQUESTS } from '../../core/kit/reclaim.js';

const MB = 1024 * 1024;

function fake(): { r: Reclaimer; clock: { t: number }; heap: { bytes: number }; collections: () => number } {
  const clock = { t: 0 };
  const heap = { bytes: 20 * MB };
  let n = 0;
  const r = new Reclaimer({
    now: () => clock.t,
    heapBytes: () => heap.bytes,
    collect: () => (n++, (heap.bytes = 22 * MB), true),
  });
  return { r, clock, heap, collections: () => n };
}

describe('Reclaimer', () => {
  it('collects once a burst of requests that grew the heap is over, and not while it lasts', () => {
    const { r, clock, heap, collections } = fake();
    heap.bytes += RECLAIM_HEAP_GROWTH + MB;
    for (let i = 0; i < RECLAIM_QUIET_REQUESTS * 10; i++) r.request();
    clock.t += 1000;
    expect(r.sweep()).toBe(false); // still busy
    expect(collections()).toBe(0);
    clock.t += 1000;
    expect(r.sweep()).toBe(true); // quiet now
    expect(collections()).toBe(1);
    clock.t += 1000;
    expect(r.sweep()).toBe(false); // the heap is back near its base
    expect(collections()).toBe(1);
  });

  it('does not collect for ordinary traffic that does not grow the heap', () => {
    const { r, clock, heap, collections } = fake();
    for (let s = 0; s < 30; s++) {
      for (let i = 0; i < 50; i++) r.request();
      heap.bytes += MB / 2 - (s % 2) * MB; // a heap that breathes
      clock.t += 1000;
      r.sweep();
    }
    expect(collections()).toBe(0);
  });

  it('collects at most once per interval', () => {
    const { r, clock, heap, collections } = fake();
    for (let s = 0; s < 12; s++) {
      heap.bytes += RECLAIM_HEAP_GROWTH + MB; // grows again before every sweep
      clock.t += 1000;
      r.sweep();
    }
    expect(collections()).toBe(2); // at 1 s and 11 s
  });

  it('still collects after a storm of ended sessions without heap growth', () => {
    const { r, clock, collections } = fake();
    for (let i = 0; i < 1000; i++) r.sessionEnded();
    clock.t += 1000;
    expect(r.sweep()).toBe(false); // endings still arriving in this sweep
    clock.t += 1000;
    expect(r.sweep()).toBe(true);
    expect(collections()).toBe(1);
  });

  it("with V8's own collector, shrinks a young generation that a burst grew", () => {
    const newSpace = (): number =>
      v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
    let t = 0;
    const r = new Reclaimer({ now: () => t });
    // A burst: many short-lived objects with a share that survives, as queued messages do.
    const kept: object[] = [];
    for (let i = 0; i < 3_000_000; i++) {
      const o = { i, s: `message ${i}` };
      if (i % 10 === 0) kept.push(o);
    }
    const grown = newSpace();
    expect(grown).toBeGreaterThan(8 * MB); // V8 grew it (to 64 MB on Node 24)
    t += 1000;
    expect(r.sweep()).toBe(true);
    expect(newSpace()).toBeLessThan(grown / 2);
    expect(kept.length).toBe(300_000);
  });
});
