// The durable record of sessions and their unacknowledged inbox items: an
// append-only NDJSON file under the state directory. Contract: append()
// resolves only after its bytes were handed to the kernel with write(2), so
// a killed process loses nothing that was answered `queued`; records of the
// same tick share one write (group commit) and fdatasync runs at most every
// `syncMs`. Replay tolerates a torn last line; compaction rewrites the live
// state through a temp file and rename.

import fs from 'node:fs';
import path from 'node:path';
import type { InboxItem } from '../protocol/methods.js';
import type { PersistedSession } from '../registry/session.js';
import type { Envelope } from '../routing/router.js';

/** A held message as journaled (its countdown restarts after a hub restart). */
export interface HeldRecord {
  id: string;
  env: Envelope;
  reason: string;
  heldAt: number;
}

export type JournalRecord =
  | { t: 's'; s: PersistedSession }
  | { t: 'd'; id: string }
  | { t: 'i'; id: string; item: InboxItem }
  | { t: 'a'; id: string; ids: string[] }
  | { t: 'h'; id: string; held: HeldRecord }
  | { t: 'hx'; id: string; ids: string[] };

export interface JournalState {
  sessions: Map<string, PersistedSession>;
  items: Map<string, Map<string, InboxItem>>;
  held: Map<string, Map<string, HeldRecord>>;
}

const FILE = 'journal.ndjson';

export class Journal {
  readonly #file: string;
  readonly #syncMs: number;
  readonly #compactBytes: number;
  #fd: number;
  #size: number;
  #pending: string[] = [];
  /** One promise per group commit, shared by every record of the batch. */
  #batch: { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } | undefined;
  #dirty = false;
  #syncTimer: NodeJS.Timeout | undefined;
  #closed = false;

  private constructor(file: string, fd: number, size: number, syncMs: number, compactBytes: number) {
    this.#file = file;
    this.#fd = fd;
    this.#size = size;
    this.#syncMs = syncMs;
    this.#compactBytes = compactBytes;
  }

  /** Opens (creating 0600) the journal in `dir` and replays it. */
  static open(dir: string, opts: { syncMs: number; compactBytes: number }): { journal: Journal; state: JournalState } {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, FILE);
    const state = replay(file);
    const fd = fs.openSync(file, 'a', 0o600);
    const journal = new Journal(file, fd, fs.fstatSync(fd).size, opts.syncMs, opts.compactBytes);
    return { journal, state };
  }

  get file(): string {
    return this.#file;
  }

  get size(): number {
    return this.#size;
  }

  /** Queues a record; resolves once it is written (before any fsync). */
  append(record: JournalRecord): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('journal closed'));
    this.#pending.push(JSON.stringify(record));
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
    if (batch === undefined || this.#pending.length === 0) return;
    const data = this.#pending.join('\n') + '\n';
    this.#pending = [];
    try {
      const bytes = Buffer.byteLength(data, 'utf8');
      const written = fs.writeSync(this.#fd, data, null, 'utf8');
      if (written < bytes) {
        // A short write (rare on regular files): finish from a buffer.
        const buf = Buffer.from(data, 'utf8');
        let off = written;
        while (off < buf.length) off += fs.writeSync(this.#fd, buf, off);
      }
      this.#size += bytes;
      this.#dirty = true;
      this.#scheduleSync();
      batch.resolve();
    } catch (err) {
      batch.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  #scheduleSync(): void {
    if (this.#syncTimer !== undefined) return;
    this.#syncTimer = setTimeout(() => {
      this.#syncTimer = undefined;
      if (!this.#dirty || this.#closed) return;
      this.#dirty = false;
      fs.fdatasync(this.#fd, () => undefined);
    }, this.#syncMs);
    this.#syncTimer.unref();
  }

  /** Whether the file has grown past the threshold and should be rewritten. */
  wantsCompaction(liveRecords: number): boolean {
    return this.#size > this.#compactBytes && liveRecords * 512 < this.#size / 2;
  }

  /** Rewrites the journal as exactly `records` (the live state). */
  compact(records: Iterable<JournalRecord>): void {
    this.#flush();
    const tmp = `${this.#file}.tmp.${process.pid}`;
    const fd = fs.openSync(tmp, 'w', 0o600);
    let size = 0;
    try {
      let chunk: string[] = [];
      const write = (): void => {
        const buf = Buffer.from(chunk.join(''), 'utf8');
        let off = 0;
        while (off < buf.length) off += fs.writeSync(fd, buf, off);
        size += buf.length;
        chunk = [];
      };
      for (const r of records) {
        chunk.push(JSON.stringify(r) + '\n');
        if (chunk.length >= 1000) write();
      }
      write();
      fs.fdatasyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, this.#file);
    fs.closeSync(this.#fd);
    this.#fd = fs.openSync(this.#file, 'a', 0o600);
    this.#size = size;
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

function replay(file: string): JournalState {
  const state: JournalState = { sessions: new Map(), items: new Map(), held: new Map() };
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return state;
  }
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch {
      continue; // a torn final line after a crash
    }
    if (isRecord(rec)) applyRecord(state, rec);
  }
  return state;
}

/** A cheap shape check: the file is ours (0600 in a 0700 directory) but may be damaged. */
function isRecord(x: unknown): x is JournalRecord {
  if (x === null || typeof x !== 'object') return false;
  const r = x as Record<string, unknown>;
  const obj = (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v);
  switch (r.t) {
    case 's':
      return obj(r.s) && typeof (r.s as Record<string, unknown>).id === 'string';
    case 'd':
      return typeof r.id === 'string';
    case 'i':
      return typeof r.id === 'string' && obj(r.item) && typeof (r.item as Record<string, unknown>).id === 'string';
    case 'a':
    case 'hx':
      return typeof r.id === 'string' && Array.isArray(r.ids);
    case 'h':
      return typeof r.id === 'string' && obj(r.held) && obj((r.held as Record<string, unknown>).env) && typeof (r.held as Record<string, unknown>).id === 'string';
    default:
      return false;
  }
}

export function applyRecord(state: JournalState, rec: JournalRecord): void {
  switch (rec.t) {
    case 's':
      state.sessions.set(rec.s.id, rec.s);
      break;
    case 'd':
      state.sessions.delete(rec.id);
      state.items.delete(rec.id);
      state.held.delete(rec.id);
      break;
    case 'i': {
      let items = state.items.get(rec.id);
      if (items === undefined) state.items.set(rec.id, (items = new Map<string, InboxItem>()));
      items.set(rec.item.id, rec.item);
      break;
    }
    case 'a': {
      const items = state.items.get(rec.id);
      if (items !== undefined) for (const id of rec.ids) items.delete(id);
      break;
    }
    case 'h': {
      let held = state.held.get(rec.id);
      if (held === undefined) state.held.set(rec.id, (held = new Map<string, HeldRecord>()));
      held.set(rec.held.id, rec.held);
      break;
    }
    case 'hx': {
      const held = state.held.get(rec.id);
      if (held !== undefined) for (const id of rec.ids) held.delete(id);
      break;
    }
    default: {
      const never: never = rec;
      void never;
    }
  }
}
