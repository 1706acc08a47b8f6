// The history file itself: node:sqlite where the runtime has it, and
// history.sqlite (with its -wal and -shm) opened without following links,
// as a regular file of this user, made 0600. The error a query gets when
// history is off.

import fs from 'node:fs';
import { CodedError } from '../protocol/coded-error.js';

export class HistoryOffError extends CodedError<'history_off'> {
  override readonly name = 'HistoryOffError';
  constructor(reason: string) {
    super('history_off', reason);
  }
}

/** node:sqlite where this runtime has it (Node ≥ 22.13, or 22.5+ with --experimental-sqlite), else null. */
export function loadSqlite(): typeof import('node:sqlite') | null {
  try {
    const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
    const mod = getBuiltin?.call(process, 'node:sqlite') as typeof import('node:sqlite') | undefined;
    return typeof mod?.DatabaseSync === 'function' ? mod : null;
  } catch {
    return null;
  }
}

/** Creates the database file 0600, or checks an existing one is a regular file of ours (and makes it 0600). */
export function prepareFile(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    const create = f === file;
    let fd: number;
    try {
      fd = fs.openSync(f, fs.constants.O_RDWR | fs.constants.O_NOFOLLOW | (create ? fs.constants.O_CREAT : 0), 0o600);
    } catch (err) {
      if (!create && (err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile()) throw new Error(`${f} is not a regular file`);
      if (process.getuid !== undefined && st.uid !== process.getuid()) throw new Error(`${f} belongs to another user`);
      if ((st.mode & 0o077) !== 0) fs.fchmodSync(fd, 0o600);
    } finally {
      fs.closeSync(fd);
    }
  }
}
