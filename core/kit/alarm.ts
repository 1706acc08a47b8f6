// One timer for the earliest moment something is due, instead of a poll:
// its owner says when (`at`), or that nothing is pending (`at(null)`), after
// every change that could move the moment, and again from `run`. Times are
// on the owner's time base (`now`: the clock's monotonic or wall time); a
// clock that can be moved (tests' fake clocks, `onAdvance`) is followed. A
// moment further than MAX_WAIT_MS away waits in steps (a timer cannot wait
// longer than 2^31 ms). Never throws: `run` must handle its own failures.

import type { Clock } from './clock.js';

/** The longest single wait; a later moment is checked again then. */
const MAX_WAIT_MS = 24 * 3600_000;

export class Alarm {
  readonly #now: () => number;
  readonly #run: () => void;
  #timer: NodeJS.Timeout | undefined;
  #when: number | null = null;
  readonly #unfollow: (() => void) | undefined;
  #closed = false;

  /** `run` is called once the moment set last has come (the owner sets the next one). */
  constructor(clock: Clock, now: () => number, run: () => void) {
    this.#now = now;
    this.#run = run;
    this.#unfollow = clock.onAdvance?.(() => this.#arm());
  }

  /** The moment set last, or null. */
  get when(): number | null {
    return this.#when;
  }

  /** Runs at `when` (replacing any earlier setting); null: nothing is due. */
  at(when: number | null): void {
    if (this.#closed) return;
    this.#when = when;
    this.#arm();
  }

  /** Runs at `when` unless already set to run sooner. */
  atLatest(when: number): void {
    if (this.#when === null || when < this.#when) this.at(when);
  }

  #arm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#when === null || this.#closed) return;
    const wait = Math.max(0, Math.min(MAX_WAIT_MS, this.#when - this.#now()));
    this.#timer = setTimeout(() => this.#fire(), wait);
    this.#timer.unref();
  }

  #fire(): void {
    this.#timer = undefined;
    if (this.#when === null) return;
    if (this.#when > this.#now()) return this.#arm(); // a long wait in steps
    this.#when = null;
    this.#run();
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#unfollow?.();
  }
}
