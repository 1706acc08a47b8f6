// The per-session budget of writes to a Claude Code socket (core/wake/socket-budget.ts):
// a burst, a refill per second, and no identical text twice within the repeat window.
import { describe, expect, it } from 'vitest';
import { SocketBudget } from '../../../core/wake/socket-budget.js';

const budget = () => new SocketBudget(() => ({ burst: 2, perSecond: 0.5, repeatMs: 30_000 }));

describe('SocketBudget', () => {
  it('spends a burst, then regains writes at its rate, never above the burst', () => {
    const b = budget();
    expect(b.available('s', 0)).toBe(2);
    expect(b.take('s', 'a', 0)).toBe('taken');
    expect(b.take('s', 'b', 0)).toBe('taken');
    expect(b.take('s', 'c', 0)).toBe('empty');
    expect(b.available('s', 1999)).toBe(0);
    expect(b.available('s', 2000)).toBe(1);
    expect(b.available('s', 60_000)).toBe(2);
    expect(b.available('other', 0), 'per session').toBe(2);
  });

  it('an identical text waits out the repeat window, and spends nothing meanwhile', () => {
    const b = budget();
    expect(b.take('s', 'same', 0)).toBe('taken');
    expect(b.take('s', 'same', 29_999)).toBe('repeat');
    expect(b.available('s', 29_999)).toBe(2);
    expect(b.take('s', 'same', 30_000)).toBe('taken');
  });

  it('a clock that goes back regains nothing', () => {
    const b = budget();
    b.take('s', 'a', 10_000);
    b.take('s', 'b', 10_000);
    expect(b.available('s', 0)).toBe(0);
  });
});
