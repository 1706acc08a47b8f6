// Gives memory back after a storm of ended sessions. V8 keeps the garbage of
// thousands of short-lived sessions (sockets, records, journal lines) in an
// old generation it only collects when a limit far above the live data is
// reached, so RSS stays at the storm's peak. Once many sessions ended and the
// ending has stopped for a sweep, a few full collections are requested (as
// V8's own memory reducer does; one alone does not shrink the heap), at most
// once per RECLAIM_MIN_INTERVAL_MS; V8 then returns the pages. Best effort:
// where no collector can be reached, nothing happens.

import { runInNewContext } from 'node:vm';
import v8 from 'node:v8';

const RECLAIM_AFTER_ENDED = 1000; // a storm, not the ordinary coming and going of agents
const RECLAIM_MIN_INTERVAL_MS = 10_000; // a full collection of the hub's small heap costs ~10 ms
const COLLECTIONS = 3; // measured: the first frees objects, the next ones shrink and release the heap

let collector: (() => void) | null | undefined;

/** `gc()`, exposed on demand (Node and Electron allow it from the main process). */
function fullCollection(): (() => void) | null {
  if (collector !== undefined) return collector;
  try {
    const g = (globalThis as { gc?: () => void }).gc;
    if (typeof g === 'function') return (collector = g);
    v8.setFlagsFromString('--expose-gc');
    const fn = runInNewContext('gc') as unknown;
    collector = typeof fn === 'function' ? (fn as () => void) : null;
  } catch {
    collector = null;
  }
  return collector;
}

export class Reclaimer {
  #ended = 0;
  #endedAtLastSweep = 0;
  #lastAt = -Infinity;
  readonly #now: () => number;

  constructor(monotonicNow: () => number) {
    this.#now = monotonicNow;
  }

  sessionEnded(): void {
    this.#ended++;
  }

  /** Called by each sweep: collects once when a storm of endings is over. Returns whether it did. */
  sweep(): boolean {
    const quiet = this.#ended === this.#endedAtLastSweep;
    this.#endedAtLastSweep = this.#ended;
    if (!quiet || this.#ended < RECLAIM_AFTER_ENDED || this.#now() - this.#lastAt < RECLAIM_MIN_INTERVAL_MS) return false;
    const gc = fullCollection();
    this.#ended = 0;
    this.#endedAtLastSweep = 0;
    this.#lastAt = this.#now();
    if (gc === null) return false;
    for (let i = 0; i < COLLECTIONS; i++) gc();
    return true;
  }
}
