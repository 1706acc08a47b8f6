// First run from an empty hub, in real Chromium against a real `serve --ui`:
// the start page finds the (fake) claude, codex and gemini on the hub's PATH,
// shows a dry-run preview, applies it to a temp HOME, then waits for the
// first session, which replaces it as soon as one registers. Nothing outside
// the temp directory is read or changed. Also: the page guard catches a 404.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stopProcess } from '../helpers/processes.js';
import { stopAndRemove } from '../helpers/temp.js';
import { expect, shoot, test, watchPage } from './fixtures.js';

const CLI = path.resolve('dist/cli/switchboard.mjs');

interface Ctx {
  root: string;
  env: NodeJS.ProcessEnv;
  hub: ChildProcess;
  url: string;
}

let ctx: Ctx;

test.beforeEach(async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sbf-'));
  const bin = path.join(root, 'bin');
  fs.mkdirSync(bin);
  for (const c of ['claude', 'codex', 'gemini'])
    fs.writeFileSync(path.join(bin, c), '#!/bin/sh\necho "fake $0: must never run" >&2\nexit 3\n', { mode: 0o755 });
  // Only the fake agents and the system's basic tools: a real agent on this machine is never found.
  const env = {
    PATH: `${bin}${path.delimiter}/usr/bin${path.delimiter}/bin`,
    HOME: root,
    SWITCHBOARD_RUNTIME_DIR: path.join(root, 'run'),
    SWITCHBOARD_HOME: path.join(root, 'home'),
  };
  const hub = spawn(process.execPath, [CLI, 'serve', '--ui', '--port', '0', '--json', '--quiet'], { env });
  const url = await new Promise<string>((resolve) => {
    let out = '';
    hub.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve((JSON.parse(out.split('\n')[0]!) as { ui: string }).ui);
    });
  });
  ctx = { root, env, hub, url };
});

test.afterEach(async ({ page }) => {
  await page.close();
  // The hub writes its state as it stops: remove the directory only after it has exited.
  await stopAndRemove(ctx.root, [ctx.hub]);
});

test('first run sets up a detected agent from a dry-run preview, then gives way to the first session', async ({
  page,
}) => {
  await page.goto(ctx.url);
  const firstRun = page.getByTestId('first-run');
  await expect(firstRun).toContainText('No live sessions yet');
  for (const agent of ['claude-code', 'codex', 'gemini'])
    await expect(page.getByTestId(`detected-${agent}`), `detects ${agent}`).toContainText(`found at ${ctx.root}/bin/`);
  await expect(page.getByTestId('detected-codex')).toContainText('not set up');
  await expect(page.getByTestId('waiting')).toHaveCount(0);
  await shoot(page, 'first-run');

  await firstRun.getByRole('button', { name: 'Set up Codex CLI…' }).click();
  const preview = page.getByTestId('setup-preview');
  await expect(preview).toContainText('Dry run: nothing is written until you press Apply');
  await expect(preview).toContainText('[mcp_servers.switchboard]');
  expect(fs.existsSync(path.join(ctx.root, '.codex', 'config.toml')), 'the preview writes nothing').toBe(false);
  await shoot(page, 'first-run-preview');
  await preview.getByRole('button', { name: 'Apply' }).click();

  await expect(page.getByTestId('waiting'), 'after Apply it waits').toContainText('Waiting for your first session');
  await expect(page.getByTestId('waiting')).toContainText('Codex CLI');
  await expect(page.getByTestId('detected-codex')).toContainText('set up');
  expect(
    fs.readFileSync(path.join(ctx.root, '.codex', 'config.toml'), 'utf8'),
    'Apply writes the MCP server',
  ).toContain(`"--no-memory-reducer", "${CLI}", "mcp", "--agent", "codex"`);
  expect(fs.readFileSync(path.join(ctx.root, '.codex', 'hooks.json'), 'utf8')).toMatch(
    /(?: hook|switchboard-hook\.cjs\\") session-start --agent codex/,
  ); // the hooks' own entry when built
  await shoot(page, 'first-run-waiting');

  // The first session replaces the start page.
  const holder = spawn('sleep', ['60'], { stdio: 'ignore' });
  try {
    const r = await new Promise<number | null>((resolve) => {
      const c = spawn(
        process.execPath,
        [
          CLI,
          'session',
          'start',
          '--cwd',
          ctx.root,
          '--name',
          'first',
          '--mode',
          'default',
          '--pid',
          String(holder.pid),
          '--json',
        ],
        { env: ctx.env, stdio: 'ignore' },
      );
      c.on('close', resolve);
    });
    expect(r).toBe(0);
    await expect(page.getByTestId('session-first')).toBeVisible();
    await expect(page.getByTestId('first-run'), 'the first session replaces the start page').toHaveCount(0);
  } finally {
    await stopProcess(holder);
  }
});

test('every view has an empty state that says what will appear there', async ({ page }) => {
  await page.goto(ctx.url);
  const expectations: Array<[string, RegExp]> = [
    ['Approvals', /Nothing waits for you/],
    ['Picture', /Nothing to draw yet/],
    ['Subscriptions', /No idle subscriptions/],
    ['Teams', /No teams/],
    ['Activity', /No messages yet/],
  ];
  for (const [view, text] of expectations) {
    await page
      .getByRole('navigation')
      .getByRole('button', { name: new RegExp(`^${view}`) })
      .click();
    await expect(page.getByText(text)).toBeVisible();
  }
  // Keyboard: the navigation is one tab stop, arrows move between views.
  await page
    .getByRole('navigation')
    .getByRole('button', { name: /^Activity/ })
    .focus();
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(/^Teams/);
  await page.keyboard.press('Home');
  await expect(page.getByTestId('first-run')).toBeVisible();
  await shoot(page, 'empty-activity-nav');
});

test('the page guard reports a 404 and a console error', async ({ browser }) => {
  const page = await browser.newPage();
  const watch = watchPage(page);
  await page.goto(ctx.url);
  await expect(page.getByTestId('first-run')).toBeVisible();
  await page.evaluate(async () => {
    await fetch('/no-such-file.png');
    console.error('something broke');
  });
  await expect.poll(() => watch.problems.length).toBeGreaterThanOrEqual(2);
  expect(watch.problems.some((p) => p.startsWith('HTTP 404: GET') && p.endsWith('/no-such-file.png'))).toBe(true);
  expect(watch.problems.some((p) => p.startsWith('console error: something broke'))).toBe(true);
  await page.close();
});
