// A hook's whole stdin, read synchronously from fd 0: no stream, so a hook
// loads neither node:net nor the stream modules to read its input (what
// `process.stdin` on a pipe costs). Bounded in size; a non-blocking stdin
// (EAGAIN) is waited on in short sleeps, bounded in time.

import fs from 'node:fs';

export const MAX_STDIN = 1024 * 1024;
const CHUNK = 64 * 1024;
const AGAIN_SLEEP_MS = 2;
const AGAIN_WAIT_MS = 10_000; // the agents write their hook input at once and close

export function readStdinSync(max = MAX_STDIN, fd = 0): string {
  const chunks: Buffer[] = [];
  const buf = Buffer.allocUnsafe(CHUNK);
  let size = 0;
  let waited = 0;
  for (;;) {
    let n: number;
    try {
      n = fs.readSync(fd, buf, 0, CHUNK, null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EOF') break; // Windows pipes
      if (code !== 'EAGAIN' || waited >= AGAIN_WAIT_MS) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, AGAIN_SLEEP_MS);
      waited += AGAIN_SLEEP_MS;
      continue;
    }
    if (n === 0) break;
    size += n;
    if (size > max) throw new Error('hook input is larger than 1 MiB');
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString('utf8');
}
