// A short critical section between processes: the directory `dir` exists
// while one process holds the guard (mkdir is atomic). A guard left by a
// process that died while holding it is stale after STALE_MS and removed.
// Used around the hub socket's stale replacement and the state-directory
// lock; held for milliseconds, never for a hub's life.

import fs from 'node:fs';

const STALE_MS = 10_000; // the guard is held for milliseconds; 10 s means a crash
const RETRY_MS = 20;
const GIVE_UP_MS = 15_000;

/** Takes the guard, or throws `timedOut()` after GIVE_UP_MS. Release with `fs.rmSync(dir, { recursive: true, force: true })`. */
export async function takeMkdirGuard(dir: string, timedOut: () => Error): Promise<void> {
  const deadline = performance.now() + GIVE_UP_MS; // monotonic; staleness below compares with the file's wall-clock mtime
  for (;;) {
    try {
      fs.mkdirSync(dir, { mode: 0o700 });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    try {
      if (Date.now() - fs.statSync(dir).mtimeMs > STALE_MS) fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // vanished between calls: retry
    }
    if (performance.now() > deadline) throw timedOut();
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
}
