// Opens the journal file as our own regular file, never through a link:
// created 0600 with O_EXCL, or an existing one opened with O_NOFOLLOW and
// checked on the opened descriptor (regular, our uid, no group/other bits).
// Anything else is a JournalError naming the file: the hub refuses to start
// rather than start empty or write where a link points.

import fs from 'node:fs';
import { CodedError } from '../protocol/coded-error.js';

export type JournalErrorCode =
  | 'symlink'
  | 'not_regular'
  | 'foreign_owner'
  | 'loose_mode'
  | 'unreadable'
  | 'read_failed'
  | 'newer_format'
  | 'state_locked';

const TEXT: Record<Exclude<JournalErrorCode, 'state_locked'>, string> = {
  symlink: 'is a symbolic link; the hub only uses a file of its own (remove the link)',
  not_regular: 'is not a regular file',
  foreign_owner: 'is owned by another user',
  loose_mode: 'can be read by other users (chmod 600 it if it is yours)',
  unreadable: 'cannot be opened',
  read_failed: 'cannot be read',
  newer_format: 'was written by a newer Switchboard; run that version (or a newer one) on it',
};

export class JournalError extends CodedError<JournalErrorCode> {
  readonly file: string;
  /** For state_locked: the hub holding the state directory, when known. */
  readonly holder: { pid: number; socket: string } | undefined;
  constructor(
    code: JournalErrorCode,
    file: string,
    detail?: string,
    options?: { cause?: unknown; holder?: { pid: number; socket: string } },
  ) {
    const text =
      code === 'state_locked' ? (detail ?? 'is locked by another hub') : `${TEXT[code]}${detail ? ` (${detail})` : ''}`;
    super(code, `Refusing to start: ${file} ${text}`, options);
    this.name = 'JournalError';
    this.file = file;
    this.holder = options?.holder;
  }
}

const C = fs.constants;
/** Undefined on Windows, where the mode and owner checks do not apply either. */
export const O_NOFOLLOW = C.O_NOFOLLOW ?? 0;
const O_NONBLOCK = C.O_NONBLOCK ?? 0; // a FIFO planted at the path must not block the open

function errno(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? String(err);
}

/** Opens (creating if absent) `file` for reading and appending; uid < 0 skips the owner check. */
export function openJournalFile(file: string, uid: number): { fd: number; created: boolean } {
  let fd: number;
  let created = false;
  try {
    fd = fs.openSync(file, C.O_RDWR | C.O_APPEND | C.O_CREAT | C.O_EXCL | O_NOFOLLOW, 0o600);
    created = true;
  } catch (err) {
    if (errno(err) !== 'EEXIST') throw new JournalError('unreadable', file, errno(err), { cause: err });
    fd = openExisting(file);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new JournalError('not_regular', file);
    if (created) {
      if (process.platform !== 'win32') fs.fchmodSync(fd, 0o600); // the umask may have taken the owner's bits
    } else if (process.platform !== 'win32') {
      if (uid >= 0 && st.uid !== uid) throw new JournalError('foreign_owner', file);
      if ((st.mode & 0o077) !== 0) throw new JournalError('loose_mode', file, `mode ${(st.mode & 0o777).toString(8)}`);
    }
    return { fd, created };
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
}

function openExisting(file: string): number {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch (err) {
    throw new JournalError('unreadable', file, errno(err), { cause: err });
  }
  if (st.isSymbolicLink()) throw new JournalError('symlink', file);
  if (!st.isFile()) throw new JournalError('not_regular', file);
  try {
    return fs.openSync(file, C.O_RDWR | C.O_APPEND | O_NOFOLLOW | O_NONBLOCK);
  } catch (err) {
    // ELOOP: swapped for a link between the lstat and the open.
    if (errno(err) === 'ELOOP') throw new JournalError('symlink', file, undefined, { cause: err });
    throw new JournalError('unreadable', file, errno(err), { cause: err });
  }
}

/** Makes a rename in `dir` durable (best effort where directories cannot be opened). */
export function syncDir(dir: string): void {
  if (process.platform === 'win32') return;
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, C.O_RDONLY);
    fs.fsyncSync(fd);
  } catch {
    // some filesystems refuse fsync on a directory: the rename itself is atomic
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
