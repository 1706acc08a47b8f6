// One hub per state directory, whatever its runtime directory: `hub.lock`
// (0600, O_EXCL) names the holder (pid, start time, socket) for the hub's
// life. A holder that is no longer the same live process is stale and is
// replaced; check-and-replace runs under a short mkdir guard so two starting
// hubs cannot both take it. A live holder is a JournalError naming it.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { takeMkdirGuard } from '../storage/mkdir-guard.js';
import { isStorageError, storageError } from '../storage/storage-error.js';
import { sameProcessAlive, startTimeOf } from '../registry/proc.js';
import { JournalError, O_NOFOLLOW } from './journal-file.js';

const LOCK = 'hub.lock';
const HOLDER_MAX_BYTES = 4096; // a holder record is ~200 bytes

export interface LockHolder {
  pid: number;
  startTime: string | undefined;
  socket: string;
  runtimeDir: string;
  nonce: string;
}

/** Nonces of the locks this process holds (another Hub in the same process is alive too). */
const HELD = new Set<string>();

export class StateLock {
  readonly file: string;
  readonly #nonce: string;
  constructor(file: string, nonce: string) {
    this.file = file;
    this.#nonce = nonce;
  }

  /** Removes the lock file if it is still ours. */
  release(): void {
    if (!HELD.delete(this.#nonce)) return;
    if (readHolder(this.file)?.nonce === this.#nonce) fs.rmSync(this.file, { force: true });
  }
}

/** The lock of `dir`, or JournalError('state_locked') with `holder` naming the live hub that has it. */
export async function lockStateDir(dir: string, me: { socket: string; runtimeDir: string }): Promise<StateLock> {
  const file = path.join(dir, LOCK);
  const guard = `${file}.d`;
  await takeMkdirGuard(
    guard,
    () => new JournalError('state_locked', guard, 'stayed locked (remove it if no hub is starting)'),
  ).catch((err: unknown) => {
    const storage = storageError(err, dir); // a full or read-only disk, by its own reason
    throw isStorageError(storage) ? storage : err;
  });
  try {
    const startTime = await startTimeOf(process.pid);
    for (let attempt = 0; ; attempt++) {
      const nonce = randomBytes(12).toString('hex');
      const holder: LockHolder = {
        pid: process.pid,
        startTime,
        socket: me.socket,
        runtimeDir: me.runtimeDir,
        nonce,
      };
      if (tryCreate(file, holder)) {
        HELD.add(nonce);
        return new StateLock(file, nonce);
      }
      const other = readHolder(file);
      if (other !== undefined && (await isLive(other))) {
        const text = `is in use by another hub (pid ${other.pid}, socket ${other.socket}); stop that hub or give this one its own SWITCHBOARD_HOME`;
        throw new JournalError('state_locked', dir, text, { holder: other });
      }
      if (attempt > 0) throw new JournalError('state_locked', dir, `cannot replace the stale lock ${file}`);
      removeStale(file);
    }
  } finally {
    fs.rmSync(guard, { recursive: true, force: true });
  }
}

async function isLive(h: LockHolder): Promise<boolean> {
  if (h.pid === process.pid) return HELD.has(h.nonce); // our own pid: only a lock this process still holds
  return sameProcessAlive({ pid: h.pid, startTime: h.startTime });
}

function tryCreate(file: string, holder: LockHolder): boolean {
  const C = fs.constants;
  let fd: number;
  try {
    fd = fs.openSync(file, C.O_WRONLY | C.O_CREAT | C.O_EXCL | O_NOFOLLOW, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    const storage = storageError(err, path.dirname(file)); // a full or read-only disk, by its own reason
    if (isStorageError(storage)) throw storage;
    throw new JournalError('unreadable', file, (err as NodeJS.ErrnoException).code, { cause: err });
  }
  try {
    fs.writeSync(fd, JSON.stringify(holder) + '\n');
    fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true }); // an empty lock left behind would name no holder
    throw storageError(err, path.dirname(file));
  }
  fs.closeSync(fd);
  return true;
}

/** The holder recorded in `file`, or undefined when it is missing, damaged or not a plain file. */
export function readHolder(file: string): LockHolder | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | O_NOFOLLOW | (fs.constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return undefined;
    const buf = Buffer.alloc(HOLDER_MAX_BYTES);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const x: unknown = JSON.parse(buf.toString('utf8', 0, n));
    if (x === null || typeof x !== 'object') return undefined;
    const r = x as Record<string, unknown>;
    if (
      !Number.isSafeInteger(r.pid) ||
      (r.pid as number) <= 0 ||
      typeof r.socket !== 'string' ||
      typeof r.nonce !== 'string'
    )
      return undefined;
    return {
      pid: r.pid as number,
      startTime: typeof r.startTime === 'string' ? r.startTime : undefined,
      socket: r.socket.slice(0, 1024),
      runtimeDir: typeof r.runtimeDir === 'string' ? r.runtimeDir.slice(0, 1024) : '',
      nonce: r.nonce,
    };
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** Removes a stale lock: a file or link of ours in our private directory; a directory is refused. */
function removeStale(file: string): void {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch {
    return;
  }
  if (st.isDirectory()) throw new JournalError('not_regular', file);
  fs.rmSync(file, { force: true });
}
