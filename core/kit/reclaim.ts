// Gives memory back after a burst. V8 grows its young generation (to 64 MB
// on Node 24) and old generation during a burst of requests or a storm of
// short-lived sessions, and keeps the pages after: RSS stays at the burst's
// peak. A sweep that finds the burst over (sessions stopped ending, or the
// heap grew by RECLAIM_HEAP_GROWTH and requests have calmed down) asks V8 for
// one memory-reducing ("last resort") collection, which shrinks the young
// generation and returns free pages, at most once per RECLAIM_MIN_INTERVAL_MS.
// Best effort: where no collector can be reached, nothing happens.

import { runInNewContext } from 'node:vm';
import v8 from 'node:v8';

const RECLAIM_AFTER_ENDED = 1000; // a storm, not the ordinary coming and going of agents
/** A memory-reducing collection of a 40 MB heap stopped the loop 0.2–0.7 s on a loaded 2-core VM (2–3× a plain full one). */
const RECLAIM_MIN_INTERVAL_MS = 10_000;
/** Heap growth since the last collection that counts as a burst (the idle hub's heap is ~20 MB). */
export const RECLAIM_HEAP_GROWTH = 24 * 1024 * 1024;
/** Requests per sweep below which a burst is over (agents' own traffic is far below this). */
export const RECLAIM_QUIET_REQUESTS = 200;
/** The gc() extension's options for a collection that also shrinks the heap (older V8 ignores them: a plain full one). */
const LAST_RESORT = { type: 'major', execution: 'sync', flavor: 'last-resort' };

type Collector = (options?: unknown) => void;
let collector: Collector | null | undefined;

/** `gc()`, exposed on demand (Node and Electron allow it from the main process). */
function fullCollection(): Collector | null {
  if (collector !== undefined) return collector;
  try {
    const g = (globalThis as { gc?: Collector }).gc;
    if (typeof g === 'function') return (collector = g);
    v8.setFlagsFromString('--expose-gc');
    const fn = runInNewContext('gc') as unknown;
    collector = typeof fn === 'function' ? (fn as Collector) : null;
  } catch {
    collector = null;
  }
  return collector;
}

export interface ReclaimerOptions {
  /** Monotonic milliseconds. */
  now: () => number;
  /** Bytes V8 holds for the heap (tests give their own). */
  heapBytes?: () => number;
  /** Runs the memory-reducing collection; false when none is available. */
  collect?: () => boolean;
}

function realCollect(): boolean {
  const gc = fullCollection();
  if (gc === null) return false;
  gc(LAST_RESORT);
  return true;
}

export class Reclaimer {
  #ended = 0;
  #endedAtLastSweep = 0;
  #requests = 0;
  #lastAt = -Infinity;
  readonly #now: () => number;
  readonly #heapBytes: () => number;
  readonly #collect: () => boolean;
  /** The heap's size after the last collection (or at start): growth is measured from here. */
  #heapBase: number;

  constructor(opts: ReclaimerOptions) {
    this.#now = opts.now;
    this.#heapBytes = opts.heapBytes ?? (() => v8.getHeapStatistics().total_heap_size);
    this.#collect = opts.collect ?? realCollect;
    this.#heapBase = this.#heapBytes();
  }

  sessionEnded(): void {
    this.#ended++;
  }

  /** Counts one request (the burst is over when few arrive per sweep). */
  request(): void {
    this.#requests++;
  }

  /** Called by each sweep: collects once when a storm or a burst is over. Returns whether it did. */
  sweep(): boolean {
    const requests = this.#requests;
    this.#requests = 0;
    const endingsQuiet = this.#ended === this.#endedAtLastSweep;
    this.#endedAtLastSweep = this.#ended;
    if (this.#now() - this.#lastAt < RECLAIM_MIN_INTERVAL_MS) return false;
    const storm = endingsQuiet && this.#ended >= RECLAIM_AFTER_ENDED;
    const burst = requests < RECLAIM_QUIET_REQUESTS && this.#heapBytes() - this.#heapBase >= RECLAIM_HEAP_GROWTH;
    if (!storm && !burst) return false;
    this.#ended = 0;
    this.#endedAtLastSweep = 0;
    this.#lastAt = this.#now();
    const done = this.#collect();
    this.#heapBase = this.#heapBytes();
    return done;
  }
}
