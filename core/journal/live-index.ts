// Which byte ranges of the journal file are still live: the last record of
// each session, item and held message that no later record replaced or
// deleted. It follows applyRecord exactly, so copying the live ranges in
// file order replays to the same state as the whole file. It never reads
// the file and never holds record text: an offset and a length per live record.

import type { JournalRecord } from './records.js';
import { OffsetTable } from './offset-table.js';

/**
 * Offsets and lengths only, no object per record (one per queued message
 * was ~40 bytes and a young-generation survivor): keys map to the offset of
 * their live record, offsets to its length (line and newline) in typed
 * arrays (offset-table.ts).
 */
export class LiveIndex {
  /** Live records: offset → length; insertion order is file order. */
  #byOff = new OffsetTable();
  readonly #sessions = new Map<string, number>();
  readonly #items = new Map<string, Map<string, number>>();
  readonly #held = new Map<string, Map<string, number>>();
  /** Relay sends awaiting receipts and receipts awaiting the broker, by their ids. */
  readonly #relayOut = new Map<string, number>();
  readonly #relayReceipts = new Map<string, number>();
  /** The latest format header: live until a newer one replaces it. */
  #header: number | undefined;
  /** Records of a type this hub does not know: live forever, so compaction never erases them. */
  #opaque = 0;
  /** Where a running compaction copied records (offset → new offset). */
  #moved: Map<number, number> | undefined;
  #bytes = 0;

  /** Bytes of live records. */
  get bytes(): number {
    return this.#bytes;
  }

  get count(): number {
    return this.#byOff.size;
  }

  /** Live records as [offset, length] in file order (safe to iterate while records are added or killed). */
  entries(): Generator<[number, number]> {
    return this.#byOff.entries();
  }

  /** Where the live record of a queued item is now, as [offset, length]; undefined when it has none. */
  itemAt(sessionId: string, itemId: string): [number, number] | undefined {
    const off = this.#items.get(sessionId)?.get(itemId);
    if (off === undefined) return undefined;
    const len = this.#byOff.get(off);
    return len === undefined ? undefined : [off, len];
  }

  /** A compaction copied the record at `off` to `to` in the new file. */
  moved(off: number, to: number): void {
    (this.#moved ??= new Map()).set(off, to);
  }

  /** Records kept only because this hub does not understand them. */
  get opaque(): number {
    return this.#opaque;
  }

  /** A record of a type this hub does not know, at [off, off + len): kept as it is, never killed. */
  keep(off: number, len: number): void {
    this.#add(off, len);
    this.#opaque++;
  }

  /** Accounts for `rec`, written at [off, off + len). */
  apply(rec: JournalRecord, off: number, len: number): void {
    switch (rec.t) {
      case 'v':
        this.#kill(this.#header);
        this.#header = this.#add(off, len);
        break;
      case 'ro':
      case 'rr': {
        const map = rec.t === 'ro' ? this.#relayOut : this.#relayReceipts;
        const id = rec.t === 'ro' ? rec.out.msgId : rec.rr.id;
        this.#kill(map.get(id));
        map.set(id, this.#add(off, len));
        break;
      }
      case 'rox':
      case 'rrx': {
        const map = rec.t === 'rox' ? this.#relayOut : this.#relayReceipts;
        for (const id of rec.ids) {
          this.#kill(map.get(id));
          map.delete(id);
        }
        break;
      }
      case 's':
        this.#kill(this.#sessions.get(rec.s.id));
        this.#sessions.set(rec.s.id, this.#add(off, len));
        break;
      case 'd':
        this.#kill(this.#sessions.get(rec.id));
        this.#sessions.delete(rec.id);
        for (const map of [this.#items, this.#held]) {
          for (const o of map.get(rec.id)?.values() ?? []) this.#kill(o);
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
   * After a compaction: records below `snapshotEnd` moved where moved() said,
   * the rest (appended while it ran, copied verbatim) shift by `shift`.
   */
  remap(snapshotEnd: number, shift: number): void {
    const moved = this.#moved ?? new Map<number, number>();
    const where = (off: number): number => {
      if (off >= snapshotEnd) return off + shift;
      const to = moved.get(off);
      if (to === undefined) throw new Error(`journal compaction missed a live record at ${off}`);
      return to;
    };
    const next = new OffsetTable();
    for (const [off, len] of this.#byOff.entries()) next.set(where(off), len);
    for (const map of [this.#sessions, this.#relayOut, this.#relayReceipts])
      for (const [k, off] of map) map.set(k, where(off));
    if (this.#header !== undefined) this.#header = where(this.#header);
    for (const maps of [this.#items, this.#held])
      for (const map of maps.values()) for (const [k, off] of map) map.set(k, where(off));
    this.#byOff = next;
    this.#moved = undefined;
  }

  /** Forgets where a failed compaction copied records. */
  clearMoved(): void {
    this.#moved = undefined;
  }

  #set(maps: Map<string, Map<string, number>>, sessionId: string, key: string, off: number, len: number): void {
    let map = maps.get(sessionId);
    if (map === undefined) maps.set(sessionId, (map = new Map<string, number>()));
    this.#kill(map.get(key));
    map.set(key, this.#add(off, len));
  }

  #add(off: number, len: number): number {
    this.#byOff.set(off, len);
    this.#bytes += len;
    return off;
  }

  /** Per-key maps hold only live offsets, and an offset is never reused within one numbering. */
  #kill(off: number | undefined): void {
    if (off === undefined) return;
    const len = this.#byOff.get(off);
    if (len === undefined) return;
    this.#byOff.delete(off);
    this.#bytes -= len;
  }
}
