// Messages come before history: the journal and history share the state
// directory's disk, and history's files grow by megabytes at a time. While
// that disk has less free than the reserve, history writes nothing (what it
// would have written is a counted gap) and says why; it writes again once
// there is room. One statfs per check, at most one check a second.

import fs from 'node:fs';

const CHECK_EVERY_MS = 1000;
const MIB = 1024 * 1024;

export class DiskReserve {
  readonly #dir: string;
  readonly #bytes: number;
  readonly #now: () => number;
  #checkedAt = -Infinity;
  #problem: string | null = null;

  /** `now`: monotonic milliseconds. */
  constructor(dir: string, reserveBytes: number, now: () => number) {
    this.#dir = dir;
    this.#bytes = reserveBytes;
    this.#now = now;
  }

  /** Why history does not write now (the disk is short of the reserve), or null; re-checked at most once a second. */
  problem(): string | null {
    const now = this.#now();
    if (now - this.#checkedAt < CHECK_EVERY_MS) return this.#problem;
    this.#checkedAt = now;
    let free: number;
    try {
      const st = fs.statfsSync(this.#dir);
      free = st.bavail * st.bsize;
    } catch {
      return (this.#problem = null); // cannot tell: the writes themselves will say
    }
    this.#problem =
      free < this.#bytes
        ? `paused: the disk holding ${this.#dir} has ${(free / MIB).toFixed(1)} MiB free; history writes nothing below ${(this.#bytes / MIB).toFixed(1)} MiB so that messages keep room`
        : null;
    return this.#problem;
  }
}
