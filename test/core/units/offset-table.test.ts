// The live index's offset table (core/journal/offset-table.ts) behaves as
// the Map it replaced: the same answers for random adds and removals, file
// order, and iteration that sees records added meanwhile and skips removed ones.
import { describe, expect, it } from 'vitest';
import { OffsetTable } from '../../../core/journal/offset-table.js';

/** A small deterministic generator (the test must not depend on Math.random). */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

describe('offset table', () => {
  it('answers as a Map would over 10 000 random steps of appends and removals', () => {
    const t = new OffsetTable();
    const m = new Map<number, number>();
    const r = rng(7);
    let end = 0;
    const live: number[] = [];
    for (let step = 0; step < 10_000; step++) {
      if (r() < 0.55 || live.length === 0) {
        const len = 1 + Math.floor(r() * 300);
        t.set(end, len);
        m.set(end, len);
        live.push(end);
        end += len;
      } else {
        const i = Math.floor(r() * live.length);
        const off = live[i]!;
        live.splice(i, 1);
        expect(t.delete(off)).toBe(m.delete(off));
      }
      const probe = live[Math.floor(r() * live.length)] ?? 0;
      expect(t.get(probe)).toBe(m.get(probe));
      expect(t.get(probe + 0.5)).toBeUndefined();
      expect(t.size).toBe(m.size);
    }
    expect([...t.entries()]).toEqual([...m.entries()]);
    for (const off of live) expect(t.delete(off)).toBe(true);
    expect(t.delete(live[0]!)).toBe(false);
    expect(t.size).toBe(0);
    expect([...t.entries()]).toEqual([]);
  });

  it('an iteration sees records appended meanwhile and skips those removed meanwhile', () => {
    const t = new OffsetTable();
    for (let i = 0; i < 3000; i++) t.set(i * 10, 10);
    const seen: number[] = [];
    for (const [off] of t.entries()) {
      seen.push(off);
      if (off === 0) for (let i = 1; i < 2900; i++) t.delete(i * 10); // most become holes while iterating
      if (off === 29_990) t.set(40_000, 5); // appended while iterating
    }
    expect(seen, 'file order, without the removed, with the appended').toEqual([
      0,
      ...Array.from({ length: 100 }, (_, i) => (2900 + i) * 10),
      40_000,
    ]);
    expect(t.size).toBe(102);
    t.delete(0); // not iterating now: squeezed, the answers are the same
    expect(
      [...t.entries()].map(([o]) => o),
      'squeezed after the iteration, the same answers',
    ).toEqual(seen.slice(1));
    expect(t.get(40_000)).toBe(5);
  });

  it('takes an offset out of order (a remap never does; still sorted) and replaces an existing one', () => {
    const t = new OffsetTable();
    t.set(100, 1);
    t.set(300, 3);
    t.set(200, 2);
    t.set(300, 4);
    expect([...t.entries()]).toEqual([
      [100, 1],
      [200, 2],
      [300, 4],
    ]);
    expect(t.size).toBe(3);
    t.delete(200);
    t.set(200, 7);
    expect(t.get(200)).toBe(7);
    expect(t.size).toBe(3);
  });
});
