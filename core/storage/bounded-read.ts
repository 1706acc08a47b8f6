// Reads a file that some other program (or the user) controls, safely: it
// opens without blocking (a FIFO never waits for a writer), refuses anything
// that is not a regular file after open (fstat, so a link to a FIFO or a
// device is refused too), and reads at most `maxBytes + 1` bytes. Only a
// missing file is "missing"; every other failure is "unreadable" with a
// reason, except that readBounded throws OutOfResourcesError when this
// process, not the file, is the problem (EMFILE …).

import fs from 'node:fs';
import { CodedError } from '../protocol/coded-error.js';

export type FileRead =
  { state: 'missing' } | { state: 'text'; text: string } | { state: 'unreadable'; problem: string };

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

/**
 * This process ran out of descriptors (or memory) opening a file: that says nothing about the file, so it is
 * neither missing nor unreadable. Counting it as either lost tasks from lists and let writes skip them.
 */
export class OutOfResourcesError extends CodedError<'out_of_resources'> {
  override readonly name = 'OutOfResourcesError';
  readonly file: string;
  /** The system's error code (EMFILE, ENFILE, ENOMEM, EAGAIN). */
  readonly errno: string;
  constructor(file: string, errno: string) {
    super(
      'out_of_resources',
      `${file}: cannot be opened now (${errno}: this process is out of file descriptors); nothing was changed`,
    );
    this.file = file;
    this.errno = errno;
  }
}

const OUT_OF_RESOURCES = new Set(['EMFILE', 'ENFILE', 'ENOMEM', 'EAGAIN']);

function failed(err: unknown): FileRead {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { state: 'missing' };
  return { state: 'unreadable', problem: `cannot be opened (${code ?? 'error'})` };
}

const tooLarge = (maxBytes: number): FileRead => ({ state: 'unreadable', problem: `larger than ${maxBytes} bytes` });
const notRegular = (st: fs.Stats): FileRead => ({ state: 'unreadable', problem: `not a regular file (${kind(st)})` });

/**
 * Where the bytes go: room for the whole file plus one byte (to see growth
 * past the limit after fstat), grown by doubling, never past `maxBytes + 1`.
 */
class Sink {
  #buf: Buffer;
  #n = 0;
  readonly #max: number;
  constructor(size: number, maxBytes: number) {
    this.#max = maxBytes;
    this.#buf = Buffer.allocUnsafe(Math.min(Math.max(MIN_BUFFER, size + 1), maxBytes + 1));
  }

  /** The buffer to read into at `at`; undefined once more than `maxBytes` arrived. */
  room(): { buf: Buffer; at: number } | undefined {
    if (this.#n > this.#max) return undefined;
    if (this.#n === this.#buf.length) {
      const bigger = Buffer.allocUnsafe(Math.min(this.#buf.length * 2, this.#max + 1));
      this.#buf.copy(bigger, 0, 0, this.#n);
      this.#buf = bigger;
    }
    return { buf: this.#buf, at: this.#n };
  }

  add(got: number): void {
    this.#n += got;
  }

  result(): FileRead {
    return this.#n > this.#max ? tooLarge(this.#max) : { state: 'text', text: this.#buf.toString('utf8', 0, this.#n) };
  }
}

export async function readBounded(file: string, maxBytes: number): Promise<FileRead> {
  let fh: fs.promises.FileHandle;
  try {
    fh = await fs.promises.open(file, OPEN_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== undefined && OUT_OF_RESOURCES.has(code)) throw new OutOfResourcesError(file, code);
    return failed(err);
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) return notRegular(st);
    if (st.size > maxBytes) return tooLarge(maxBytes);
    const sink = new Sink(st.size, maxBytes);
    for (let r = sink.room(); r !== undefined; r = sink.room()) {
      const { bytesRead } = await fh.read(r.buf, r.at, r.buf.length - r.at, r.at);
      if (bytesRead === 0) break;
      sink.add(bytesRead);
    }
    return sink.result();
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
    const sink = new Sink(st.size, maxBytes);
    for (let r = sink.room(); r !== undefined; r = sink.room()) {
      const got = fs.readSync(fd, r.buf, r.at, r.buf.length - r.at, r.at);
      if (got === 0) break;
      sink.add(got);
    }
    return sink.result();
  } catch (err) {
    return { state: 'unreadable', problem: `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    fs.closeSync(fd);
  }
}
