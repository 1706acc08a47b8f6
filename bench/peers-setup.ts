// The peer the `peers` benchmark measures beside ours: claude-peers-mcp
// (github.com/louislva/claude-peers-mcp, MIT). Its code is not in this
// repository and never will be (it is not on npm; we keep no code we did not
// write): the benchmark reads a checkout from BENCH_PEERS_DIR, says whether
// its broker.ts and server.ts are the ones at PEERS_COMMIT, and installs the
// checkout's locked dependencies with Bun when they are missing. Bun comes
// from the npm registry, a pinned build fetched once into the toolchain cache
// (scripts/toolchain.mjs cachedPackage, as Node is; BENCH_BUN=<path> uses another).
// One row of the peer: its broker, started by us on a free loopback port with
// its database and HOME in a temp dir, and N stand-in sessions, each a
// `bun server.ts` child the benchmark talks MCP to over stdio (the benchmark
// is the agent), one `list_peers` call made, the broker's /health checked.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cachedPackage } from '../scripts/toolchain.mjs';
import { freePort } from './lib.js';

/** The peer's commit the figures in docs/benchmarks.md#peers were measured at, and its two programs' git blobs. */
export const PEERS_COMMIT = '640183fa7048443bf0a6592de45579e813df4587';
const BLOBS: Record<string, string> = {
  'broker.ts': 'cbd61ff5a454a455035cbf4553ca559195a3e7ca',
  'server.ts': '2e3869b3af75f4f55ee46f4f41aa560c031b5ab0',
};
/** Bun from the npm registry, an exact version. */
export const BUN_VERSION = '1.4.5';

/** The pinned Bun (the `-baseline` build on CPUs without AVX2), fetched with `npm pack` into the cache once. */
export function bunBinary(): { path: string; version: string } | { why: string } {
  const own = process.env.BENCH_BUN;
  if (own !== undefined) return { path: own, version: execFileSync(own, ['--version'], { encoding: 'utf8' }).trim() };
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return { why: `no pinned Bun for ${process.platform}-${process.arch} (set BENCH_BUN)` };
  const baseline = !/\bavx2\b/.test(fs.readFileSync('/proc/cpuinfo', 'utf8'));
  const pkg = `@oven/bun-linux-x64${baseline ? '-baseline' : ''}@${BUN_VERSION}`;
  const got = cachedPackage(pkg, `bun-${baseline ? 'baseline-' : ''}${BUN_VERSION}`, 'package/bin/bun');
  return 'why' in got ? got : { path: got.path, version: BUN_VERSION };
}

function gitBlob(file: string): string {
  const body = fs.readFileSync(file);
  return createHash('sha1').update(`blob ${body.length}\0`).update(body).digest('hex');
}

/** BENCH_PEERS_DIR checked and its dependencies installed (`bun install --frozen-lockfile`), or why not. */
export function peersCheckout(bun: string): { dir: string; note: string } | { why: string } {
  const dir = process.env.BENCH_PEERS_DIR;
  if (dir === undefined || dir === '') return { why: 'BENCH_PEERS_DIR is not set' };
  for (const f of ['broker.ts', 'server.ts', 'bun.lock'])
    if (!fs.existsSync(path.join(dir, f))) return { why: `${dir} has no ${f}: not a claude-peers-mcp checkout` };
  if (!fs.existsSync(path.join(dir, 'node_modules', '@modelcontextprotocol', 'sdk')))
    execFileSync(bun, ['install', '--frozen-lockfile', '--production'], {
      cwd: dir,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, PATH: `${path.dirname(bun)}:${process.env.PATH ?? ''}` },
    });
  const differ = Object.keys(BLOBS).filter((f) => gitBlob(path.join(dir, f)) !== BLOBS[f]);
  const at = PEERS_COMMIT.slice(0, 7);
  return {
    dir,
    note:
      differ.length === 0
        ? `broker.ts and server.ts as at ${at}`
        : `${differ.join(' and ')} NOT as at ${at}: the figures are not comparable with docs/benchmarks.md`,
  };
}

/** One system's processes for a row: the hub (or broker) and the per-session adapters. */
export interface Running {
  hubPid: number;
  adapterPids: number[];
  stop(): Promise<void>;
}

/** Ends a child with SIGTERM (SIGKILL after 5 s) and waits for it. */
export function stopChild(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    const t = setTimeout(() => proc.kill('SIGKILL'), 5000);
    proc.once('exit', () => (clearTimeout(t), resolve()));
    proc.kill('SIGTERM');
  });
}

async function health(port: number): Promise<{ peers: number } | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    return res.ok ? ((await res.json()) as { peers: number }) : undefined;
  } catch {
    return undefined;
  }
}

/** The peer's broker and `n` idle `bun server.ts` sessions in `dir` (a fresh temp dir); `log`: their stderr. */
export async function startPeers(n: number, bun: string, checkout: string, dir: string, log: number): Promise<Running> {
  const port = await freePort();
  // Bun first on PATH (server.ts would spawn `bun broker.ts` if ours were gone); git and ps from the system.
  const env = {
    PATH: `${path.dirname(bun)}:/usr/bin:/bin`,
    HOME: dir,
    CLAUDE_PEERS_PORT: String(port),
    CLAUDE_PEERS_DB: path.join(dir, 'peers.db'),
  };
  const broker = spawn(bun, [path.join(checkout, 'broker.ts')], { env, cwd: dir, stdio: ['ignore', 'ignore', log] });
  const clients: Client[] = [];
  const stop = async (): Promise<void> => {
    // Each server unregisters on SIGTERM, which the SDK sends 2 s after closing its stdin: all at once.
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await stopChild(broker);
  };
  try {
    // The broker says nothing when it is ready: ask until it answers (10 s at most).
    for (let i = 0; (await health(port)) === undefined; i++) {
      if (i > 100 || broker.exitCode !== null) throw new Error('the peer broker did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    for (let i = 0; i < n; i++) {
      const cwd = path.join(dir, `project-${i}`);
      fs.mkdirSync(cwd);
      const transport = new StdioClientTransport({
        command: bun,
        args: [path.join(checkout, 'server.ts')],
        env,
        cwd,
        stderr: log,
      });
      const c = new Client({ name: 'bench', version: '1' });
      await c.connect(transport);
      clients.push(c);
      await c.callTool({ name: 'list_peers', arguments: { scope: 'machine' } });
    }
    const listed = (await health(port))?.peers;
    if (listed !== n) throw new Error(`the peer broker lists ${listed} peers, expected ${n}`);
    return {
      hubPid: broker.pid!,
      adapterPids: clients.map((c) => (c.transport as StdioClientTransport).pid!),
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
