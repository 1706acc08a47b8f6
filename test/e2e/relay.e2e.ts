// Cross-machine confirmations in the real UI: two hubs (two `serve`
// processes with their own directories, one with the web UI) meet through a
// real nats-server; with isolatePeerMachines on, a send waits in Approvals:
// Deny answers confirm-denied and nothing arrives, Allow lets it through.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startNats } from '../helpers/nats.js';
import { stopAndRemove } from '../helpers/temp.js';
import { expect, test } from './fixtures.js';

const CLI = path.resolve('dist/cli/switchboard.mjs');
const SHOTS = path.resolve('docs/screenshots');

function machineEnv(
  root: string,
  name: string,
  natsUrl: string,
  extra: Record<string, unknown> = {},
): NodeJS.ProcessEnv {
  const dir = path.join(root, name);
  fs.mkdirSync(path.join(dir, 'home'), { recursive: true, mode: 0o700 });
  fs.writeFileSync(
    path.join(dir, 'home', 'settings.json'),
    JSON.stringify({ relay: { servers: [natsUrl], machine: name }, ...extra }),
  );
  return {
    PATH: process.env.PATH,
    HOME: dir,
    SWITCHBOARD_RUNTIME_DIR: path.join(dir, 'run'),
    SWITCHBOARD_HOME: path.join(dir, 'home'),
    CLAUDE_CONFIG_DIR: path.join(dir, 'claude'),
  };
}

function cli(env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

function serve(env: NodeJS.ProcessEnv, ui: boolean): Promise<{ proc: ChildProcess; url?: string }> {
  const proc = spawn(process.execPath, [CLI, 'serve', '--json', '--quiet', ...(ui ? ['--ui', '--port', '0'] : [])], {
    env,
  });
  return new Promise((resolve) => {
    let out = '';
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve({ proc, url: (JSON.parse(out.split('\n')[0]!) as { ui?: string }).ui });
    });
  });
}

test('a send to another machine arrives only after the user allows it', async ({ page }) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sbr-'));
  const nats = await startNats();
  const holder = spawn('sleep', ['300'], { stdio: 'ignore' });
  const procs: ChildProcess[] = [nats.proc, holder];
  try {
    const url = nats.url;
    const laptop = machineEnv(root, 'laptop', url, { isolatePeerMachines: true });
    const buildbox = machineEnv(root, 'buildbox', url);
    const a = await serve(laptop, true);
    const b = await serve(buildbox, false);
    procs.push(a.proc, b.proc);
    const start = async (env: NodeJS.ProcessEnv, name: string): Promise<NodeJS.ProcessEnv> => {
      const reg = JSON.parse(
        (await cli(env, ['session', 'start', '--cwd', root, '--name', name, '--pid', String(holder.pid), '--json']))
          .stdout,
      ) as { sessionId: string; token: string };
      return { ...env, SWITCHBOARD_SESSION: reg.sessionId, SWITCHBOARD_TOKEN: reg.token };
    };
    const alice = await start(laptop, 'alice');
    const bob = await start(buildbox, 'bob');
    await page.goto(a.url!);
    await page.getByRole('button', { name: /^Sessions/ }).click();
    await expect(page.getByTestId('sessions')).toContainText('buildbox');

    const denied = cli(alice, ['send', '--to', 'bob', '--summary', 'plans', '--message', 'the secret plans', '--json']);
    await page.getByRole('button', { name: /^Approvals/ }).click();
    const item = page.getByTestId('confirmation-item');
    await expect(item).toContainText('the secret plans');
    await expect(page.getByTestId('confirmations')).toContainText('connected as laptop');
    await expect(item.getByRole('button', { name: 'Deny' })).toBeFocused();
    await page.screenshot({ path: path.join(SHOTS, 'approvals-confirmation.png') });
    await item.getByRole('button', { name: 'Deny' }).click();
    expect(JSON.parse((await denied).stdout), 'Deny answers confirm-denied').toMatchObject({
      status: 'confirm-denied',
    });
    expect(JSON.parse((await cli(bob, ['inbox', '--json'])).stdout), 'a denied send never arrives').toMatchObject({
      items: [],
    });

    const allowed = cli(alice, [
      'send',
      '--to',
      'bob',
      '--summary',
      'plans',
      '--message',
      'the public plans',
      '--json',
    ]);
    await page.getByTestId('confirmation-item').getByRole('button', { name: 'Allow once' }).click();
    expect(JSON.parse((await allowed).stdout)).toMatchObject({ status: 'queued' });
    expect((await cli(bob, ['inbox', '--json'])).stdout, 'an allowed send arrives').toContain('the public plans');
  } finally {
    await page.close(); // before the hub goes: its reconnect attempts would count as failed requests
    await stopAndRemove(root, procs, 'SIGKILL');
  }
});
