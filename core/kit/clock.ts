// Time as the hub sees it: wall-clock milliseconds for people, monotonic
// milliseconds for every countdown and rate. Tests pass a fake.

import { performance } from 'node:perf_hooks';

export interface Clock {
  /** Wall-clock milliseconds (shown to people). */
  now(): number;
  /** Monotonic milliseconds (every countdown and rate). */
  monotonic(): number;
  /** A clock that jumps (tests' fake clocks) calls `listener` after each jump; returns the unsubscribe. */
  onAdvance?(listener: () => void): () => void;
}

export const systemClock: Clock = { now: () => Date.now(), monotonic: () => performance.now() };
