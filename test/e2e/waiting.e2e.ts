// A receiver that cannot be woken, in real Chromium against a real `switchboard serve --ui`: an idle
// Codex session (its hooks reported, by the real `switchboard hook`) that
// cannot be woken gets a "2 messages waiting for …, which is idle" badge on
// its row; the badge goes when its next turn starts.
import { expect, test } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stopAndRemove } from '../helpers/temp.js';

const CLI = path.resolve('dist/cli/switchboard.mjs');

function cli(env: NodeJS.ProcessEnv, args: string[], stdin = ''): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('close', (code) => resolve({ code, stdout }));
    child.stdin.end(stdin);
  });
}

let root: string;
let hub: ChildProcess;
let holder: ChildProcess;
test.afterEach(async () => {
  await stopAndRemove(root, [hub, holder]);
});

test('an idle session that cannot be woken shows how many messages wait for it', async ({ page }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'sbw-'));
  const env = {
    PATH: process.env.PATH,
    HOME: root,
    SWITCHBOARD_RUNTIME_DIR: path.join(root, 'run'),
    SWITCHBOARD_HOME: path.join(root, 'home'),
    CLAUDE_CONFIG_DIR: path.join(root, 'claude'),
  };
  hub = spawn(process.execPath, [CLI, 'serve', '--ui', '--port', '0', '--json', '--quiet'], { env });
  const ready = await new Promise<{ ui: string }>((resolve) => {
    let out = '';
    hub.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as { ui: string });
    });
  });
  holder = spawn('sleep', ['600'], { stdio: 'ignore' });
  const cwd = path.join(root, 'web');
  fs.mkdirSync(cwd);
  const input = JSON.stringify({ session_id: 'thread-1', cwd, permission_mode: 'default' });
  expect((await cli(env, ['hook', 'session-start', '--agent', 'codex'], input)).code).toBe(0);
  expect((await cli(env, ['hook', 'stop', '--agent', 'codex'], input)).code).toBe(0); // its turn ended: idle, by its hook
  const sender = JSON.parse(
    (await cli(env, ['session', 'start', '--cwd', root, '--name', 'lead', '--pid', String(holder.pid), '--json']))
      .stdout,
  ) as { sessionId: string; token: string };
  const as = { ...env, SWITCHBOARD_SESSION: sender.sessionId, SWITCHBOARD_TOKEN: sender.token };
  const { rows } = JSON.parse((await cli(as, ['agents', '--json'])).stdout) as {
    rows: Array<{ label: string; agent: string }>;
  };
  const web = rows.find((r) => r.agent === 'codex')!;
  for (const m of ['first', 'second'])
    expect((await cli(as, ['send', '--to', web.label, '--summary', m, '--message', `${m} note`])).stdout).toMatch(
      /^queued/,
    );

  await page.goto(ready.ui);
  await page.getByRole('button', { name: /^Sessions/ }).click();
  const badge = page.getByTestId('waiting-badge');
  await expect(badge).toHaveCount(1);
  await expect(badge).toHaveText(`2 messages waiting for ${web.label}, which is idle`);
  await expect(page.getByTestId('sessions').getByRole('row').filter({ hasText: web.label })).toContainText(
    '2 messages waiting',
  );
  // Its user types: the next turn starts (its prompt hook reports busy and hands the messages over); the badge goes.
  expect((await cli(env, ['hook', 'prompt-submit', '--agent', 'codex'], input)).code).toBe(0);
  await expect(badge).toHaveCount(0);
});
