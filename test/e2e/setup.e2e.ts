// Setup from the UI, in real Chromium against a real `serve --ui`
// in a temp HOME: the first-run page shows the Claude Code version it found
// (a fake `claude` that answers only `--version`), previews the plan made
// for that version — the newer hook forms, no PostToolUse hook per tool
// call — and writes it; `switchboard setup claude-code` then finds nothing
// to change (one plan, whichever way it is asked for). With no agent on the
// hub's PATH the page says what to install and still offers setup.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { stopAndRemove, tempDir } from '../helpers/temp.js';
import { expect, shoot, test } from './fixtures.js';

const CLI = path.resolve('dist/cli/switchboard.mjs');

let root: string;
let env: NodeJS.ProcessEnv;
let hub: ChildProcess;

async function start(agents: Record<string, string>, extra: NodeJS.ProcessEnv = {}): Promise<string> {
  root = tempDir('sbu-');
  const bin = path.join(root, 'bin');
  fs.mkdirSync(bin);
  for (const [name, script] of Object.entries(agents)) fs.writeFileSync(path.join(bin, name), script, { mode: 0o755 });
  env = {
    PATH: `${bin}${path.delimiter}/usr/bin${path.delimiter}/bin`, // a real agent on this machine is never found
    HOME: root,
    SWITCHBOARD_RUNTIME_DIR: path.join(root, 'run'),
    SWITCHBOARD_HOME: path.join(root, 'home'),
    ...extra,
  };
  hub = spawn(process.execPath, [CLI, 'serve', '--ui', '--port', '0', '--json', '--quiet'], { env });
  return new Promise<string>((resolve) => {
    let out = '';
    hub.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve((JSON.parse(out.split('\n')[0]!) as { ui: string }).ui);
    });
  });
}

test.afterEach(async ({ page }) => {
  await page.close();
  await stopAndRemove(root, [hub]);
});

function cli(args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [CLI, ...args], { env });
    let stdout = '';
    c.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    c.on('close', (code) => resolve({ code, stdout }));
  });
}

const CLAUDE =
  '#!/bin/sh\n[ "$1" = "--version" ] && { echo "2.1.332 (Claude Code)"; exit 0; }\necho "fake claude: must not run $*" >&2\nexit 3\n';

test('UI setup of Claude Code 2.1.332 writes the plan switchboard setup makes, and says the version', async ({
  page,
}) => {
  await page.goto(await start({ claude: CLAUDE }));
  const found = page.getByTestId('detected-claude-code');
  await expect(found).toContainText('2.1.332, found at');
  await page.getByRole('button', { name: 'Set up Claude Code…' }).click();
  const preview = page.getByTestId('setup-preview');
  await expect(preview.getByTestId('planned-for')).toContainText('Planned for Claude Code 2.1.332');
  await expect(preview).toContainText('"mcp_tool"');
  await expect(preview).not.toContainText('PostToolUse');
  await shoot(page, 'first-run-setup-version');
  await expect(found.getByText('not set up', { exact: true })).toBeVisible();
  await preview.getByRole('button', { name: 'Apply' }).click();
  // "set up" alone: "not set up" contains it, so a substring check passed before Apply had written anything.
  await expect(found.getByText('set up', { exact: true })).toBeVisible();

  const settings = fs.readFileSync(path.join(root, '.claude', 'settings.json'), 'utf8');
  expect(settings).toContain('"mcp_tool"');
  expect(settings).not.toContain('PostToolUse');
  // The CLI plans the same for this version: nothing left to change.
  const again = await cli(['setup', 'claude-code', '--dry-run', '--json']);
  expect(again.code).toBe(0);
  expect(JSON.parse(again.stdout)).toMatchObject({ changed: [] });
});

test('with no agent on the hub’s PATH, the page says what to install yet still sets one up', async ({ page }) => {
  await page.goto(await start({}));
  const none = page.getByTestId('no-agent');
  await expect(none, 'says no agent was found').toContainText('No agent found on the hub’s PATH');
  await expect(none).toContainText('npm install -g @anthropic-ai/claude-code');
  await expect(none).toContainText('npm install -g @openai/codex');
  await expect(none).toContainText('npm install -g @google/gemini-cli');
  await expect(none).toContainText('the PATH of the terminal that started it');
  await shoot(page, 'first-run-no-agent');
  await none.getByRole('button', { name: 'Set up Claude Code…' }).click();
  const preview = page.getByTestId('setup-preview');
  await expect(preview.getByTestId('planned-for')).toContainText('No Claude Code version found');
  await preview.getByRole('button', { name: 'Apply' }).click();
  await expect(none.getByRole('status')).toContainText('Set up Claude Code');
  expect(
    fs.readFileSync(path.join(root, '.claude', 'settings.json'), 'utf8'),
    'setup anyway writes the configuration',
  ).toContain('PostToolUse');
});

/** A port free now, for the fixed MCP port setup writes (the hub under test binds it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

test('UI setup of Claude Code over HTTP writes the headersHelper entry, and then reads as set up', async ({ page }) => {
  const port = await freePort();
  await page.goto(await start({ claude: CLAUDE }, { SWITCHBOARD_MCP_PORT: String(port) }));
  const found = page.getByTestId('detected-claude-code');
  await expect(found.getByText('not set up', { exact: true })).toBeVisible();
  await page.getByLabel(/Connect Claude Code over HTTP/).check();
  await page.getByRole('button', { name: 'Set up Claude Code…' }).click();
  const preview = page.getByTestId('setup-preview');
  await expect(preview).toContainText(`"url": "http://127.0.0.1:${port}/mcp"`);
  await expect(preview).toContainText('mcp --print-headers --agent claude');
  await preview.getByRole('button', { name: 'Apply' }).click();
  // Detection used to judge only the stdio entry: an HTTP setup read as "not set up" for good.
  await expect(found.getByText('set up', { exact: true })).toBeVisible();
  const server = (
    JSON.parse(fs.readFileSync(path.join(root, '.claude.json'), 'utf8')) as {
      mcpServers: Record<string, { type: string }>;
    }
  ).mcpServers.switchboard;
  expect(server?.type).toBe('http');
  const again = await cli(['setup', 'claude-code', '--transport', 'http', '--dry-run', '--json']);
  expect(JSON.parse(again.stdout)).toMatchObject({ changed: [] });
});
