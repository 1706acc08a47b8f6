// Which byte ranges of the journal file are still live: the last record of
// each session, item and held message that no later record replaced or
// deleted. It follows applyRecord exactly, so copying the live ranges in
// file order replays to the same state as the whole file. It never reads
// the file and never holds record text: one small entry per live record.

import type { JournalRecord } from './records.js';

/** One live record's bytes in the file (its line and the newline). */
export interface Entry {
  off: number;
  len: number;
  /** Where a compaction copied it (set while one runs). */
  moved?: number;
}

export class LiveIndex {
  /** Live entries by offset; insertion order is file order. */
  #byOff = new Map<number, Entry>();
  readonly #sessions = new Map<string, Entry>();
  readonly #items = new Map<string, Map<string, Entry>>();
  readonly #held = new Map<string, Map<string, Entry>>();
  #bytes = 0;

  /** Bytes of live records. */
  get bytes(): number {
    return this.#bytes;
  }

  get count(): number {
    return this.#byOff.size;
  }

  /** Live entries in file order (safe to iterate while records are added or killed). */
  entries(): IterableIterator<Entry> {
    return this.#byOff.values();
  }

  /** Accounts for `rec`, written at [off, off + len). */
  apply(rec: JournalRecord, off: number, len: number): void {
    switch (rec.t) {
      case 's':
        this.#kill(this.#sessions.get(rec.s.id));
        this.#sessions.set(rec.s.id, this.#add(off, len));
        break;
      case 'd':
        this.#kill(this.#sessions.get(rec.id));
        this.#sessions.delete(rec.id);
        for (const map of [this.#items, this.#held]) {
          for (const e of map.get(rec.id)?.values() ?? []) this.#kill(e);
          map.delete(rec.id);
        }
        break;
      case 'i':
        this.#set(this.#items, rec.id, rec.item.id, off, len);
        break;
      case 'h':
        this.#set(this.#held, rec.id, rec.held.id, off, len);
        break;
      case 'a':
      case 'hx': {
        const map = (rec.t === 'a' ? this.#items : this.#held).get(rec.id);
        if (map === undefined) break;
        for (const id of rec.ids) {
          this.#kill(map.get(id));
          map.delete(id);
        }
        break;
      }
      default: {
        const never: never = rec;
        void never;
      }
    }
  }

  /**
   * After a compaction: entries below `snapshotEnd` moved to `moved`, the
   * rest (appended while it ran, copied verbatim) shift by `shift`.
   */
  remap(snapshotEnd: number, shift: number): void {
    const next = new Map<number, Entry>();
    for (const e of this.#byOff.values()) {
      if (e.off < snapshotEnd) {
        if (e.moved === undefined) throw new Error(`journal compaction missed a live record at ${e.off}`);
        e.off = e.moved;
      } else e.off += shift;
      e.moved = undefined;
      next.set(e.off, e);
    }
    this.#byOff = next;
  }

  /** Forgets where a failed compaction copied entries. */
  clearMoved(): void {
    for (const e of this.#byOff.values()) e.moved = undefined;
  }

  #set(maps: Map<string, Map<string, Entry>>, sessionId: string, key: string, off: number, len: number): void {
    let map = maps.get(sessionId);
    if (map === undefined) maps.set(sessionId, (map = new Map<string, Entry>()));
    this.#kill(map.get(key));
    map.set(key, this.#add(off, len));
  }

  #add(off: number, len: number): Entry {
    const e: Entry = { off, len };
    this.#byOff.set(off, e);
    this.#bytes += len;
    return e;
  }

  #kill(e: Entry | undefined): void {
    if (e === undefined || this.#byOff.get(e.off) !== e) return;
    this.#byOff.delete(e.off);
    this.#bytes -= e.len;
  }
}
