// Bundles the CLI into one ESM file: nothing to resolve at start (hooks run
// on every tool call), no dependency on node_modules at run time.
import { build } from 'esbuild';
import { readFileSync, chmodSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const outfile = 'dist/cli/switchboard.mjs';
await build({
  entryPoints: ['cli/bin.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // proper-lockfile is CommonJS and requires Node built-ins at run time.
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __sbRequire } from 'node:module'; const require = __sbRequire(import.meta.url);" },
  define: { SWITCHBOARD_VERSION: JSON.stringify(pkg.version) },
  legalComments: 'none',
  logLevel: 'warning',
});
chmodSync(outfile, 0o755);
