// Benchmark helpers: child processes, raw socket clients, percentiles, and what /proc says of a
// process (CPU, context switches, RSS/PSS/USS, its children).

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const CHILDREN = new URL('./children.mjs', import.meta.url).pathname;
/** BENCH_CLI: another build's CLI (an older commit, for A/B runs). */
export const CLI = process.env.BENCH_CLI ?? new URL('../../dist/cli/switchboard.mjs', import.meta.url).pathname; // from bench/.out/

export interface Child {
  proc: ChildProcess;
  socket: string;
  pid: number;
  /** The hub child's user-interface token (empty for the other children). */
  uiToken: string;
  stop(): Promise<void>;
}

const made: string[] = [];
// Benchmarks run in one process (bench/run.mjs); their directories go when it exits.
process.once('exit', () => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh `<tmp>/sbb-XXXXXX`, removed when the benchmark process exits. */
export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sbb-'));
  made.push(dir);
  return dir;
}

/** `script`: another build of children.ts (an older commit's hub, for A/B runs); BENCH_HUB_SCRIPT sets it for every hub. */
export async function startChild(
  args: string[],
  script = args[0] === 'hub' ? (process.env.BENCH_HUB_SCRIPT ?? CHILDREN) : CHILDREN,
): Promise<Child> {
  const flags = args[0] === 'hub' && process.env.BENCH_HUB_FLAGS ? process.env.BENCH_HUB_FLAGS.split(' ') : [];
  const proc = spawn(
    process.execPath,
    [
      ...flags,
      ...(process.env.BENCH_GC ? ['--expose-gc'] : []),
      ...(process.env.BENCH_PROF && args[0] === 'hub' ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROF] : []),
      script,
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const ready = await new Promise<{ ready: string; pid: number; uiToken?: string }>((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)) as { ready: string; pid: number; uiToken?: string });
    });
    proc.once('exit', (code) => reject(new Error(`child ${args[0]} exited ${code}`)));
  });
  return {
    proc,
    socket: ready.ready,
    pid: ready.pid,
    uiToken: ready.uiToken ?? '',
    stop: () =>
      new Promise<void>((r) => {
        proc.once('exit', () => r());
        proc.kill('SIGTERM');
      }),
  };
}

/**
 * A real `switchboard serve` (the bundled CLI, as users run it) in `dir`.
 * `liftThrottle`: the user settings lift the throttle, as the benchmark hub's do.
 */
export async function startServe(
  dir: string,
  liftThrottle = false,
  extraEnv: Record<string, string> = {},
): Promise<{ socket: string; pid: number; stop(): Promise<void> }> {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\``);
  if (liftThrottle) {
    fs.mkdirSync(path.join(dir, 'home'), { recursive: true, mode: 0o700 });
    fs.writeFileSync(
      path.join(dir, 'home', 'settings.json'),
      JSON.stringify({
        throttle: { bucketSize: 10_000, refillPerSecond: 10_000, queueFullAt: 100_000, duplicateWindowMs: 0 },
      }),
    );
  }
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    SWITCHBOARD_RUNTIME_DIR: path.join(dir, 'run'),
    SWITCHBOARD_HOME: path.join(dir, 'home'),
    CLAUDE_CONFIG_DIR: path.join(dir, 'claude'),
    ...extraEnv,
  };
  const proc = spawn(process.execPath, [CLI, 'serve', '--json', '--quiet'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await new Promise<{ socket: string; pid: number }>((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)) as { socket: string; pid: number });
    });
    proc.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
  return { ...ready, stop: () => new Promise<void>((r) => (proc.once('exit', () => r()), proc.kill('SIGTERM'))) };
}

/** A minimal NDJSON connection: write lines, get each response line in order. */
export class LineConn {
  readonly sock: net.Socket;
  #buf = '';
  #onLine: (line: string) => void = () => undefined;
  private constructor(sock: net.Socket) {
    this.sock = sock;
    sock.setEncoding('utf8');
    sock.on('data', (d: string) => {
      this.#buf += d;
      let i: number;
      while ((i = this.#buf.indexOf('\n')) >= 0) {
        const line = this.#buf.slice(0, i);
        this.#buf = this.#buf.slice(i + 1);
        this.#onLine(line);
      }
    });
  }
  static connect(socket: string): Promise<LineConn> {
    return new Promise((resolve, reject) => {
      const s = net.connect(socket, () => resolve(new LineConn(s)));
      s.once('error', reject);
    });
  }
  onLine(fn: (line: string) => void): void {
    this.#onLine = fn;
  }
  write(data: string): void {
    this.sock.write(data);
  }
  /** Sends one request and resolves with its response line. */
  request(line: string): Promise<string> {
    return new Promise((resolve) => {
      this.#onLine = resolve;
      this.sock.write(line + '\n');
    });
  }
  close(): void {
    this.sock.destroy();
  }
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** Proportional set size (shared pages divided among their users), in MB: what a process really adds. */
export function pssMb(pid: number): number {
  const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  return Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? NaN) / 1024;
}

/** Unique set size (pages no other process shares), in MB: a process's own growth, whoever else runs. */
export function ussMb(pid: number): number {
  const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? NaN);
  return (kb('Private_Clean') + kb('Private_Dirty')) / 1024;
}

/** CPU seconds (user + system) a process has used so far, from /proc (10 ms ticks). */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime (fields 14, 15)
}

/** An agent stand-in for stdio: runs its MCP server as a child wired to our stdio (`node -e STDIO_AGENT <cmd…>`). */
export const STDIO_AGENT = `const { spawn } = require('node:child_process');
const child = spawn(process.execPath, process.argv.slice(1), { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));`;
/** An agent stand-in for MCP over HTTP: runs the headers helper once, prints its headers and stays. */
export const HTTP_AGENT = `const { spawnSync } = require('node:child_process');
const r = spawnSync(process.execPath, process.argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
process.stdout.write(r.stdout);
setInterval(() => {}, 1 << 30);`;

/** Voluntary context switches of a process's main thread: its event loop going back to sleep (one wakeup each). */
export function voluntarySwitches(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? NaN);
}

/** Voluntary context switches of each of a process's threads, by thread id (Bun and Node run helper threads). */
export function threadSwitches(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      out.set(tid, voluntarySwitches(Number(tid)));
    } catch {
      // the thread ended while we read
    }
  }
  return out;
}

/** Switches between two threadSwitches() readings, over the threads present at both (a thread that ended drops out). */
export function switchesBetween(before: Map<string, number>, after: Map<string, number>): number {
  let n = 0;
  for (const [tid, v] of after) n += before.has(tid) ? v - before.get(tid)! : 0;
  return n;
}

/** The pids whose parent is `pid`. */
export function children(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** A loopback TCP port free at the time of asking. */
/** What stand-in agents in `dir` run with: the temp HOME and hub directories, MCP over HTTP on `port`. */
export function agentEnv(dir: string, port: number): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    SWITCHBOARD_RUNTIME_DIR: path.join(dir, 'run'),
    SWITCHBOARD_HOME: path.join(dir, 'home'),
    CLAUDE_CONFIG_DIR: path.join(dir, 'claude'),
    SWITCHBOARD_MCP_PORT: String(port),
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export function fmt(n: number, digits = 1): string {
  return n.toFixed(digits);
}

export async function rpc(
  conn: LineConn,
  id: number,
  method: string,
  params: unknown,
): Promise<Record<string, unknown>> {
  const res = JSON.parse(await conn.request(JSON.stringify({ jsonrpc: '2.0', id, method, params }))) as {
    result?: Record<string, unknown>;
    error?: unknown;
  };
  if (res.error) throw new Error(`${method}: ${JSON.stringify(res.error)}`);
  return res.result!;
}
