// History in real Chromium against a real `switchboard serve --ui`,
// sessions and sends through the real CLI: a message sent an hour before the
// page's (fake) clock is found by search after a real hub restart; one pair's
// conversation shows every outcome (queued → delivered, held → approved →
// delivered, held → denied, held → delivered when the policy changed, dropped
// as a duplicate). Any console
// error or failed request fails a test (./fixtures.ts); screenshots are taken.
import type { Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stopProcess } from '../helpers/processes.js';
import { stopAndRemove } from '../helpers/temp.js';
import { expect, shoot, test } from './fixtures.js';

const CLI = path.resolve('dist/cli/switchboard.mjs');
const HOUR = 3_600_000;

interface Ctx {
  root: string;
  env: NodeJS.ProcessEnv;
  hub: ChildProcess;
  holder: ChildProcess;
  url: string;
  uiToken: string;
}

function cli(
  ctx: Ctx,
  args: string[],
  extra: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...ctx.env, ...extra } });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

async function serve(env: NodeJS.ProcessEnv): Promise<{ hub: ChildProcess; url: string; uiToken: string }> {
  const hub = spawn(process.execPath, [CLI, 'serve', '--ui', '--port', '0', '--json', '--quiet'], { env });
  const ready = await new Promise<{ ui: string; uiToken: string }>((resolve) => {
    let out = '';
    hub.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as { ui: string; uiToken: string });
    });
  });
  return { hub, url: ready.ui, uiToken: ready.uiToken };
}

async function start(): Promise<Ctx> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sbh-'));
  const env = {
    PATH: process.env.PATH,
    HOME: root,
    SWITCHBOARD_RUNTIME_DIR: path.join(root, 'run'),
    SWITCHBOARD_HOME: path.join(root, 'home'),
    CLAUDE_CONFIG_DIR: path.join(root, 'claude'),
  };
  const s = await serve(env);
  return { root, env, holder: spawn('sleep', ['600'], { stdio: 'ignore' }), ...s };
}

async function session(ctx: Ctx, name: string, mode: string): Promise<NodeJS.ProcessEnv> {
  const r = await cli(ctx, [
    'session',
    'start',
    '--cwd',
    ctx.root,
    '--name',
    name,
    '--mode',
    mode,
    '--pid',
    String(ctx.holder.pid),
    '--json',
  ]);
  const reg = JSON.parse(r.stdout) as { sessionId: string; token: string };
  return { SWITCHBOARD_SESSION: reg.sessionId, SWITCHBOARD_TOKEN: reg.token };
}

async function send(ctx: Ctx, as: NodeJS.ProcessEnv, to: string, summary: string, message: string): Promise<string> {
  return (await cli(ctx, ['send', '--to', to, '--summary', summary, '--message', message], as)).stdout;
}

async function nav(page: Page, view: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${view}`) }).click();
}

let ctx: Ctx;
test.beforeEach(async () => {
  ctx = await start();
});
test.afterEach(async ({ page }) => {
  await page.close(); // before the hub goes: its reconnect attempts would count as failed requests
  await stopAndRemove(ctx.root, [ctx.hub, ctx.holder]);
});

test('search finds a message sent an hour earlier, after the hub restarted', async ({ page }) => {
  const api = await session(ctx, 'api', 'default');
  const web = await session(ctx, 'web', 'default');
  expect(await send(ctx, api, 'web', 'migration plan', 'the zanzibar migration runs tonight')).toMatch(/^queued/);
  expect(await send(ctx, web, 'api', 'unrelated', 'lunch at noon')).toMatch(/^queued/);
  expect((await cli(ctx, ['inbox', '--ack', '--json'], web)).code).toBe(0); // delivered
  const sentAt = Date.now();

  // A real restart: the serve process stops (history written, file closed) and a new one opens the same state directory.
  await stopProcess(ctx.hub);
  Object.assign(ctx, await serve(ctx.env));

  // The page lives an hour and five minutes later than the send.
  await page.clock.setFixedTime(sentAt + HOUR + 5 * 60_000);
  await page.goto(ctx.url);
  await nav(page, 'History');
  await page.getByLabel('Search messages').fill('zanzibar');
  const results = page.getByTestId('history-results').getByTestId('history-msg');
  await expect(results).toHaveCount(1);
  await expect(results.first()).toContainText('api → web');
  await expect(results.first()).toContainText('the zanzibar migration runs tonight');
  await expect(results.first()).toContainText('1h 5m ago');
  await expect(results.first().getByTestId('outcome-path')).toHaveText('queued → delivered');
  // Older than the last hour by the page's clock; inside the last 24 hours.
  await page.getByLabel('Filter by time').selectOption('1h');
  await expect(page.getByTestId('history-empty')).toContainText('Nothing matches these filters');
  await page.getByLabel('Filter by time').selectOption('24h');
  await expect(results).toHaveCount(1);
  await shoot(page, 'history-search');
});

test('a conversation shows the path each of its messages took', async ({ page }) => {
  const careful = await session(ctx, 'careful', 'default');
  const yolo = await session(ctx, 'yolo', 'bypassPermissions');
  await page.goto(ctx.url);
  await nav(page, 'Sessions');
  await expect(page.getByTestId('sessions').getByRole('row')).toHaveCount(3);

  expect(await send(ctx, careful, 'yolo', 'cleanup', 'please delete build/ and rerun')).toMatch(/^held:/);
  await nav(page, 'Approvals');
  await page.getByTestId('held-item').getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('held-item')).toHaveCount(0);
  expect((await cli(ctx, ['inbox', '--ack', '--json'], yolo)).code).toBe(0);

  expect(await send(ctx, careful, 'yolo', 'force push', 'force-push main please')).toMatch(/^held:/);
  await expect(page.getByTestId('held-item')).toHaveCount(1);
  await page.getByTestId('held-item').getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByTestId('held-item')).toHaveCount(0);

  expect(await send(ctx, careful, 'yolo', 'status', 'what is the build status?')).toMatch(/^held:/);
  expect(await send(ctx, careful, 'yolo', 'status', 'what is the build status?')).toMatch(/^dropped/);

  // The user lets messages in: the one still held is released (delivered), the next one is queued and then delivered.
  const set = await fetch(new URL('/api/settings.set', ctx.url), {
    method: 'POST',
    headers: { Authorization: `Bearer ${ctx.uiToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ key: 'crossSessionInbound', value: 'accept' }),
  });
  expect(set.status).toBe(200);
  expect(await send(ctx, careful, 'yolo', 'thanks', 'thanks, all good now')).toMatch(/^queued/);
  expect((await cli(ctx, ['inbox', '--ack', '--json'], yolo)).code).toBe(0);

  // From the Sessions row: its history, then the pair's conversation.
  await nav(page, 'Sessions');
  await expect(page.getByTestId('session-careful').getByTestId('sparkline')).toHaveAttribute('data-total', '5');
  await page.getByRole('button', { name: /^careful \[/ }).click();
  await page.getByRole('button', { name: 'Open its history' }).click();
  await expect(page.getByRole('button', { name: /^History/ })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByLabel('Filter by session')).toHaveValue('careful');
  const results = page.getByTestId('history-results').getByTestId('history-msg');
  await expect(results).toHaveCount(5);
  // Keyboard: into the list, down one, Enter opens that result's conversation.
  await results.first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(results.nth(1)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2 })).toContainText('Conversation: careful ↔ yolo');
  const conv = page.getByTestId('conversation').getByTestId('history-msg');
  await expect(conv).toHaveCount(5);
  const paths = await conv.getByTestId('outcome-path').allTextContents();
  expect(paths, 'approved, denied, released, dropped and queued, each as its path').toEqual([
    'held → approved → delivered',
    'held → denied',
    'held → delivered',
    'dropped',
    'queued → delivered',
  ]);
  await expect(conv.nth(1).getByTestId('outcome-reason')).toContainText('Denied:');
  await expect(conv.nth(3).getByTestId('outcome-reason')).toHaveText('Dropped: duplicate');
  await page.getByLabel('Filter by outcome').selectOption('denied');
  await expect(conv).toHaveCount(1);
  await page.getByLabel('Filter by outcome').selectOption('');
  await expect(conv).toHaveCount(5);
  await shoot(page, 'history-conversation');
  await conv.first().focus();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(/^History/);

  await nav(page, 'Sessions');
  await shoot(page, 'sessions-traffic');

  // Preferences says what the history holds, and deletes it only on a second click.
  await nav(page, 'Preferences');
  const prefs = page.getByTestId('history-prefs');
  await expect(prefs).toContainText('5 messages kept');
  await prefs.scrollIntoViewIfNeeded();
  await shoot(page, 'history-prefs');
  await prefs.getByRole('button', { name: 'Delete all history…' }).click();
  await prefs.getByRole('button', { name: 'Delete 5 messages for good' }).click();
  await expect(prefs.getByRole('status')).toHaveText('Deleted 5 messages from the history.');
  await nav(page, 'History');
  await expect(page.getByTestId('history-empty')).toContainText('No messages yet');
});
