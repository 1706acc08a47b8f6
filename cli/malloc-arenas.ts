// The hub's process with few malloc arenas. glibc gives each thread that
// allocates its own arena (up to 8 per core) and keeps what a burst freed in
// them; the hub's threads (V8's collector and compiler helpers, libuv's
// pool) held 8–10 MB that way after 50 000 queued messages. `serve` therefore
// re-executes itself once, in place (same pid, same stdio, nothing read yet),
// with MALLOC_ARENA_MAX=2, unless the user set it. Linux only (glibc reads
// the variable at start; musl ignores it); where process.execve is missing
// (Node < 22.15) it runs as it is. The same re-execution turns off V8's
// memory reducer (`--no-memory-reducer`): after any allocation it woke the
// idle hub every ~8 s (0.12 wakeups/s, measured with strace, more than the
// rest of the idle hub together); the hub gives memory back after a burst
// itself (core/kit/reclaim.ts).

const ARENAS = '2';
export const QUIET_HEAP = '--no-memory-reducer';

export interface ExecvePort {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  execPath: string;
  execArgv: readonly string[];
  argv: readonly string[];
  execve?: (file: string, args: readonly string[], env: NodeJS.ProcessEnv) => never;
}

/** Re-executes this process with MALLOC_ARENA_MAX and QUIET_HEAP set (it never returns then); otherwise does nothing. */
export function withFewMallocArenas(p: ExecvePort = process): void {
  if (p.platform !== 'linux' || typeof p.execve !== 'function') return;
  const arenas = p.env.MALLOC_ARENA_MAX === undefined;
  const quiet = !p.execArgv.includes(QUIET_HEAP);
  if (!arenas && !quiet) return;
  const env = arenas ? { ...p.env, MALLOC_ARENA_MAX: ARENAS } : p.env;
  p.execve(p.execPath, [p.execPath, ...(quiet ? [QUIET_HEAP] : []), ...p.execArgv, ...p.argv.slice(1)], env);
}
