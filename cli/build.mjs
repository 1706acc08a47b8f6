// Bundles the CLI: no node_modules needed at run time. Split into lazily
// loaded chunks so that a hook invocation (run on every tool call) parses
// only the little code it needs; `serve`, `mcp` and the rest load theirs on
// demand. See docs/decisions.md.
import { build } from 'esbuild';
import { readFileSync, chmodSync, rmSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';

/**
 * `import x from 'node:fs'` makes Node build an ES module facade of the
 * built-in, reading every export, lazy getters included (node:fs then loads
 * its streams): ~4 ms of a hook's start-up. Built-ins are taken with
 * `require` instead (the same objects); only plain value exports are named.
 */
const builtinsByRequire = {
  name: 'builtins-by-require',
  setup(b) {
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    const req = createRequire(import.meta.url);
    b.onResolve({ filter: /^[a-z:/_]+$/ }, (args) =>
      args.kind === 'import-statement' && builtins.has(args.path)
        ? { path: args.path, namespace: 'builtin' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => {
      const mod = req(args.path);
      const names = Object.keys(mod).filter(
        (k) =>
          /^[A-Za-z_$][\w$]*$/.test(k) && k !== 'default' && 'value' in (Object.getOwnPropertyDescriptor(mod, k) ?? {}),
      );
      const lines = [
        `const m = require(${JSON.stringify(args.path)});`,
        'export default m;',
        ...names.map((n) => `export const ${n} = m.${n};`),
      ];
      return { contents: lines.join('\n'), loader: 'js' };
    });
  },
};

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
  banner: {
    js: "import { createRequire as __sbRequire } from 'node:module'; const require = __sbRequire(import.meta.url);",
  },
  define: { SWITCHBOARD_VERSION: JSON.stringify(pkg.version) },
  legalComments: 'none',
  plugins: [builtinsByRequire],
  logLevel: 'warning',
});
// The shebang goes on the entry only (chunks are imported, never executed).
const entry = 'dist/cli/switchboard.mjs';
const { writeFileSync } = await import('node:fs');
writeFileSync(entry, '#!/usr/bin/env node\n' + readFileSync(entry, 'utf8'));
chmodSync(entry, 0o755);

// The command hooks' own entry: one CommonJS file with only the hook path
// (cli/hook-bin.ts), so a hook does not start Node's ES module loader nor
// the CLI dispatcher. import.meta.url (createRequire in lazy loads) becomes
// the file's own URL.
await build({
  entryPoints: ['cli/hook-bin.ts'],
  outfile: 'dist/cli/switchboard-hook.cjs', // core/setup/agents.ts HOOK_ENTRY
  bundle: true,
  platform: 'node',
  mainFields: ['module', 'main'],
  format: 'cjs',
  target: 'node22',
  minify: true,
  banner: { js: "const __sbUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: { SWITCHBOARD_VERSION: JSON.stringify(pkg.version), 'import.meta.url': '__sbUrl' },
  legalComments: 'none',
  logLevel: 'warning',
});

// The OpenCode plugin (cli/opencode/plugin.ts): one ES module OpenCode
// imports into its own process (Bun). Self-contained; its only export is
// the plugin (OpenCode takes every export as one).
await build({
  entryPoints: ['cli/opencode/plugin.ts'],
  outfile: 'dist/cli/switchboard-opencode.mjs', // core/setup/opencode.ts OPENCODE_PLUGIN
  bundle: true,
  platform: 'node',
  mainFields: ['module', 'main'],
  format: 'esm',
  target: 'node22',
  minify: true,
  banner: {
    js: "import { createRequire as __sbRequire } from 'node:module'; const require = __sbRequire(import.meta.url);",
  },
  define: { SWITCHBOARD_VERSION: JSON.stringify(pkg.version) },
  legalComments: 'none',
  logLevel: 'warning',
});
