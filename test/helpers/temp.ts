// Temporary directories for tests. tempDir() makes one under os.tmpdir()
// and registers it; test/setup/temp-cleanup.ts (a vitest setupFile, so it
// runs in every test file) gives each file its own TMPDIR, removes every
// registered directory after the file's last test and fails the file when
// anything else named like ours is left. test/setup/temp-guard.ts gives the
// whole run a private TMPDIR, so nothing lands in the shared /tmp.
//
// For new tests: call tempDir() (or tempDirs() from hub.ts), never
// fs.mkdtempSync directly; keep the "sb" prefix so the guard can see leaks.
// Outside vitest (Playwright), use stopAndRemove() in a finally or afterEach.

import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stopAll } from './processes.js';

/** Every directory a test of ours makes in the temp directory starts with this. */
export const TEMP_PREFIX = 'sb';

const made = new Set<string>();

/** A fresh directory `<tmp>/<prefix>XXXXXX`, removed after the test file. */
export function tempDir(prefix = 'sbt-'): string {
  if (!prefix.startsWith(TEMP_PREFIX))
    throw new Error(`temp directory prefixes start with "${TEMP_PREFIX}" (got ${prefix})`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  made.delete(dir);
}

/** Removes every directory tempDir() made in this test file. */
export function removeTempDirs(): void {
  for (const dir of [...made]) removeTempDir(dir);
}

/**
 * For tests outside vitest (Playwright), which have no per-file cleanup:
 * stops `procs` with `signal`, waits until each has exited (so none writes
 * into `dir` afterwards), then removes `dir`.
 */
export async function stopAndRemove(
  dir: string,
  procs: ChildProcess[],
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  await stopAll(procs, signal);
  removeTempDir(dir);
}
