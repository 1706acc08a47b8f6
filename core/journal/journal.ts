// The durable record of sessions and their unacknowledged inbox items: an
// append-only NDJSON file under the state directory. Contract: append()
// resolves only after its bytes were handed to the kernel with write(2), so
// a killed process loses nothing that was answered `queued`; records of the
// same tick share one write (group commit) and fdatasync runs at most every
// `syncMs`. Replay streams the file (journal-file.ts refuses a file that is
// not ours, replay.ts never loads it whole); a record that cannot be
// serialized or is over the line limit is refused at append, never written.
// readItem() reads a queued item back from its live record (read-back.ts).
// Compaction (compact.ts) runs when dead bytes pass both a floor and half
// the file, copying live bytes in chunks between yields.

import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { CompactionAborted, compactFile, removeDeadTemps } from './compact.js';
import { openJournalFile } from './journal-file.js';
import type { LiveIndex } from './live-index.js';
import { JOURNAL_FORMAT, type JournalRecord, type JournalState } from './records.js';
import { readItemAt } from './read-back.js';
import { recordLine } from './record-line.js';
import { replay } from './replay.js';
import type { InboxItem } from '../protocol/results.js';
import { storageError } from '../storage/storage-error.js';

export { applyRecord, emptyState, type HeldRecord, type JournalRecord, type JournalState } from './records.js';
export { JournalError } from './journal-file.js';
export { JournalReadError } from './read-back.js';

const FILE = 'journal.ndjson';
/** Compact only when dead bytes are at least this share of the file: each byte is rewritten O(1) times. */
const DEAD_RATIO = 0.5;
/** After a failed compaction, wait this long before the next try (a full disk stays full for a while). */
const COMPACT_RETRY_MS = 60_000;

/** The journal's logging needs (structurally the hub's Logger). */
export interface JournalLog {
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export interface JournalOptions {
  syncMs: number;
  /** Dead bytes below which the journal is never compacted. */
  compactBytes: number;
  /** Longest record line, in bytes (longer ones are refused at append and dropped at replay). */
  lineBytes: number;
  /** The owner the file must have (negative: not checked). */
  uid?: number;
  log?: JournalLog;
  /** Named in the format header this hub writes (`switchboard <version>`). */
  writer?: string;
}

const quiet: JournalLog = { warn: () => undefined, error: () => undefined };

export class Journal {
  readonly #file: string;
  readonly #opts: JournalOptions;
  readonly #log: JournalLog;
  readonly #index: LiveIndex;
  #fd: number;
  #size: number;
  /** A failed write may have left a partial line: the next write starts a new one. */
  #torn: boolean;
  /** Records queued for the next group commit, and their lines (same order). */
  #pending: JournalRecord[] = [];
  #lines: string[] = [];
  /** One promise per group commit, shared by every record of the batch. */
  #batch: { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } | undefined;
  #dirty = false;
  #syncTimer: NodeJS.Timeout | undefined;
  #closed = false;
  #compacting = false;
  #retryAt = 0;

  private constructor(file: string, fd: number, opts: JournalOptions, index: LiveIndex, size: number, torn: boolean) {
    this.#file = file;
    this.#fd = fd;
    this.#opts = opts;
    this.#log = opts.log ?? quiet;
    this.#index = index;
    this.#size = size;
    this.#torn = torn;
  }

  /**
   * Opens (creating 0600) the journal in `dir` and replays it by streaming.
   * Throws JournalError when the file is a link, not ours, loose or unreadable.
   */
  static async open(dir: string, opts: JournalOptions): Promise<{ journal: Journal; state: JournalState }> {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, FILE);
    removeDeadTemps(file);
    const { fd } = openJournalFile(file, opts.uid ?? -1);
    try {
      const r = await replay(fd, file, opts.lineBytes);
      if (r.dropped > 0) {
        (opts.log ?? quiet).warn('journal: damaged lines dropped', {
          file,
          dropped: r.dropped,
          overLimit: r.tooLong,
          firstAt: r.firstDropAt,
        });
      }
      if (r.unknown > 0)
        (opts.log ?? quiet).warn('journal: records of a type this hub does not know are kept as they are', {
          file,
          kept: r.unknown,
        });
      const journal = new Journal(file, fd, opts, r.index, r.size, !r.terminated);
      if (r.format === undefined)
        // A new file, or one from before headers: say which format it is in. Not written (a full disk) is only
        // tried again at the next start; a file without a header reads as format 1.
        await journal
          .append({ t: 'v', v: JOURNAL_FORMAT, by: opts.writer ?? 'switchboard' })
          .catch((err: unknown) =>
            (opts.log ?? quiet).warn('journal: format header not written', { error: String(err) }),
          );
      return { journal, state: r.state };
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
  }

  get file(): string {
    return this.#file;
  }

  /** Bytes in the file. */
  get size(): number {
    return this.#size;
  }

  /** Bytes of records that replay still needs. */
  get liveBytes(): number {
    return this.#index.bytes;
  }

  get compacting(): boolean {
    return this.#compacting;
  }

  /** A written item, read back from its live record; a JournalReadError when it cannot be, never an empty item. */
  readItem(sessionId: string, itemId: string): InboxItem {
    if (this.#closed) throw new Error('journal closed');
    return readItemAt(this.#fd, this.#file, this.#index.itemAt(sessionId, itemId), sessionId, itemId);
  }

  /** Queues a record; resolves once it is written (before any fsync). */
  append(record: JournalRecord): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('journal closed'));
    let line: string;
    try {
      line = recordLine(record);
    } catch (err) {
      this.#log.error('journal: record not serializable, not written', { type: record.t, error: String(err) });
      return Promise.reject(new Error('journal record not serializable', { cause: err }));
    }
    // A UTF-16 code unit is at most 3 UTF-8 bytes: only a long line needs its bytes counted here.
    if (line.length * 3 + 1 > this.#opts.lineBytes) {
      const bytes = Buffer.byteLength(line, 'utf8') + 1;
      if (bytes > this.#opts.lineBytes) {
        this.#log.error('journal: record over the line limit, not written', {
          type: record.t,
          bytes,
          limit: this.#opts.lineBytes,
        });
        return Promise.reject(new Error('journal record over the line limit'));
      }
    }
    this.#pending.push(record);
    this.#lines.push(line);
    if (this.#batch === undefined) {
      let resolve!: () => void;
      let reject!: (e: Error) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      this.#batch = { promise, resolve, reject };
      process.nextTick(() => this.#flush());
    }
    return this.#batch.promise;
  }

  #flush(): void {
    const batch = this.#batch;
    this.#batch = undefined;
    const pending = this.#pending;
    const lines = this.#lines;
    this.#pending = [];
    this.#lines = [];
    if (batch === undefined || pending.length === 0) return;
    const lead = this.#torn ? '\n' : '';
    const text = lead + lines.join('\n') + '\n';
    const buf = Buffer.from(text, 'utf8');
    try {
      let off = 0;
      while (off < buf.length) off += fs.writeSync(this.#fd, buf, off, buf.length - off, null);
    } catch (err) {
      // Part of the batch may be on disk, yet every record of it is answered as failed: cut the file back to
      // its last good end, so none of them comes back after a restart. If that fails too, learn the real end
      // and start a fresh line next time (a torn line is skipped on replay).
      try {
        fs.ftruncateSync(this.#fd, this.#size); // the end it had: as torn, or not, as before this batch
      } catch {
        this.#torn = true;
        try {
          this.#size = fs.fstatSync(this.#fd).size;
        } catch {
          // keep the old size: offsets are only used by compaction, which re-reads
        }
      }
      batch.reject(storageError(err, path.dirname(this.#file)));
      return;
    }
    this.#torn = false;
    // Each record's bytes: its line's length when the batch is all ASCII (as many bytes as characters),
    // else up to its newline (JSON.stringify escapes every newline inside a record).
    const ascii = buf.length === text.length;
    let at = this.#size + lead.length;
    for (let i = 0; i < pending.length; i++) {
      const bytes = ascii
        ? (lines[i] as string).length + 1
        : buf.indexOf(0x0a, at - this.#size) + 1 - (at - this.#size);
      this.#index.apply(pending[i] as JournalRecord, at, bytes);
      at += bytes;
    }
    this.#size += buf.length;
    this.#dirty = true;
    this.#scheduleSync();
    batch.resolve();
  }

  #scheduleSync(): void {
    if (this.#syncTimer !== undefined) return;
    this.#syncTimer = setTimeout(() => {
      this.#syncTimer = undefined;
      if (!this.#dirty || this.#closed) return;
      this.#dirty = false;
      fs.fdatasync(this.#fd, () => undefined);
    }, this.#opts.syncMs);
    this.#syncTimer.unref();
  }

  /** Whether dead bytes passed both the floor and half the file (and no compaction runs or backs off). */
  wantsCompaction(): boolean {
    if (this.#compacting || this.#closed || performance.now() < this.#retryAt) return false;
    const dead = this.#size - this.#index.bytes;
    return dead >= this.#opts.compactBytes && dead >= this.#size * DEAD_RATIO;
  }

  /**
   * Rewrites the journal as its live records without blocking the loop for
   * more than a chunk. Never rejects: a failure is logged, the old file kept.
   */
  async compact(): Promise<boolean> {
    if (this.#compacting || this.#closed) return false;
    this.#compacting = true;
    const before = this.#size;
    try {
      await compactFile({
        file: this.#file,
        index: this.#index,
        size: () => this.#size,
        closed: () => this.#closed,
        flushNow: () => this.#flushNow(),
        install: (fd, size) => {
          // Closing the replaced file frees its blocks: off the loop (hundreds of ms at 200 MiB).
          fs.close(this.#fd, () => undefined);
          this.#fd = fd;
          this.#size = size;
        },
      });
      return true;
    } catch (err) {
      if (!(err instanceof CompactionAborted)) {
        this.#retryAt = performance.now() + COMPACT_RETRY_MS;
        this.#log.error('journal: compaction failed, the journal is unchanged', {
          file: this.#file,
          bytes: before,
          error: err instanceof Error ? err.message : String(err),
        });
      }
      return false;
    } finally {
      this.#compacting = false;
    }
  }

  /** Writes whatever is queued now (its batch resolves as usual). */
  #flushNow(): void {
    if (this.#batch !== undefined) this.#flush();
  }

  close(): void {
    if (this.#closed) return;
    this.#flush();
    this.#closed = true;
    if (this.#syncTimer !== undefined) clearTimeout(this.#syncTimer);
    try {
      fs.fdatasyncSync(this.#fd);
    } finally {
      fs.closeSync(this.#fd);
    }
  }
}
