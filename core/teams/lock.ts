// File locks shared with Claude Code: proper-lockfile's mkdir protocol
// (`<file>.lock/`, stale after 10 s, mtime refreshed every 5 s). Where
// Claude Code retries 10 times and then drops the write, we retry with
// jittered backoff until a bounded deadline and then fail loudly
// (LockTimeoutError). Writers inside this process are serialized per lock
// path first, so they never contend through the file system.

import lockfile from 'proper-lockfile';
import { CodedError } from '../protocol/coded-error.js';

export class LockTimeoutError extends CodedError<'lock_timeout'> {
  override readonly name = 'LockTimeoutError';
  readonly file: string;
  constructor(file: string, ms: number, options?: { cause?: unknown }) {
    super('lock_timeout', `Could not lock ${file} within ${ms} ms`, options);
    this.file = file;
  }
}

export interface LockOptions {
  /** The lock directory (proper-lockfile's lockfilePath); default `<file>.lock`. */
  lockfilePath?: string;
  /** Resolve symlinks of `file` first (needs the file to exist). */
  realpath?: boolean;
  /** Give up after this long (ms). */
  deadlineMs: number;
  /** A lock older than this is someone's crash (ms); Claude Code uses 10 000. */
  staleMs: number;
  onCompromised?: (err: Error) => void;
}

export const LOCK_DEFAULTS = { deadlineMs: 30_000, staleMs: 10_000 } as const;

// Short waits: a lock is held for a few milliseconds, so a waiter that
// sleeps long leaves the file idle (measured in bench/teams.bench.ts).
const MIN_BACKOFF_MS = 4;
const MAX_BACKOFF_MS = 30;

const chains = new Map<string, Promise<unknown>>();

/** Runs `fn` after every earlier call with the same key has finished. */
function serialized<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const prev = chains.get(key) ?? Promise.resolve();
  const run = prev.then(fn, fn);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  chains.set(key, tail);
  const forget = (): void => {
    if (chains.get(key) === tail) chains.delete(key);
  };
  tail.then(forget, forget); // tail never rejects
  return run;
}

/** Holds the lock on `file` while `fn` runs. */
export function withFileLock<T>(file: string, opts: LockOptions, fn: () => Promise<T>): Promise<T> {
  const lockPath = opts.lockfilePath ?? `${file}.lock`;
  return serialized(lockPath, async () => {
    const release = await acquire(file, lockPath, opts);
    try {
      return await fn();
    } finally {
      await release().catch(() => undefined);
    }
  });
}

async function acquire(file: string, lockPath: string, opts: LockOptions): Promise<() => Promise<void>> {
  const deadline = performance.now() + opts.deadlineMs; // monotonic: a clock step neither ends nor stretches the wait
  let backoff = MIN_BACKOFF_MS;
  for (;;) {
    try {
      return await lockfile.lock(file, {
        lockfilePath: lockPath,
        realpath: opts.realpath ?? false,
        stale: opts.staleMs,
        retries: 0,
        onCompromised: opts.onCompromised ?? (() => undefined),
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
      if (performance.now() >= deadline) throw new LockTimeoutError(file, opts.deadlineMs, { cause: err });
      await new Promise((r) => setTimeout(r, backoff * (0.5 + Math.random())));
      backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
    }
  }
}
