// `npm start` / `npm run desktop` on a machine without an Electron binary or
// a display: the desktop refuses with one clear message; start falls back
// to the same UI headless. findElectronBinary never imports electron.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findElectronBinary, hasDisplay } from '../../scripts/electron-binary.mjs';
import { cliEnv } from '../helpers/cli.js';
import { tempDirs, until } from '../helpers/hub.js';
import { stopProcess } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const START = path.join(ROOT, 'scripts', 'start.mjs');

describe('finding Electron', () => {
  it('reports why when the package or its binary is missing, and the path when present', () => {
    const root = tempDir('sb-el-');
    expect(findElectronBinary(root, {}, 'linux')).toEqual({
      path: null,
      why: 'the electron package is not installed (run npm ci)',
    });
    const pkg = path.join(root, 'node_modules', 'electron');
    fs.mkdirSync(path.join(pkg, 'dist'), { recursive: true });
    fs.writeFileSync(path.join(pkg, 'package.json'), '{}');
    expect(findElectronBinary(root, {}, 'linux')).toMatchObject({
      path: null,
      why: expect.stringContaining('no Electron binary at'),
    });
    fs.writeFileSync(path.join(pkg, 'path.txt'), 'electron');
    fs.writeFileSync(path.join(pkg, 'dist', 'electron'), '');
    expect(findElectronBinary(root, {}, 'linux')).toEqual({ path: path.join(pkg, 'dist', 'electron') });
    expect(findElectronBinary(root, { ELECTRON_OVERRIDE_DIST_PATH: '/nowhere' }, 'linux').path).toBeNull();
  });

  it('needs a display on Linux only', () => {
    expect(hasDisplay({}, 'linux')).toBe(false);
    expect(hasDisplay({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBe(true);
    expect(hasDisplay({}, 'darwin')).toBe(true);
  });
});

describe('the start script without a display', () => {
  const env = (): NodeJS.ProcessEnv => {
    const e: NodeJS.ProcessEnv = { ...cliEnv(tempDirs()), SWITCHBOARD_NO_ELECTRON_DOWNLOAD: '1' };
    delete e.DISPLAY;
    delete e.WAYLAND_DISPLAY;
    return e;
  };

  it('--desktop fails fast with one clear message naming the headless command', () => {
    const r = spawnSync(process.execPath, [START, '--desktop'], { env: env(), encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Switchboard desktop cannot start: there is no display');
    expect(r.stderr).toContain('switchboard serve --ui');
  });

  it('plain start runs the same UI headless instead', async () => {
    const child = spawn(process.execPath, [START, '--port', '0'], {
      env: { ...env() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    try {
      await until(() => /User interface: http:\/\/127\.0\.0\.1:\d+\/#token=/.test(out));
      expect(err).toContain('Starting the same user interface headless');
    } finally {
      await stopProcess(child);
    }
  });
});
