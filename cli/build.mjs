// Bundles the CLI: no node_modules needed at run time. Split into lazily
// loaded chunks so that a hook invocation (run on every tool call) parses
// only the little code it needs; `serve`, `mcp` and the rest load theirs on
// demand. See docs/decisions.md.
import { build } from 'esbuild';
import { readFileSync, chmodSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync('dist/cli', { recursive: true, force: true });
await build({
  entryPoints: { switchboard: 'cli/bin.ts' },
  outdir: 'dist/cli',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  // jsonc-parser's CommonJS entry is UMD with run-time requires a bundle cannot follow; take ESM builds first.
  mainFields: ['module', 'main'],
  format: 'esm',
  target: 'node22',
  minify: true,
  // proper-lockfile is CommonJS and requires Node built-ins at run time.
  banner: { js: "import { createRequire as __sbRequire } from 'node:module'; const require = __sbRequire(import.meta.url);" },
  define: { SWITCHBOARD_VERSION: JSON.stringify(pkg.version) },
  legalComments: 'none',
  logLevel: 'warning',
});
// The shebang goes on the entry only (chunks are imported, never executed).
const entry = 'dist/cli/switchboard.mjs';
const { writeFileSync } = await import('node:fs');
writeFileSync(entry, '#!/usr/bin/env node\n' + readFileSync(entry, 'utf8'));
chmodSync(entry, 0o755);
