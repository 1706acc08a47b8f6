// Compaction without stalling the event loop: the live records below the
// snapshot point are copied byte for byte (no JSON work) in file order, then
// everything appended since is copied verbatim, so the new file replays to
// the same state (records only set or delete keys; a later one wins). Each
// step is one chunk between awaits; only the last small tail, the rename and
// the index remap run synchronously. Any failure removes the temp file and
// leaves the journal as it was; one a killed hub left is removed at the next
// open (removeDeadTemps).

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { O_NOFOLLOW, syncDir } from './journal-file.js';
import type { LiveIndex } from './live-index.js';
import { readAt } from './replay.js';

/** Bytes per read or write step: ~1 ms of copying between yields. */
export const COMPACT_CHUNK_BYTES = 1024 * 1024;
/** The tail left for the final synchronous step. */
const TAIL_SYNC_BYTES = 1024 * 1024;
/** Catch-up rounds before the tail is finished synchronously anyway (heavy writers). */
const MAX_TAIL_ROUNDS = 16;

/** What compaction needs from the Journal. */
export interface CompactHost {
  readonly file: string;
  readonly index: LiveIndex;
  /** Bytes written to the current file so far. */
  size(): number;
  closed(): boolean;
  /** Writes queued records now (synchronously). */
  flushNow(): void;
  /** Adopts `fd` (already renamed over the journal) holding `size` bytes. */
  install(fd: number, size: number): void;
}

class Aborted extends Error {}

function write(fd: number, buf: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const step = (off: number): void =>
      fs.write(fd, buf, off, buf.length - off, null, (err, n) => {
        if (err) reject(err);
        else if (off + n < buf.length) step(off + n);
        else resolve();
      });
    step(0);
  });
}

function writeSync(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off, null);
}

/** Rewrites the journal as its live records; resolves with the new size. */
export async function compactFile(host: CompactHost): Promise<number> {
  const tmp = `${host.file}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
  const C = fs.constants;
  // O_APPEND: every write lands at the end, so the fd is the journal's once renamed.
  const out = fs.openSync(tmp, C.O_RDWR | C.O_APPEND | C.O_CREAT | C.O_EXCL | O_NOFOLLOW, 0o600);
  let src: number | undefined;
  let installed = false;
  try {
    const rfd = fs.openSync(host.file, C.O_RDONLY | O_NOFOLLOW); // our own fd: close() of the journal cannot pull it away
    src = rfd;
    const check = (): void => {
      if (host.closed()) throw new Aborted('journal closed during compaction');
    };
    const snapshotEnd = host.size();
    // Two buffers reused throughout: fresh 1 MiB buffers per step cost full GCs (external memory).
    const winBuf = Buffer.allocUnsafe(COMPACT_CHUNK_BYTES);
    const outBuf = Buffer.allocUnsafe(COMPACT_CHUNK_BYTES);
    let outLen = 0;
    let written = 0;
    const drain = async (): Promise<void> => {
      if (outLen === 0) return;
      const len = outLen;
      outLen = 0;
      await write(out, outBuf.subarray(0, len));
      check();
    };
    // 1. Live records below the snapshot point, read in windows of file order.
    let win = winBuf.subarray(0, 0);
    let winStart = 0;
    for (const [off, len] of host.index.entries()) {
      if (off >= snapshotEnd) break;
      if (off < winStart || off + len > winStart + win.length) {
        const big = len > COMPACT_CHUNK_BYTES;
        const target = big
          ? Buffer.allocUnsafe(len)
          : winBuf.subarray(0, Math.min(COMPACT_CHUNK_BYTES, snapshotEnd - off));
        const n = await readAt(rfd, target, off);
        check();
        if (n < len) throw new Error(`journal shorter than its index at ${off}`);
        win = target.subarray(0, n);
        winStart = off;
      }
      const rec = win.subarray(off - winStart, off - winStart + len);
      if (outLen + len > outBuf.length) await drain();
      if (len > outBuf.length) {
        await write(out, rec);
        check();
      } else {
        rec.copy(outBuf, outLen);
        outLen += len;
      }
      host.index.moved(off, written);
      written += len;
    }
    await drain();
    const shift = written - snapshotEnd;
    // 2. Everything appended since, verbatim, while it is large.
    let copied = snapshotEnd;
    const copyTo = async (end: number): Promise<void> => {
      while (copied < end) {
        const n = await readAt(rfd, winBuf.subarray(0, Math.min(COMPACT_CHUNK_BYTES, end - copied)), copied);
        check();
        if (n === 0) throw new Error('journal ended early');
        await write(out, winBuf.subarray(0, n));
        check();
        copied += n;
      }
    };
    for (let round = 0; host.size() - copied > TAIL_SYNC_BYTES && round < MAX_TAIL_ROUNDS; round++)
      await copyTo(host.size());
    await new Promise<void>((resolve, reject) => fs.fdatasync(out, (err) => (err ? reject(err) : resolve())));
    check();
    // 3. Synchronously: the last records, the rename, the switch.
    host.flushNow();
    const end = host.size();
    while (copied < end) {
      const n = fs.readSync(rfd, winBuf, 0, Math.min(COMPACT_CHUNK_BYTES, end - copied), copied);
      if (n === 0) throw new Error('journal ended early');
      writeSync(out, winBuf.subarray(0, n));
      copied += n;
    }
    fs.fdatasyncSync(out);
    const size = written + (copied - snapshotEnd);
    fs.renameSync(tmp, host.file);
    installed = true;
    syncDir(path.dirname(host.file));
    try {
      host.index.remap(snapshotEnd, shift);
    } finally {
      host.install(out, size); // the path is the new file now, whatever happens
    }
    return size;
  } catch (err) {
    host.index.clearMoved();
    if (!installed) {
      fs.closeSync(out);
      fs.rmSync(tmp, { force: true });
    }
    throw err;
  } finally {
    // Async: once renamed over, the last close of the old file frees its blocks (200 ms at 200 MiB).
    if (src !== undefined) fs.close(src, () => undefined);
  }
}

export { Aborted as CompactionAborted };

/** Temp files of a compaction that died (the state lock says no other hub is writing beside `file`). */
export function removeDeadTemps(file: string): void {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.tmp-`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    try {
      fs.rmSync(path.join(dir, name), { force: true }); // a link is removed, never followed
    } catch {
      // not a file (a directory someone made): leave it, compaction uses fresh names
    }
  }
}
