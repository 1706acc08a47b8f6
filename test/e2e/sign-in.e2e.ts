/// <reference lib="dom" />
// Getting in and back in, in real Chromium against a real
// `switchboard serve --ui`: a tab without a token or with a wrong one shows
// the sign-in screen (not the app with zeros), and what `switchboard ui`
// prints signs it in without the token staying in the address bar. After
// the hub stops, an open tab's Approve buttons go dead (greyed, inert);
// after it restarts (a new token) the tab is signed out, and signs in again
// to the held message the journal kept.
import type { Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { stopProcess } from '../helpers/processes.js';
import { stopAndRemove, tempDir } from '../helpers/temp.js';
import { expect, shoot, test } from './fixtures.js';
import { rpcClient } from './hub-rpc.js';

const CLI = path.resolve('dist/cli/switchboard.mjs');

interface Hub {
  child: ChildProcess;
  ui: string;
  socket: string;
}

let root: string;
let env: NodeJS.ProcessEnv;
const hubs: ChildProcess[] = [];

test.beforeEach(() => {
  root = tempDir('sbs-');
  env = {
    PATH: process.env.PATH,
    HOME: root,
    SWITCHBOARD_RUNTIME_DIR: path.join(root, 'run'),
    SWITCHBOARD_HOME: path.join(root, 'home'),
    CLAUDE_CONFIG_DIR: path.join(root, 'claude'),
  };
});

test.afterEach(async ({ page }) => {
  await page.close(); // before the hub goes: its reconnect attempts would count as failed requests
  await stopAndRemove(root, hubs.splice(0));
});

async function serve(port: number): Promise<Hub> {
  const child = spawn(process.execPath, [CLI, 'serve', '--ui', '--port', String(port), '--json', '--quiet'], { env });
  hubs.push(child);
  const ready = await new Promise<{ ui: string; socket: string }>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`serve exited (${code})`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as { ui: string; socket: string });
    });
  });
  return { child, ...ready };
}

/** `switchboard ui`'s output: what a person pastes. */
function switchboardUi(): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [CLI, 'ui'], { env });
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.on('close', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`switchboard ui exited ${code}`))));
  });
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

async function signIn(page: Page, text: string): Promise<void> {
  await page.getByLabel('URL or token').fill(text);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test.describe('sign-in', () => {
  test.use({
    // An array is read as [value, options]: the list goes first.
    allowedProblems: [
      [/HTTP 401: POST http:\/\/127\.0\.0\.1:\d+\/api\//, /status of 401 \(Unauthorized\)/],
      { scope: 'test' },
    ],
  });

  test('only what switchboard ui prints gets a tab past the sign-in screen', async ({ page, context }) => {
    const hub = await serve(0);
    const origin = new URL(hub.ui).origin;
    await page.goto(origin + '/');
    const screenEl = page.getByTestId('sign-in');
    await expect(screenEl, 'no token: the sign-in screen').toContainText('this tab has no token');
    await expect(page.getByRole('navigation')).toHaveCount(0); // no app with "Sessions 0"
    await shoot(page, 'sign-in');

    await signIn(page, 'ab'.repeat(24));
    await expect(page.getByRole('alert'), 'a wrong token is refused').toContainText('The hub refused that token');
    await expect(page.getByRole('navigation')).toHaveCount(0);

    const printed = await switchboardUi();
    expect(printed).toBe(hub.ui);
    await signIn(page, printed);
    await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible();
    await expect(page.getByTestId('sign-in'), 'the printed URL signs in').toHaveCount(0);
    expect(page.url()).not.toContain('token');
    expect(await context.cookies()).toEqual([]);
    await page.reload(); // this tab keeps it (sessionStorage), as with the printed URL
    await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible();
    expect(page.url()).not.toContain('token');
  });
});

test.describe('after the hub restarts', () => {
  test.use({
    allowedProblems: [
      [
        /HTTP 401: POST http:\/\/127\.0\.0\.1:\d+\/api\//,
        /status of 401 \(Unauthorized\)/,
        /request failed: .*127\.0\.0\.1:\d+\/api\/.*net::ERR_CONNECTION_(REFUSED|RESET)/,
        /console error: Failed to load resource: net::ERR_CONNECTION_(REFUSED|RESET)/,
        /api\/events\?ticket=.*ERR_INCOMPLETE_CHUNKED_ENCODING|ERR_INCOMPLETE_CHUNKED_ENCODING.*api\/events\?ticket=/, // the stream the stopped hub cut
      ],
      { scope: 'test' },
    ],
  });

  test('an open tab goes dead while the hub is gone and signed out once it is back', async ({ page }) => {
    const port = await freePort();
    const hub = await serve(port);
    const rpc = await rpcClient(hub.socket);
    const reg = async (name: string, permissionMode: string) =>
      rpc.call('session.register', { cwd: `/work/${name}`, name, agent: 'claude', permissionMode });
    const web = await reg('web', 'default');
    await reg('api', 'bypassPermissions');
    const sent = await rpc.call('message.send', {
      sessionId: web.sessionId,
      token: web.token,
      to: 'api',
      summary: 'deploy',
      message: 'please deploy',
    });
    expect(sent.status).toBe('held');

    await page.goto(hub.ui);
    await page.getByRole('button', { name: /^Approvals/ }).click();
    const approve = page.getByTestId('held-item').getByRole('button', { name: 'Approve', exact: true });
    await expect(approve).toBeVisible();

    rpc.close();
    await stopProcess(hub.child);
    await expect(page.getByTestId('stale')).toContainText('The hub is not answering');
    await expect(page.locator('.views.stale[inert]')).toHaveCount(1);
    expect(await approve.evaluate((el) => el.closest('[inert]') !== null), 'Approve is inert').toBe(true);
    await shoot(page, 'hub-gone');

    await serve(port); // the same port, a new token
    await expect(page.getByTestId('sign-in')).toContainText('does not accept this tab’s token');
    await expect(page.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);

    await signIn(page, await switchboardUi());
    await page.getByRole('button', { name: /^Approvals/ }).click();
    await expect(page.getByTestId('held-item')).toContainText('please deploy'); // kept by the journal
    await expect(page.getByTestId('held-item').getByRole('button', { name: 'Approve', exact: true })).toBeEnabled();
  });
});

test('switchboard ui and the sign-in screen keep the token out of the hub’s state directory', async ({ page }) => {
  const hub = await serve(0);
  const token = new URL(hub.ui).hash.slice('#token='.length);
  await page.goto(new URL(hub.ui).origin + '/');
  await signIn(page, await switchboardUi());
  await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible();
  const files = fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
  for (const f of files) {
    const file = path.join(f.parentPath, f.name);
    expect(fs.readFileSync(file).includes(token), file).toBe(false);
  }
});
