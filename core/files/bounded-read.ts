// Reads a file that some other program (or the user) controls, safely: it
// opens without blocking (a FIFO never waits for a writer), refuses anything
// that is not a regular file after open (fstat, so a link to a FIFO or a
// device is refused too), and reads at most `maxBytes + 1` bytes. Only a
// missing file is "missing"; every other failure is "unreadable" with a reason.

import fs from 'node:fs';

export type FileRead = { state: 'missing' } | { state: 'text'; text: string } | { state: 'unreadable'; problem: string };

// O_NONBLOCK: open() of a FIFO returns at once instead of waiting for a writer. Absent on Windows (no FIFOs there).
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);
// First read buffer when the file claims to be empty or tiny; doubled while it keeps growing.
const MIN_BUFFER = 4096;

function kind(st: fs.Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

function failed(err: unknown): FileRead {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { state: 'missing' };
  return { state: 'unreadable', problem: `cannot be opened (${code ?? 'error'})` };
}

const tooLarge = (maxBytes: number): FileRead => ({ state: 'unreadable', problem: `larger than ${maxBytes} bytes` });
const notRegular = (st: fs.Stats): FileRead => ({ state: 'unreadable', problem: `not a regular file (${kind(st)})` });

/** Room for the whole file plus one byte (to see growth past the limit), never more than `maxBytes + 1`. */
function firstBuffer(size: number, maxBytes: number): number {
  return Math.min(Math.max(MIN_BUFFER, size + 1), maxBytes + 1);
}

/** Reads up to `maxBytes + 1` bytes through `read`; undefined when the file holds more than `maxBytes`. */
async function collect(size: number, maxBytes: number, read: (buf: Buffer, at: number) => Promise<number>): Promise<Buffer | undefined> {
  let buf = Buffer.allocUnsafe(firstBuffer(size, maxBytes));
  let n = 0;
  for (;;) {
    if (n === buf.length) {
      if (n > maxBytes) return undefined;
      const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, maxBytes + 1));
      buf.copy(bigger, 0, 0, n);
      buf = bigger;
    }
    const got = await read(buf, n);
    if (got === 0) break;
    n += got;
  }
  return n > maxBytes ? undefined : buf.subarray(0, n);
}

export async function readBounded(file: string, maxBytes: number): Promise<FileRead> {
  let fh: fs.promises.FileHandle;
  try {
    fh = await fs.promises.open(file, OPEN_FLAGS);
  } catch (err) {
    return failed(err);
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) return notRegular(st);
    if (st.size > maxBytes) return tooLarge(maxBytes);
    const buf = await collect(st.size, maxBytes, async (b, at) => (await fh.read(b, at, b.length - at, at)).bytesRead);
    return buf === undefined ? tooLarge(maxBytes) : { state: 'text', text: buf.toString('utf8') };
  } catch (err) {
    return { state: 'unreadable', problem: `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** The same, synchronously (for the settings store, which resolves inside synchronous code). */
export function readBoundedSync(file: string, maxBytes: number): FileRead {
  let fd: number;
  try {
    fd = fs.openSync(file, OPEN_FLAGS);
  } catch (err) {
    return failed(err);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return notRegular(st);
    if (st.size > maxBytes) return tooLarge(maxBytes);
    let buf = Buffer.allocUnsafe(firstBuffer(st.size, maxBytes));
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        if (n > maxBytes) return tooLarge(maxBytes);
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, maxBytes + 1));
        buf.copy(bigger, 0, 0, n);
        buf = bigger;
      }
      const got = fs.readSync(fd, buf, n, buf.length - n, n);
      if (got === 0) break;
      n += got;
    }
    return n > maxBytes ? tooLarge(maxBytes) : { state: 'text', text: buf.toString('utf8', 0, n) };
  } catch (err) {
    return { state: 'unreadable', problem: `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    fs.closeSync(fd);
  }
}
