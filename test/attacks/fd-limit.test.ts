// A real `serve` with few file descriptors (found by a red-team pass): a
// task list of more files than descriptors was read all at once, the opens
// that failed with EMFILE counted as unreadable, so tasks.list answered
// without them and tasks.release reported success while those tasks stayed
// owned. Now a list reads a few files at a time, and an open that fails for
// want of descriptors fails the request (`overloaded`), never a task.
// Needs dist/cli (npm run build, or node cli/build.mjs).

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HubClient } from '../../core/client/client.js';
import { CLI, cliEnv, readyLine } from '../helpers/cli.js';
import { tempDirs } from '../helpers/hub.js';
import { stopAll } from '../helpers/processes.js';

const started: ChildProcess[] = [];
// Before the file's directories go: a hub still exiting would write into a removed directory.
afterEach(() => stopAll(started.splice(0)));

/** `serve` under `ulimit -n FDS`: its socket. */
async function serveWithFds(env: NodeJS.ProcessEnv, fds: number): Promise<string> {
  const child = spawn(
    'bash',
    ['-c', `ulimit -n ${fds} && exec "$0" "$@"`, process.execPath, CLI, 'serve', '--json', '--quiet'],
    { env },
  );
  started.push(child);
  return (await readyLine<{ socket: string }>(child)).socket;
}

describe('a task list with more files than the hub has descriptors', () => {
  it('lists every task and releases every one, under ulimit -n 256', async () => {
    const dirs = tempDirs();
    const env = cliEnv(dirs);
    const list = path.join(dirs.root, 'claude', 'tasks', 'big');
    fs.mkdirSync(list, { recursive: true });
    const N = 600;
    for (let i = 1; i <= N; i++)
      fs.writeFileSync(
        path.join(list, `${i}.json`),
        JSON.stringify(
          {
            id: String(i),
            subject: `t${i}`,
            description: '',
            status: 'in_progress',
            owner: 'w',
            blocks: [],
            blockedBy: [],
          },
          null,
          2,
        ),
      );
    const socket = await serveWithFds(env, 256);
    const c = await HubClient.connect(socket, { timeoutMs: 30_000 });
    try {
      expect((await c.call('tasks.list', { list: 'big' })).tasks).toHaveLength(N);
      await c.call('tasks.release', { list: 'big', owner: 'w' });
      const owned = fs
        .readdirSync(list)
        .filter((f) => f.endsWith('.json') && fs.readFileSync(path.join(list, f), 'utf8').includes('"owner"'));
      expect(owned).toEqual([]);
    } finally {
      c.close();
    }
  }, 60_000);
});
