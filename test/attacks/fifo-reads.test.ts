// Other programs' files that are FIFOs (the same class as the
// settings files): a `<pid>.json` in Claude Code's sessions directory and an
// agent's settings file that `setup` reads. Each is refused without
// blocking, against a real `serve` process and the real CLI; a blocking
// read would freeze the hub (or hang setup) until a writer appears.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HubClient } from '../../core/client/client.js';
import { cliEnv, runCli, serveCli, type Served } from '../helpers/cli.js';
import { tempDirs, until } from '../helpers/hub.js';
import { stockPeer } from '../core/stock/helpers.js';

let served: Served | undefined;
let client: HubClient | undefined;
afterEach(async () => {
  client?.close();
  client = undefined;
  await served?.stop('SIGKILL'); // a hub frozen by a blocking read would never handle SIGTERM
  served = undefined;
});

const ANSWER_MS = 30_000; // a hub blocked by the attack never answers: the bound only ends that hang

describe.skipIf(process.platform === 'win32')('FIFOs where other programs keep their files', () => {
  it('a FIFO named like a Claude Code registry entry never freezes the hub', async () => {
    const dirs = tempDirs();
    const sessions = path.join(dirs.root, 'claude', 'sessions');
    fs.mkdirSync(sessions, { recursive: true });
    execFileSync('mkfifo', [path.join(sessions, `${process.pid}.json`)]); // a live pid, so discovery reads it
    served = await serveCli(cliEnv(dirs));
    client = await HubClient.connect(served.ready.socket);
    // A proper entry written after the FIFO: a scan that lists it read the folder with the FIFO in it.
    const marker = await stockPeer(path.join(dirs.root, 'claude'), path.join(dirs.root, 'cc-socks'));
    try {
      const stock = async () =>
        (await client!.call('agents.list', {}, { timeoutMs: ANSWER_MS })).rows.filter((r) => r.kind === 'claude-code');
      await until(async () => (await stock()).length > 0);
      expect((await stock()).map((r) => r.address)).toEqual([`uds:${marker.socketPath}`]);
    } finally {
      await marker.stop();
    }
    expect(served.child.exitCode).toBeNull();
  });

  it('setup refuses an agent settings file that is a FIFO, by name, without waiting or writing', async () => {
    const dirs = tempDirs();
    const claudeDir = path.join(dirs.root, '.claude');
    fs.mkdirSync(claudeDir, { recursive: true });
    const fifo = path.join(claudeDir, 'settings.json');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    const env = cliEnv(dirs);
    delete env.CLAUDE_CONFIG_DIR; // setup edits ~/.claude/settings.json
    const r = await runCli(['setup', 'claude-code', '--dry-run'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${fifo} not a regular file (a FIFO)`);
    expect(fs.lstatSync(fifo).isFIFO()).toBe(true);
  });
});
