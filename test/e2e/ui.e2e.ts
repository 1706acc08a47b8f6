// The real renderer in real Chromium against a real `switchboard serve --ui`,
// with sessions made through the real CLI. Any console error or failed
// request fails a test (./fixtures.ts); screenshots are light and dark.
import type { Locator, Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stopAndRemove } from '../helpers/temp.js';
import { expect, shoot, test } from './fixtures.js';

const CLI = path.resolve('dist/cli/switchboard.mjs');

interface Ctx {
  root: string;
  env: NodeJS.ProcessEnv;
  hub: ChildProcess;
  holder: ChildProcess;
  url: string;
  origin: string;
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

async function start(): Promise<Ctx> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sbe-'));
  const env = {
    PATH: process.env.PATH,
    HOME: root,
    SWITCHBOARD_RUNTIME_DIR: path.join(root, 'run'),
    SWITCHBOARD_HOME: path.join(root, 'home'),
    CLAUDE_CONFIG_DIR: path.join(root, 'claude'),
  };
  const hub = spawn(process.execPath, [CLI, 'serve', '--ui', '--port', '0', '--json', '--quiet'], { env });
  const ready = await new Promise<{ ui: string }>((resolve) => {
    let out = '';
    hub.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as { ui: string });
    });
  });
  const holder = spawn('sleep', ['600'], { stdio: 'ignore' });
  return { root, env, hub, holder, url: ready.ui, origin: new URL(ready.ui).origin };
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

async function open(page: Page, ctx: Ctx, view: string): Promise<void> {
  await page.goto(ctx.url);
  await page.getByRole('button', { name: new RegExp(`^${view}`, 'i') }).click();
}

let ctx: Ctx;
test.beforeEach(async () => {
  ctx = await start();
});
test.afterEach(async ({ page }) => {
  await page.close(); // before the hub goes: its reconnect attempts would count as failed requests
  await stopAndRemove(ctx.root, [ctx.hub, ctx.holder]);
});

test('a held message is approved or denied from its Approvals card', async ({ page }) => {
  const careful = await session(ctx, 'careful', 'default');
  const yolo = await session(ctx, 'yolo', 'bypassPermissions');
  await open(page, ctx, 'Sessions');
  await expect(page.getByTestId('sessions').getByRole('row')).toHaveCount(3);
  // A bypass session is marked as one, and its Inbound column says what mode parity does for it.
  await expect(page.getByTestId('session-yolo').getByTestId('mode')).toHaveText(
    'bypass bypass permissions declared', // `session start --mode`: the session's word
  );
  await expect(page.getByTestId('session-yolo').getByTestId('inbound')).toHaveText(
    'holds messages from prompting sessions',
  );
  await expect(page.getByTestId('session-careful').getByTestId('mode')).toHaveText('prompting default (asks) declared');
  await expect(page.getByTestId('session-careful').getByTestId('inbound')).toHaveText(
    'holds messages from bypass sessions',
  );
  // The filter's whole placeholder fits in its box.
  const fit = await page.getByLabel('Filter sessions').evaluate((el: HTMLInputElement) => {
    const css = getComputedStyle(el);
    const ctx2d = document.createElement('canvas').getContext('2d')!;
    ctx2d.font = css.font;
    const room = el.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight);
    return { text: ctx2d.measureText(el.placeholder).width, room };
  });
  expect(fit.text).toBeLessThanOrEqual(fit.room);
  await shoot(page, 'sessions');

  expect(
    (
      await cli(
        ctx,
        ['send', '--to', 'yolo', '--summary', 'cleanup', '--message', 'please delete build/ and rerun'],
        careful,
      )
    ).stdout,
  ).toMatch(/^held:/);
  await page.getByRole('button', { name: /^Approvals/ }).click();
  const item = page.getByTestId('held-item');
  await expect(item).toHaveCount(1);
  await expect(item.getByTestId('countdown'), 'the card counts down').toHaveText(/^[45]:\d\d left$/);
  await expect(item).toContainText('please delete build/');
  await expect(item.getByRole('button', { name: 'Deny' })).toBeFocused();
  await shoot(page, 'approvals');
  const t0 = Date.now();
  await item.getByRole('button', { name: 'Approve' }).click();
  await expect(item).toHaveCount(0);
  const updateMs = Date.now() - t0;
  const inbox = await cli(ctx, ['inbox', '--json'], yolo);
  expect(inbox.stdout, 'Approve delivers it').toContain('approved=\\"after-hold\\"');
  const receipts = JSON.parse((await cli(ctx, ['inbox', '--json'], careful)).stdout) as {
    items: Array<{ status?: string }>;
  };
  expect(
    receipts.items.map((i) => i.status),
    'the sender gets receipts',
  ).toEqual(['held', 'approved']);

  await cli(ctx, ['send', '--to', 'yolo', '--summary', 'again', '--message', 'second try'], careful);
  await expect(page.getByTestId('held-item')).toHaveCount(1);
  // A card that arrives later never takes focus by itself (an Esc by reflex would deny it unread): the person
  // puts focus on it, and Esc denies it.
  await expect(page.getByTestId('held-item').getByRole('button', { name: 'Deny' })).not.toBeFocused();
  await page.getByTestId('held-item').getByRole('button', { name: 'Deny' }).focus();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('held-item')).toHaveCount(0);
  const denied = JSON.parse((await cli(ctx, ['inbox', '--json'], careful)).stdout) as {
    items: Array<{ status?: string }>;
  };
  expect(
    denied.items.map((i) => i.status),
    'Escape denies',
  ).toContain('denied');
  console.log(`approve → list updated in ${updateMs} ms (browser round trip included)`);

  // In Activity a held receipt is a pill like every other status, not a large box.
  await page.getByRole('button', { name: /^Activity/ }).click();
  const pill = (status: string) => page.getByTestId('activity').locator(`[data-status="${status}"]`).first();
  await expect(pill('held')).toBeVisible();
  const held = (await pill('held').boundingBox())!;
  const approved = (await pill('approved').boundingBox())!;
  expect(Math.abs(held.height - approved.height), 'Activity: a held pill is like the others').toBeLessThanOrEqual(1);
  expect(held.height).toBeLessThan(24);
  const colours = await pill('held').evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(colours).not.toBe('rgb(255, 255, 255)');
  await shoot(page, 'activity');
});

test('Subscriptions lists an idle subscription, which Cancel ends', async ({ page }) => {
  const a = await session(ctx, 'watcher', 'default');
  await session(ctx, 'builder', 'default');
  await cli(ctx, ['send', '--to', 'builder', '--notify-when-idle'], a);
  await open(page, ctx, 'Subscriptions');
  const row = page.getByTestId('subscriptions').getByRole('row').nth(1);
  await expect(row).toContainText('builder');
  await shoot(page, 'subscriptions');
  await row.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('No idle subscriptions.')).toBeVisible();
});

// A team as Claude Code writes it; a task created in the UI lands on disk in its format.
test('Teams creates a task as Claude Code writes one, and draws what blocks it', async ({ page }) => {
  const teamDir = path.join(ctx.root, 'claude', 'teams', 'crew');
  fs.mkdirSync(path.join(teamDir, 'inboxes'), { recursive: true });
  fs.writeFileSync(
    path.join(teamDir, 'config.json'),
    JSON.stringify(
      {
        name: 'crew',
        createdAt: 1,
        leadAgentId: 'team-lead@crew',
        members: [
          { agentId: 'team-lead@crew', name: 'team-lead', joinedAt: 1 },
          { agentId: 'dev@crew', name: 'dev', joinedAt: 2 },
        ],
      },
      null,
      2,
    ),
  );
  await open(page, ctx, 'Teams');
  await expect(page.getByText('team-lead')).toBeVisible();
  await page.getByLabel('New task subject').fill('Write the release notes');
  await page.getByRole('button', { name: 'Create task' }).click();
  await expect(page.getByTestId('task-1')).toContainText('Write the release notes');
  const onDisk = fs.readFileSync(path.join(ctx.root, 'claude', 'tasks', 'crew', '1.json'), 'utf8');
  expect(JSON.parse(onDisk)).toEqual({
    id: '1',
    subject: 'Write the release notes',
    description: '',
    status: 'pending',
    blocks: [],
    blockedBy: [],
  });
  expect(onDisk).toBe(JSON.stringify(JSON.parse(onDisk), null, 2));
  await page.getByLabel('Assign task 1').selectOption('dev');
  await expect(page.getByLabel('Assign task 1')).toHaveValue('dev');
  // A blocked task (made by the CLI) is drawn with an arrow from its blocker.
  expect(
    (await cli(ctx, ['task', 'create', '--team', 'crew', '--subject', 'Publish the release', '--blocked-by', '1']))
      .code,
  ).toBe(0);
  await expect(page.getByTestId('task-2')).toContainText('Publish the release');
  await expect(page.getByTestId('blocker-lines').locator('path.open')).toHaveCount(1);
  await shoot(page, 'teams');
});

test('Preferences save to the user’s settings file, which the hub follows', async ({ page }) => {
  const a = await session(ctx, 'watcher', 'default');
  await session(ctx, 'builder', 'default');
  await open(page, ctx, 'Preferences');
  await expect(page.getByTestId('preferences')).toContainText('Messages from other sessions');
  await expect(page.getByTestId('preferences')).not.toContainText('Throttle:');
  await expect(page.locator('tr[data-key="throttle.bucketSize"] th')).toHaveAttribute(
    'title',
    'Settings key: throttle.bucketSize',
  );
  await page.getByLabel('Messages from other sessions').selectOption('hold');
  await expect(page.getByTestId('preferences')).toContainText('from user settings');
  expect(JSON.parse(fs.readFileSync(path.join(ctx.root, 'home', 'settings.json'), 'utf8'))).toEqual({
    crossSessionInbound: 'hold',
  });
  expect((await cli(ctx, ['send', '--to', 'builder', '--summary', 's', '--message', 'now held'], a)).stdout).toMatch(
    /^held:/,
  );
  // One save model: a number saves on leaving its field; one out of range stays, with the reason beside it.
  const settingsFile = path.join(ctx.root, 'home', 'settings.json');
  await expect(page.getByTestId('user-settings-file')).toHaveText(settingsFile);
  await expect(page.getByRole('button', { name: /^Save/ })).toHaveCount(0);
  const idle = page.getByLabel('“Tell me when idle” requests last');
  await idle.fill('0');
  await idle.press('Enter');
  const idleRow = page.locator('tr[data-key="idleSubscriptionMinutes"]');
  await expect(idleRow.getByRole('alert')).toHaveText(
    'Enter a whole number from 1 to 1440 minutes; 0 is out of range.',
  );
  await expect(idle).toHaveValue('0');
  await idle.fill('90');
  await idle.press('Tab');
  await expect(idleRow).toContainText('Saved');
  await expect(idleRow.getByRole('alert')).toHaveCount(0);
  expect(JSON.parse(fs.readFileSync(settingsFile, 'utf8'))).toEqual({
    crossSessionInbound: 'hold',
    idleSubscriptionMinutes: 90,
  });
  await shoot(page, 'preferences');
});

test('without the token nothing loads; a cross-site request is refused', async ({ browser, request }) => {
  const fresh = await browser.newContext();
  const page = await fresh.newPage();
  const res = await page.goto(ctx.origin + '/');
  expect(res?.status()).toBe(200); // the public renderer loads; the hub's data does not
  await expect(page.getByRole('status').filter({ hasText: 'Not signed in' })).toBeVisible();
  const cross = await request.post(ctx.origin + '/api/held.list', {
    headers: { Origin: 'http://evil.example', 'Content-Type': 'application/json' },
    data: {},
  });
  expect(cross.status()).toBe(403);
  const noToken = await request.post(ctx.origin + '/api/held.list', {
    headers: { 'Content-Type': 'application/json' },
    data: {},
  });
  expect(noToken.status()).toBe(401);
  await fresh.close();
});

test('a tab stays signed in across a reload with the token out of its URL and cookies', async ({ page, context }) => {
  await open(page, ctx, 'Sessions');
  await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible();
  expect(page.url(), 'the token leaves the address bar').not.toContain('token');
  expect(await context.cookies(), 'no cookie carries it').toEqual([]);
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible();
  expect(page.url()).not.toContain('token');
});

/** Sessions with builder's detail open. */
async function builderDetail(page: Page): Promise<{ builder: NodeJS.ProcessEnv; detail: Locator }> {
  const builder = await session(ctx, 'builder', 'default');
  await open(page, ctx, 'Sessions');
  await page.getByRole('button', { name: /^builder \[/ }).click();
  return { builder, detail: page.getByTestId('session-detail') };
}

test('session detail sends a message as the user', async ({ page }) => {
  const { builder, detail } = await builderDetail(page);
  await detail.getByLabel(/Message from you/).fill('Please stop after the current test run.');
  await detail.getByRole('button', { name: 'Send as the user' }).click();
  await expect(detail.getByRole('status')).toContainText('Queued for builder');
  const inbox = JSON.parse((await cli(ctx, ['inbox', '--json'], builder)).stdout) as { items: Array<{ text: string }> };
  expect(inbox.items[0]!.text).toBe(
    '<user-message source="switchboard-ui">\nPlease stop after the current test run.\n</user-message>',
  );
});

test('session detail’s Notify me when idle brings one idle notice', async ({ page }) => {
  const { builder, detail } = await builderDetail(page);
  await detail.getByRole('button', { name: 'Notify me when idle' }).click();
  await expect(detail.getByRole('status')).toContainText('You will get one notice');
  await shoot(page, 'session-detail');
  await cli(ctx, ['session', 'state', 'busy'], builder);
  await cli(ctx, ['session', 'state', 'idle'], builder);
  await page.getByRole('button', { name: /^Activity/ }).click();
  await expect(page.getByText(/\[Cross-session idle notice\] builder \[[0-9a-f]+\] is now idle\./)).toBeVisible();
});

test('agent setup from Preferences writes the configuration only on Apply, after a dry-run preview', async ({
  page,
}) => {
  fs.mkdirSync(path.join(ctx.root, '.gemini'));
  fs.writeFileSync(path.join(ctx.root, '.gemini', 'settings.json'), '{\n  // mine\n  "theme": "GitHub"\n}\n');
  await open(page, ctx, 'Preferences');
  await page.getByRole('button', { name: 'Set up Gemini CLI…' }).click();
  const preview = page.getByTestId('setup-preview');
  await expect(preview).toContainText('"switchboard"');
  expect(
    fs.readFileSync(path.join(ctx.root, '.gemini', 'settings.json'), 'utf8'),
    'the preview writes nothing',
  ).not.toContain('switchboard');
  await shoot(page, 'agent-setup');
  await preview.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('agent-setup').getByRole('status')).toContainText('Set up Gemini CLI');
  const text = fs.readFileSync(path.join(ctx.root, '.gemini', 'settings.json'), 'utf8');
  expect(text).toContain('// mine');
  expect(text).toContain(`"${CLI}"`);
});

test('a held message expires after a short dialogExpiry while the UI is open', async ({ page, request }) => {
  test.setTimeout(120_000);
  fs.writeFileSync(path.join(ctx.root, 'home', 'settings.json'), JSON.stringify({ dialogExpiry: '60s' }));
  const careful = await session(ctx, 'careful', 'default');
  await session(ctx, 'yolo', 'bypassPermissions');
  await open(page, ctx, 'Approvals');
  // The hub has read the changed settings (its folder watch): the dialogExpiry it uses now comes from them.
  const uiToken = decodeURIComponent(new URL(ctx.url).hash.replace(/^#token=/, ''));
  const expirySource = async (): Promise<unknown> => {
    const res = await request.post(ctx.origin + '/api/settings.effective', {
      headers: { Authorization: `Bearer ${uiToken}`, 'Content-Type': 'application/json' },
      data: {},
    });
    return ((await res.json()) as { result?: { effective?: { dialogExpiry?: { source?: string } } } }).result?.effective
      ?.dialogExpiry?.source;
  };
  await expect.poll(expirySource, { timeout: 30_000 }).not.toBe('default');
  await cli(ctx, ['send', '--to', 'yolo', '--summary', 's', '--message', 'this will expire'], careful);
  const item = page.getByTestId('held-item');
  await expect(item.getByTestId('countdown')).toHaveText(/^(1:00|0:5\d) left$/);
  await expect(item).toHaveCount(0, { timeout: 70_000 });
  const receipts = JSON.parse((await cli(ctx, ['inbox', '--json'], careful)).stdout) as {
    items: Array<{ status?: string }>;
  };
  expect(receipts.items.map((i) => i.status)).toEqual(['held', 'expired']);
});
