// Settings files that are not files, against a real `switchboard
// serve` process (the point is that it keeps answering): a project's
// `.claude/settings.json` that is a link to a FIFO, and a local settings file
// that is a link to /dev/zero, are refused as unreadable without blocking,
// at registration and at every poll afterwards; the user's own settings
// file as a FIFO is refused by `settings.set`, never replaced.

import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { HubClient } from '../../core/client/client.js';
import { cliEnv, serveCli, type Served } from '../helpers/cli.js';
import { tempDirs } from '../helpers/hub.js';

let served: Served | undefined;
let client: HubClient | undefined;
afterEach(async () => {
  client?.close();
  client = undefined;
  // SIGKILL: a hub frozen by the old code would never handle SIGTERM.
  await served?.stop('SIGKILL');
  served = undefined;
});

const ANSWER_MS = 30_000; // a hub blocked by the attack never answers: the bound only ends that hang

describe.skipIf(process.platform === 'win32')('settings files that are FIFOs or devices', () => {
  it('a .claude/settings.json linked to a FIFO and settings.local.json linked to /dev/zero never freeze the hub', async () => {
    const dirs = tempDirs();
    const project = path.join(dirs.root, 'proj');
    fs.mkdirSync(path.join(project, '.claude'), { recursive: true });
    const fifo = path.join(dirs.root, 'settings.fifo');
    execFileSync('mkfifo', [fifo]);
    fs.symlinkSync(fifo, path.join(project, '.claude', 'settings.json'));
    fs.symlinkSync('/dev/zero', path.join(project, '.claude', 'settings.local.json'));

    served = await serveCli(cliEnv(dirs));
    client = await HubClient.connect(served.ready.socket);
    const reg = await client.call('session.register', { cwd: project, name: 'p' }, { timeoutMs: ANSWER_MS });
    // agents.list resolves the session's settings, reading every project file.
    expect((await client.call('agents.list', {}, { timeoutMs: ANSWER_MS })).rows.map((r) => r.name)).toContain('p');
    const { problems } = await client.call(
      'settings.effective',
      { uiToken: served.ready.uiToken, sessionId: reg.sessionId },
      { timeoutMs: ANSWER_MS },
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          file: path.join(project, '.claude', 'settings.json'),
          key: null,
          message: 'unreadable (not a regular file (a FIFO))',
        },
        {
          file: path.join(project, '.claude', 'settings.local.json'),
          key: null,
          message: 'unreadable (not a regular file (a device))',
        },
      ]),
    );
    // Polls that re-read them: settings.set polls before it answers, and a new mtime on the FIFO makes each poll
    // read it again (a blocking read would leave the answer out).
    for (let i = 0; i < 3; i++) {
      const t = new Date(Date.now() + (i + 1) * 1000);
      fs.utimesSync(fifo, t, t);
      const value = i % 2 === 0 ? 'hold' : null;
      const uiToken = served.ready.uiToken;
      await client.call('settings.set', { uiToken, key: 'crossSessionInbound', value }, { timeoutMs: ANSWER_MS });
    }
    expect((await client.call('hub.info', {}, { timeoutMs: ANSWER_MS })).pid).toBe(served.child.pid);
    expect(served.child.exitCode).toBeNull();
  });

  it('a user settings file that is a FIFO is refused by name and left alone', async () => {
    const dirs = tempDirs();
    fs.mkdirSync(dirs.home, { recursive: true, mode: 0o700 });
    const userFile = path.join(dirs.home, 'settings.json');
    execFileSync('mkfifo', ['-m', '600', userFile]);

    served = await serveCli(cliEnv(dirs));
    client = await HubClient.connect(served.ready.socket);
    const set = client.call(
      'settings.set',
      { uiToken: served.ready.uiToken, key: 'dialogExpiry', value: '10m' },
      { timeoutMs: ANSWER_MS },
    );
    await expect(set).rejects.toMatchObject({
      reason: 'invalid_params',
      data: { issues: [`${userFile} cannot be read (not a regular file (a FIFO)); fix it by hand first`] },
    });
    expect(fs.lstatSync(userFile).isFIFO(), 'the FIFO is left alone').toBe(true);
    expect((await client.call('hub.info', {}, { timeoutMs: ANSWER_MS })).pid, 'the hub still answers').toBe(
      served.child.pid,
    );
  });
});
