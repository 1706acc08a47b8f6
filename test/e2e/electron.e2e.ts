// The desktop app itself, driven by Playwright's _electron: launch, the
// window shows sessions, approve a held message. Runs where an Electron
// binary exists (and a display on Linux); elsewhere it is skipped with the
// reason, never passed. The same renderer is tested in Chromium by ui.e2e.ts.
import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findElectronBinary, hasDisplay } from '../../scripts/electron-binary.mjs';
import { stopAndRemove } from '../helpers/temp.js';

const ROOT = path.resolve('.');
const CLI = path.join(ROOT, 'dist/cli/switchboard.mjs');
const found = findElectronBinary(ROOT);
const reason =
  found.path === null
    ? `no Electron binary here: ${found.why}`
    : !hasDisplay()
      ? 'no display for Electron windows (DISPLAY/WAYLAND_DISPLAY unset)'
      : '';

function cli(env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', () => resolve(out));
  });
}

if (reason !== '') console.warn(`electron.e2e.ts skipped: ${reason}`);

test.describe('desktop app (Electron)', () => {
  test.skip(reason !== '', `Skipped: ${reason}. The renderer is covered in Chromium by ui.e2e.ts.`);

  let app: ElectronApplication | undefined;
  test.afterEach(async () => app?.close());

  test('launches, shows sessions, approves a held message', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sbx-'));
    const env = {
      PATH: process.env.PATH,
      HOME: root,
      DISPLAY: process.env.DISPLAY,
      SWITCHBOARD_RUNTIME_DIR: path.join(root, 'run'),
      SWITCHBOARD_HOME: path.join(root, 'home'),
      CLAUDE_CONFIG_DIR: path.join(root, 'claude'),
    };
    app = await electron.launch({
      executablePath: found.path!,
      args: [ROOT, '--show'],
      env: env as Record<string, string>,
    });
    const page = await app.firstWindow();
    await expect(page.getByRole('heading', { name: 'Switchboard' })).toBeVisible();
    expect(await page.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');

    const holder = spawn('sleep', ['120'], { stdio: 'ignore' });
    try {
      const start = async (name: string, mode: string): Promise<NodeJS.ProcessEnv> => {
        const reg = JSON.parse(
          await cli(env, [
            'session',
            'start',
            '--cwd',
            root,
            '--name',
            name,
            '--mode',
            mode,
            '--pid',
            String(holder.pid),
            '--json',
          ]),
        ) as { sessionId: string; token: string };
        return { ...env, SWITCHBOARD_SESSION: reg.sessionId, SWITCHBOARD_TOKEN: reg.token };
      };
      const careful = await start('careful', 'default');
      const yolo = await start('yolo', 'bypassPermissions');
      await expect(page.getByTestId('sessions').getByRole('row')).toHaveCount(3);
      expect(
        await cli(careful, ['send', '--to', 'yolo', '--summary', 'cleanup', '--message', 'please delete build/']),
      ).toMatch(/^held:/);
      await page.getByRole('button', { name: /^Approvals/ }).click();
      const item = page.getByTestId('held-item');
      await expect(item.getByRole('button', { name: 'Deny' })).toBeFocused();
      await item.getByRole('button', { name: 'Approve' }).click();
      await expect(item).toHaveCount(0);
      expect(await cli(yolo, ['inbox', '--json'])).toContain('please delete build/');
    } finally {
      await app.close();
      app = undefined;
      await stopAndRemove(root, [holder]);
    }
  });
});
