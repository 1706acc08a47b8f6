// vitest globalSetup: the run gets a private TMPDIR (worker processes, and
// the CLI and hub processes they spawn, inherit it), so nothing a test makes
// lands in the shared /tmp. Each test file then works in its own directory
// below it and fails when it leaves something (temp-cleanup.ts). Whatever is
// still here at the end (a worker that crashed) is reported and removed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sbr'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    const left = fs.readdirSync(root);
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    if (left.length > 0)
      console.warn(
        `temp guard: removed ${left.length} entries a test file did not clean up: ${left.slice(0, 20).join(', ')}`,
      );
  };
}
