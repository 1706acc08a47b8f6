// `npm start`: the desktop app where it can run, else the same UI headless.
// `npm run desktop` (--desktop): the desktop app or one clear failure.
// Electron fetches its binary on first launch; where that is impossible
// (offline machines, no display) this says so and how to run headless.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { findElectronBinary, hasDisplay } from './electron-binary.mjs';

const desktopOnly = process.argv.includes('--desktop');
/** Passed on to `serve --ui` when it runs headless (e.g. `npm start -- --port 0`). */
const serveArgs = process.argv.slice(2).filter((a) => a !== '--desktop');
const root = path.resolve(import.meta.dirname, '..');
const HEADLESS = 'node dist/cli/switchboard.mjs serve --ui   (or: switchboard serve --ui)';

function electronBinary() {
  let found = findElectronBinary(root);
  if (
    found.path === null &&
    existsSync(path.join(root, 'node_modules', 'electron', 'install.js')) &&
    process.env.SWITCHBOARD_NO_ELECTRON_DOWNLOAD !== '1'
  ) {
    console.error('Fetching the Electron binary (first launch)…');
    const r = spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron', 'install.js')], {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 180_000,
    });
    found = findElectronBinary(root);
    if (found.path === null)
      return {
        path: null,
        why: `the Electron binary could not be downloaded (${(r.stderr?.toString() ?? '').split('\n').find((l) => l.trim()) ?? `exit ${r.status}`})`,
      };
  }
  return found;
}

function run(cmd, args) {
  const child = spawn(cmd, args, { stdio: 'inherit', cwd: root });
  // The stop signals reach the app or hub (core/kit/signals.ts): this wrapper never exits before it.
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const why = hasDisplay() ? null : 'there is no display (DISPLAY/WAYLAND_DISPLAY unset)';
const bin = why === null ? electronBinary() : { path: null, why };
if (bin.path !== null) {
  run(bin.path, [root, '--show']);
} else if (desktopOnly) {
  console.error(
    `Switchboard desktop cannot start: ${bin.why}.\nRun the same user interface headless instead:\n  ${HEADLESS}`,
  );
  process.exit(1);
} else {
  console.error(
    `Switchboard desktop cannot start here: ${bin.why}.\nStarting the same user interface headless: ${HEADLESS}\n`,
  );
  run(process.execPath, [path.join(root, 'dist', 'cli', 'switchboard.mjs'), 'serve', '--ui', ...serveArgs]);
}
