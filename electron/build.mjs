// Bundles the desktop main process (ESM, dist/electron/main.mjs) and the
// preload (CommonJS, dist/electron/preload.cjs: sandboxed preloads cannot
// load ES modules), with electron left external, and copies the tray
// icons beside them. No node_modules are needed at run time, so the
// packaged app.asar holds only dist/ (see build/electron-builder.config.cjs).
import { build } from 'esbuild';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync('dist/electron', { recursive: true, force: true });
const common = {
  bundle: true,
  platform: 'node',
  target: 'es2020',
  external: ['electron'],
  legalComments: 'none',
  logLevel: 'warning',
  minify: false,
  mainFields: ['module', 'main'],
};
await build({
  ...common,
  entryPoints: { main: 'electron/main.ts' },
  outdir: 'dist/electron',
  outExtension: { '.js': '.mjs' },
  format: 'esm',
  // proper-lockfile and conf's dependencies are CommonJS and require Node built-ins at run time.
  banner: {
    js: "import { createRequire as __sbRequire } from 'node:module'; const require = __sbRequire(import.meta.url);",
  },
  define: { SWITCHBOARD_VERSION: JSON.stringify(pkg.version) },
});
await build({
  ...common,
  entryPoints: { preload: 'preload/index.ts' },
  outdir: 'dist/electron',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
});
mkdirSync('dist/electron/icons', { recursive: true });
for (const f of [
  'tray.png',
  'trayTemplate.png',
  'trayTemplate@2x.png',
  'trayAlert.png',
  'trayAlertTemplate.png',
  'trayAlertTemplate@2x.png',
])
  cpSync(`build/icons/${f}`, `dist/electron/icons/${f}`);
