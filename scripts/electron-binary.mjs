// Finds the Electron binary without importing the `electron` package
// (importing it under plain Node starts a download). Shared by
// scripts/start.mjs and the Playwright _electron test.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const EXE = { darwin: 'Electron.app/Contents/MacOS/Electron', win32: 'electron.exe' };

/** @returns {{ path: string } | { path: null, why: string }} */
export function findElectronBinary(root = process.cwd(), env = process.env, platform = process.platform) {
  const pkgDir = path.join(root, 'node_modules', 'electron');
  if (!existsSync(path.join(pkgDir, 'package.json')))
    return { path: null, why: 'the electron package is not installed (run npm ci)' };
  const pathFile = path.join(pkgDir, 'path.txt');
  const rel = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : (EXE[platform] ?? 'electron');
  const full = env.ELECTRON_OVERRIDE_DIST_PATH
    ? path.join(env.ELECTRON_OVERRIDE_DIST_PATH, rel)
    : path.join(pkgDir, 'dist', rel);
  return existsSync(full)
    ? { path: full }
    : {
        path: null,
        why: `no Electron binary at ${full} (Electron downloads it on first launch; this machine could not)`,
      };
}

/** Whether a desktop session is there to show windows in. */
export function hasDisplay(env = process.env, platform = process.platform) {
  return platform !== 'linux' || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}
