// Offline packaging check: the electron-builder configuration validates
// against electron-builder's own schema, and packing against a stub Electron
// distribution yields an app.asar with the main, preload, renderer and CLI
// bundles and nothing from sources, tests, benches, maps or node_modules.
// (Fuses need a real Electron binary to flip: their settings are checked here,
// the flipping itself runs in the release workflow.)
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { listPackage } from '@electron/asar';
import { validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import { build, Platform, type Configuration } from 'electron-builder';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const loadCommonJs = createRequire(import.meta.url);
const config = loadCommonJs(path.join(ROOT, 'build', 'electron-builder.config.cjs')) as Configuration;

describe('electron-builder configuration', () => {
  it('validates, and an invalid one does not', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    await expect(
      validateConfiguration(
        { ...config, mac: { hardnedRuntime: true } } as unknown as Configuration,
        new DebugLogger(false),
      ),
    ).rejects.toThrow(/Invalid configuration object/);
  });

  it('flips the release fuses and targets every platform', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
      loadBrowserProcessSpecificV8Snapshot: false,
    });
    expect(config.mac).toMatchObject({
      target: ['dmg', 'zip'],
      hardenedRuntime: true,
      entitlements: 'build/entitlements.mac.plist',
    });
    expect(config.win).toMatchObject({ target: ['nsis'] });
    expect(config.linux).toMatchObject({ target: ['AppImage', 'deb'] });
    expect(fs.existsSync(path.join(ROOT, 'build', 'entitlements.mac.plist'))).toBe(true);
  });
});

describe('packing against a stub Electron', () => {
  let files: string[] = [];
  let out = '';
  beforeAll(async () => {
    for (const f of [
      'dist/electron/main.mjs',
      'dist/electron/preload.cjs',
      'dist/renderer/index.html',
      'dist/cli/switchboard.mjs',
    ])
      if (!fs.existsSync(path.join(ROOT, f)))
        throw new Error(`${f} is missing: run npm run build first (npm test does)`);
    const stub = tempDir('sb-electron-dist-');
    fs.writeFileSync(path.join(stub, 'electron'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    out = tempDir('sb-pack-');
    await build({
      projectDir: ROOT,
      targets: Platform.LINUX.createTarget('dir'),
      publish: 'never',
      config: {
        ...config,
        electronFuses: null,
        electronDist: stub,
        electronVersion: (loadCommonJs('electron/package.json') as { version: string }).version,
        directories: { ...config.directories, output: out },
      },
    });
    files = listPackage(path.join(out, 'linux-unpacked', 'resources', 'app.asar'), { isPack: false }).map((f) =>
      f.replaceAll('\\', '/'),
    );
  }, 120_000);

  it('holds the four bundles', () => {
    for (const f of [
      '/package.json',
      '/dist/electron/main.mjs',
      '/dist/electron/preload.cjs',
      '/dist/renderer/index.html',
      '/dist/cli/switchboard.mjs',
    ])
      expect(files).toContain(f);
    expect(files.some((f) => f.startsWith('/dist/renderer/assets/') && f.endsWith('.js'))).toBe(true);
    // The CLI is also a real file beside the archive, for the launcher Preferences installs.
    expect(
      fs.existsSync(
        path.join(out, 'linux-unpacked', 'resources', 'app.asar.unpacked', 'dist', 'cli', 'switchboard.mjs'),
      ),
    ).toBe(true);
  });

  it('holds nothing else', () => {
    const bad = files.filter(
      (f) =>
        /^\/(test|bench|core|cli|electron|preload|renderer|scripts|build|docs|node_modules)\//.test(f) ||
        f.endsWith('.map') ||
        f.endsWith('.ts') ||
        f.endsWith('.tsx'),
    );
    expect(bad).toEqual([]);
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { main: string };
    expect(pkg.main).toBe('dist/electron/main.mjs');
  });
});
