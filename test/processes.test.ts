// The process helpers count a zombie as gone: it has exited and only waits
// for its parent to collect it, which under load can outlast any bound.
import { spawn } from 'node:child_process';
import { afterEach, expect, it } from 'vitest';
import { pidAlive, pidGone, stopProcess } from './helpers/processes.js';

const parents: ReturnType<typeof spawn>[] = [];
afterEach(async () => {
  for (const p of parents.splice(0)) await stopProcess(p, 'SIGKILL');
});

it.skipIf(process.platform !== 'linux')(
  'pidGone: a zombie (exited, not yet collected by its parent) is gone',
  async () => {
    // The background sleep's parent becomes `sleep 100`, which never collects it: it stays a zombie.
    const parent = spawn('sh', ['-c', 'sleep 0.1 & echo $!; exec sleep 100']);
    parents.push(parent);
    const pid = await new Promise<number>((r) =>
      parent.stdout.once('data', (d: Buffer) => r(Number(String(d).trim()))),
    );
    expect(await pidGone(pid, 30_000)).toBe(true);
    expect(pidAlive(pid)).toBe(true); // the signal probe alone still sees it
  },
);
