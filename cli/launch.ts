// What the `switchboard` process does once bin.ts has found its Node new
// enough: `serve` first re-executes itself with few malloc arenas
// (malloc-arenas.ts); then it turns on Node's compile cache (a hook runs on
// every tool call; the cache skips re-compiling the chunks it loads), then
// runs main() and exits with its code. The cache lives in the user's own
// 0700 cache directory, never in a shared /tmp where another user could plant
// code caches. process.argv[1] becomes the bundle's real path first: npm
// installs `switchboard` as a symbolic link in its bin directory, and the
// commands find what ships beside the bundle (the user interface for
// `serve --ui`, the hook entry `setup` writes) from that path.
import fs from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { withFewMallocArenas } from './malloc-arenas.js';

/** The bundle's own path, links resolved (npm's bin/switchboard is a link to it). */
function resolveOwnPath(): void {
  const script = process.argv[1];
  if (script === undefined) return;
  try {
    process.argv[1] = fs.realpathSync(script);
  } catch {
    // Left as it is: a path that cannot be resolved is still the one Node ran.
  }
}

function enableCompileCache(): void {
  if (process.env.SWITCHBOARD_NO_COMPILE_CACHE === '1' || typeof module.enableCompileCache !== 'function') return;
  try {
    const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
    const dir = path.join(base, 'switchboard', 'node-compile-cache');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.lstatSync(dir);
    if (
      !st.isDirectory() ||
      (typeof process.getuid === 'function' && st.uid !== process.getuid()) ||
      (st.mode & 0o077) !== 0
    )
      return;
    module.enableCompileCache(dir);
  } catch {
    // No cache is only slower.
  }
}

resolveOwnPath();

// The hub runs for days: it re-executes itself once with few malloc arenas (malloc-arenas.ts) before anything else.
const serving = process.argv.slice(2).find((a) => !a.startsWith('-')) === 'serve';
if (serving) withFewMallocArenas();

enableCompileCache();

// A reader that went away (`switchboard agents | head`) is not an error. The hub outlives the
// readers of its output: what it would have printed is lost, nothing else (a failed write to
// stderr was an uncaught error at its next stop: exit 70 after the fatal timeout).
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (serving) return;
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});
if (serving) process.stderr.on('error', () => undefined);

const { main } = await import('./main.js');
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`switchboard: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
