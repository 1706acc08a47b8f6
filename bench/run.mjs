// Builds the benchmarks with esbuild and runs them one after another.
// `npm run bench` (all) or `npm run bench -- latency` (one, e.g. storm).
import { build } from 'esbuild';

const all = [
  'latency',
  'throughput',
  'history',
  'memory',
  'teams',
  'hook',
  'relay',
  'files',
  'storm',
  'journal',
  'churn',
];
// Only when named: real agents (needs unshare, tmux, the pinned Claude Code; `npm run bench -- wake`);
// the in-process send path (`npm run bench -- sendpath`, an A/B tool with BENCH_BASE); the relay under faults
// (`npm run bench -- faults`: a truth table, minutes of broker pauses and restarts, not a speed); the idle cost
// (`npm run bench -- idle`: eight minutes of doing nothing, measured; BENCH_BASE_HUB for a before/after); a full disk
// during a burst (`npm run bench -- full-disk`: a truth table; needs root to mount a tmpfs).
const optional = ['wake', 'sendpath', 'faults', 'idle', 'full-disk', 'adapter'];
// Mail for a machine that is away (`npm run bench -- away`: a truth table across broker and hub restarts).
optional.push('away');
// Idle cost beside claude-peers-mcp (`npm run bench -- peers`: ~13 minutes; the peer's rows need BENCH_PEERS_DIR).
optional.push('peers');
const chosen = process.argv.slice(2).filter((a) => all.includes(a) || optional.includes(a));
const names = chosen.length > 0 ? chosen : all;
await build({
  entryPoints: ['bench/children.ts', 'test/helpers/team-worker.ts', ...names.map((n) => `bench/${n}.bench.ts`)],
  outdir: 'bench/.out',
  entryNames: '[name]',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  mainFields: ['module', 'main'], // jsonc-parser's CommonJS entry is UMD
  format: 'esm',
  target: 'node22',
  // Minified as the product's bundle (cli/build.mjs): unminified, the comments' few non-ASCII characters made the
  // whole 1.6 MB source a two-byte string (3 MB of heap the real `serve` does not have). BENCH_MINIFY=0 for profiles.
  minify: process.env.BENCH_MINIFY !== '0',
  legalComments: 'none',
  logLevel: 'warning',
  banner: {
    js: "import { createRequire as __sbRequire } from 'node:module'; const require = __sbRequire(import.meta.url);",
  },
});
console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} cores, ${new Date().toISOString()}`);
for (const name of names) {
  const mod = await import(new URL(`./.out/${name}.bench.mjs`, import.meta.url).href);
  await mod.run();
}
