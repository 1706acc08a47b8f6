// Replays the journal by streaming it in fixed chunks: memory is bounded by
// one chunk plus the longest line kept, never by the file (the old
// readFileSync hit V8's string limit at 512 MiB and replayed as empty). A
// line over `maxLineBytes`, a line that is not a record and a torn last line
// are dropped and counted; a read error is a JournalError, never an empty
// state. A format header newer than JOURNAL_FORMAT stops the replay with a
// JournalError naming who wrote it; a record of a type this hub does not know
// is kept live as it is (counted), so compaction never erases it.

import fs from 'node:fs';
import { JournalError } from './journal-file.js';
import { LiveIndex } from './live-index.js';
import { applyRecord, emptyState, isRecord, JOURNAL_FORMAT, RECORD_TYPES, type JournalState } from './records.js';

/** Bytes read per call: large enough to be I/O bound, small enough to keep memory flat. */
export const REPLAY_CHUNK_BYTES = 1024 * 1024;

export interface ReplayResult {
  state: JournalState;
  index: LiveIndex;
  /** Bytes in the file. */
  size: number;
  /** Whether the file is empty or ends with a newline (a torn tail does not). */
  terminated: boolean;
  /** Lines dropped: damaged or unknown, and (of those) over the line limit. */
  dropped: number;
  tooLong: number;
  /** Offset of the first dropped line, for the log. */
  firstDropAt: number | undefined;
  /** The format the file's header names; undefined when it has none (a new file, or one from before headers). */
  format: number | undefined;
  /** Records of a type this hub does not know, kept as they are. */
  unknown: number;
}

export function readAt(fd: number, buf: Buffer, position: number): Promise<number> {
  return new Promise((resolve, reject) =>
    fs.read(fd, buf, 0, buf.length, position, (err, n) => (err ? reject(err) : resolve(n))),
  );
}

export async function replay(fd: number, file: string, maxLineBytes: number): Promise<ReplayResult> {
  const r: ReplayResult = {
    state: emptyState(),
    index: new LiveIndex(),
    size: 0,
    terminated: true,
    dropped: 0,
    tooLong: 0,
    firstDropAt: undefined,
    format: undefined,
    unknown: 0,
  };
  const drop = (off: number, tooLong: boolean): void => {
    r.dropped++;
    if (tooLong) r.tooLong++;
    r.firstDropAt ??= off;
  };
  const line = (text: string, off: number, len: number): void => {
    if (text === '') return; // a blank line: dead bytes, not damage
    let rec: unknown;
    try {
      rec = JSON.parse(text);
    } catch {
      return drop(off, false);
    }
    if (!isRecord(rec)) {
      const t = (rec as { t?: unknown } | null)?.t;
      if (typeof t !== 'string' || RECORD_TYPES.has(t) || Array.isArray(rec)) return drop(off, false);
      r.unknown++;
      return r.index.keep(off, len);
    }
    if (rec.t === 'v') {
      if (rec.v > JOURNAL_FORMAT)
        throw new JournalError(
          'newer_format',
          file,
          `format ${rec.v}, written by ${rec.by.slice(0, 200)}; this hub reads format ${JOURNAL_FORMAT}`,
        );
      r.format = rec.v;
    }
    applyRecord(r.state, rec);
    r.index.apply(rec, off, len);
  };
  let pos = 0; // file offset of the next read
  let lineStart = 0;
  let carry: Buffer[] = [];
  let carryLen = 0;
  let skipping = false; // inside a line already over the limit
  const chunk = Buffer.allocUnsafe(REPLAY_CHUNK_BYTES); // reused: fresh buffers per read cost full GCs
  for (;;) {
    let n: number;
    try {
      n = await readAt(fd, chunk, pos);
    } catch (err) {
      throw new JournalError('read_failed', file, (err as NodeJS.ErrnoException).code ?? String(err), { cause: err });
    }
    if (n === 0) break;
    let i = 0;
    while (i < n) {
      const nl = chunk.subarray(0, n).indexOf(10, i);
      if (nl === -1) {
        if (!skipping && carryLen + (n - i) > maxLineBytes) {
          skipping = true;
          carry = [];
          carryLen = 0;
        }
        if (!skipping) {
          carry.push(Buffer.from(chunk.subarray(i, n))); // a copy: the chunk is reused
          carryLen += n - i;
        }
        break;
      }
      const len = carryLen + (nl - i);
      if (skipping || len > maxLineBytes) drop(lineStart, true);
      else
        line(
          carry.length === 0
            ? chunk.toString('utf8', i, nl)
            : Buffer.concat([...carry, chunk.subarray(i, nl)]).toString('utf8'),
          lineStart,
          len + 1,
        );
      carry = [];
      carryLen = 0;
      skipping = false;
      lineStart = pos + nl + 1;
      i = nl + 1;
    }
    pos += n;
  }
  r.size = pos;
  if (lineStart < pos) {
    // A torn last line (a crash mid-write): never answered, so nothing is lost.
    r.terminated = false;
    drop(lineStart, skipping);
  }
  return r;
}
