// The live index's offset → length table, in two typed arrays sorted by
// offset (records are appended in file order, so an add is a push) instead
// of a Map: 12 bytes per live record outside the JS heap, no hashing on the
// send path, lookups by binary search. A removed record leaves a hole
// (length 0: every record is at least its newline), squeezed out once holes
// are the majority and nobody is iterating. Iteration is in file order and
// sees records added meanwhile, as a Map's would.

const INITIAL = 1024;

export class OffsetTable {
  #off = new Float64Array(INITIAL);
  #len = new Int32Array(INITIAL);
  /** Slots used (live and holes). */
  #n = 0;
  #live = 0;
  #iterating = 0;

  get size(): number {
    return this.#live;
  }

  /** Adds a live record (`len` ≥ 1); an offset already present is replaced. */
  set(off: number, len: number): void {
    const n = this.#n;
    if (n > 0 && off <= this.#off[n - 1]!) return this.#insert(off, len);
    if (n === this.#off.length) this.#grow();
    this.#off[n] = off;
    this.#len[n] = len;
    this.#n = n + 1;
    this.#live++;
  }

  get(off: number): number | undefined {
    const i = this.#find(off);
    if (i < 0) return undefined;
    const len = this.#len[i]!;
    return len > 0 ? len : undefined;
  }

  /** Removes the record at `off`; false when there is none. */
  delete(off: number): boolean {
    const i = this.#find(off);
    if (i < 0 || this.#len[i]! === 0) return false;
    this.#len[i] = 0;
    this.#live--;
    if (this.#iterating === 0 && this.#n > INITIAL && this.#live * 2 < this.#n) this.#squeeze();
    return true;
  }

  /** Live records as [offset, length] in file order; records added meanwhile are seen, removed ones skipped. */
  *entries(): Generator<[number, number]> {
    this.#iterating++;
    try {
      for (let i = 0; i < this.#n; i++) {
        const len = this.#len[i]!;
        if (len > 0) yield [this.#off[i]!, len];
      }
    } finally {
      this.#iterating--;
    }
  }

  /** The slot of `off`, or -1. */
  #find(off: number): number {
    const a = this.#off;
    let lo = 0;
    let hi = this.#n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = a[mid]!;
      if (v < off) lo = mid + 1;
      else if (v > off) hi = mid - 1;
      else return mid;
    }
    return -1;
  }

  /** Out of file order (never on the append path): a sorted insert. */
  #insert(off: number, len: number): void {
    const i = this.#find(off);
    if (i >= 0) {
      if (this.#len[i]! === 0) this.#live++;
      this.#len[i] = len;
      return;
    }
    if (this.#n === this.#off.length) this.#grow();
    let at = 0;
    while (at < this.#n && this.#off[at]! < off) at++;
    this.#off.copyWithin(at + 1, at, this.#n);
    this.#len.copyWithin(at + 1, at, this.#n);
    this.#off[at] = off;
    this.#len[at] = len;
    this.#n++;
    this.#live++;
  }

  #grow(): void {
    const off = new Float64Array(this.#off.length * 2);
    const len = new Int32Array(this.#len.length * 2);
    off.set(this.#off.subarray(0, this.#n));
    len.set(this.#len.subarray(0, this.#n));
    this.#off = off;
    this.#len = len;
  }

  /** Drops the holes (and gives back memory when the table is mostly empty). */
  #squeeze(): void {
    let j = 0;
    for (let i = 0; i < this.#n; i++) {
      const len = this.#len[i]!;
      if (len === 0) continue;
      this.#off[j] = this.#off[i]!;
      this.#len[j] = len;
      j++;
    }
    this.#n = j;
    const cap = Math.max(INITIAL, 2 ** Math.ceil(Math.log2(Math.max(1, j * 2))));
    if (cap < this.#off.length) {
      this.#off = this.#off.slice(0, cap);
      this.#len = this.#len.slice(0, cap);
    }
  }
}
