// Time as the hub sees it: wall-clock milliseconds for people, monotonic
// milliseconds for every countdown and rate. Tests pass a fake.

import { performance } from 'node:perf_hooks';

export interface Clock {
  /** Wall-clock milliseconds (shown to people). */
  now(): number;
  /** Monotonic milliseconds (every countdown and rate). */
  monotonic(): number;
}

export const systemClock: Clock = { now: () => Date.now(), monotonic: () => performance.now() };
