// Idle cost beside the peer, in one run: at 0, 10 and 100 idle stand-in
// sessions (BENCH_PEERS_COUNTS), our `switchboard serve` with a stdio adapter
// per session (`switchboard mcp` under a node stand-in agent, as the adapter
// benchmark) and with MCP over HTTP (no process of ours per session), and
// claude-peers-mcp's broker with a `bun server.ts` per session
// (bench/peers-setup.ts; skipped, with the reason, without BENCH_PEERS_DIR).
// Each row starts fresh in its own temp dir, every session in its own project
// folder, one tool call made; after 20 s of settling, every process of the
// row is measured over the same window (BENCH_IDLE_MS, default 60 s): CPU ms
// per minute (utime+stime, all threads, 10 ms ticks), wakeups per second
// (voluntary context switches of the main thread, as the idle benchmark
// counts them, and summed over all threads), RSS, PSS and USS at the end.
// Printed: each row, the whole row's sums, and ours/peer ratios of the sums.
// Linux only (/proc).

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ADAPTER_NODE_FLAGS } from '../core/setup/mcp-entry.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  children,
  CLI,
  cpuSeconds,
  fmt,
  freePort,
  HTTP_AGENT,
  LineConn,
  pssMb,
  rpc,
  rssMb,
  startServe,
  STDIO_AGENT,
  switchesBetween,
  tempDir,
  threadSwitches,
  ussMb,
  voluntarySwitches,
  agentEnv,
} from './lib.js';
import { BUN_VERSION, bunBinary, peersCheckout, startPeers, stopChild, type Running } from './peers-setup.js';

const WINDOW_MS = Number(process.env.BENCH_IDLE_MS ?? 60_000);
/** Start-up settles first: our hub's one-second reclaim ticks after activity (15 s), the peer's first heartbeat. */
const SETTLE_MS = Number(process.env.BENCH_PEERS_SETTLE_MS ?? 20_000);
const COUNTS = (process.env.BENCH_PEERS_COUNTS ?? '0,10,100').split(',').map(Number);

interface Proc {
  cpu: number;
  wakeMain: number;
  wakeAll: number;
  rss: number;
  pss: number;
  uss: number;
}
interface Row {
  system: string;
  n: number;
  load: number;
  hub: Proc;
  adapters: Proc[];
}

/** Every pid over the same window, after the settle. */
async function measure(pids: number[]): Promise<Proc[]> {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const before = pids.map((p) => ({ cpu: cpuSeconds(p), main: voluntarySwitches(p), all: threadSwitches(p) }));
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, WINDOW_MS));
  const ms = performance.now() - t0;
  return pids.map((p, i) => ({
    cpu: ((cpuSeconds(p) - before[i]!.cpu) * 1000 * 60_000) / ms,
    wakeMain: ((voluntarySwitches(p) - before[i]!.main) * 1000) / ms,
    wakeAll: (switchesBetween(before[i]!.all, threadSwitches(p)) * 1000) / ms,
    rss: rssMb(p),
    pss: pssMb(p),
    uss: ussMb(p),
  }));
}

/** Our `serve` and `n` idle sessions over `transport` in `dir`; `log`: the processes' stderr. */
async function startOurs(n: number, transport: 'stdio' | 'http', dir: string, log: number): Promise<Running> {
  const port = await freePort();
  const env = agentEnv(dir, port);
  const hub = await startServe(dir, false, { SWITCHBOARD_MCP_PORT: String(port) });
  const clients: Client[] = [];
  const agents: ChildProcess[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await Promise.all(agents.map(stopChild));
    await hub.stop();
  };
  try {
    for (let i = 0; i < n; i++) {
      const cwd = path.join(dir, `project-${i}`);
      fs.mkdirSync(cwd);
      const args = ['mcp', '--agent', 'claude', '--mode', 'default', '--name', `s${i}`];
      const c = new Client({ name: 'bench', version: '1' });
      if (transport === 'stdio') {
        const t = new StdioClientTransport({
          command: process.execPath,
          args: ['-e', STDIO_AGENT, '--', ...ADAPTER_NODE_FLAGS, CLI, ...args], // as setup writes it
          env,
          cwd,
          stderr: log,
        });
        await c.connect(t);
      } else {
        const agent = spawn(process.execPath, ['-e', HTTP_AGENT, CLI, ...args, '--print-headers'], {
          env,
          cwd,
          stdio: ['ignore', 'pipe', log],
        });
        agents.push(agent);
        let out = '';
        await new Promise<void>((resolve, reject) => {
          agent.stdout!.on('data', (d: Buffer) => ((out += d.toString()), out.trim().endsWith('}') && resolve()));
          agent.once('exit', (code) => reject(new Error(`the headers helper's agent exited ${code}`)));
        });
        const headers = JSON.parse(out) as Record<string, string>;
        await c.connect(
          new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers } }),
        );
      }
      clients.push(c);
      await c.callTool({ name: 'switchboard_list_peers', arguments: {} });
    }
    const conn = await LineConn.connect(hub.socket);
    const listed = (await rpc(conn, 1, 'hub.info', {})).sessions;
    conn.close();
    if (listed !== n) throw new Error(`serve lists ${String(listed)} sessions, expected ${n}`);
    const adapterPids =
      transport === 'stdio' ? clients.flatMap((c) => children((c.transport as StdioClientTransport).pid!)) : [];
    if (transport === 'stdio' && adapterPids.length !== n)
      throw new Error(`found ${adapterPids.length} stdio adapters, expected ${n}`);
    return { hubPid: hub.pid, adapterPids, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Every child the row started gone (the SDK's close does not wait for a process it had to SIGKILL): 10 s at most. */
async function noneLeft(what: string, before: number[]): Promise<void> {
  const left = (): number[] => children(process.pid).filter((p) => !before.includes(p));
  for (let i = 0; left().length > 0; i++) {
    if (i === 100) throw new Error(`processes left after ${what}: ${left().join(' ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function row(system: string, n: number, start: (dir: string, log: number) => Promise<Running>): Promise<Row> {
  const before = children(process.pid); // esbuild's service, from bench/run.mjs
  const dir = tempDir();
  const logFile = path.join(dir, 'stderr.log');
  const log = fs.openSync(logFile, 'a');
  try {
    const running = await start(dir, log);
    try {
      const [hub, ...adapters] = await measure([running.hubPid, ...running.adapterPids]);
      return { system, n, load: os.loadavg()[0]!, hub: hub!, adapters };
    } finally {
      await running.stop();
    }
  } catch (e) {
    console.error(
      `${system}, ${n} sessions failed; its stderr ends:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`,
    );
    throw e;
  } finally {
    fs.closeSync(log);
    await noneLeft(`${system}, ${n} sessions`, before);
  }
}

const sum = (r: Row, k: keyof Proc): number => r.hub[k] + r.adapters.reduce((a, p) => a + p[k], 0);
const mean = (r: Row, k: keyof Proc): number => r.adapters.reduce((a, p) => a + p[k], 0) / r.adapters.length;
const f = (x: number, digits = 1): string => (Number.isFinite(x) ? fmt(x, digits) : '–');

function line(r: Row): string {
  const h = r.hub;
  const a = r.adapters.length > 0;
  return `| ${r.system} | ${r.n} | ${f(r.load, 2)} | ${f(h.cpu, 0)} | ${f(h.wakeMain, 2)} / ${f(h.wakeAll, 2)} | ${f(h.rss)} / ${f(h.pss)} / ${f(h.uss)} | ${r.adapters.length} | ${a ? f(mean(r, 'cpu'), 0) : '–'} | ${a ? `${f(mean(r, 'wakeMain'), 2)} / ${f(mean(r, 'wakeAll'), 2)}` : '–'} | ${a ? `${f(mean(r, 'rss'))} / ${f(mean(r, 'pss'))}` : '–'} | ${f(sum(r, 'cpu'), 0)} | ${f(sum(r, 'wakeAll'), 2)} | ${f(sum(r, 'pss'))} |`;
}

/** ours/peer; a zero of ours reads as below the window's resolution `res` (one tick, one switch). */
function ratio(ours: number, peer: number, res: number): string {
  if (!(peer > 0)) return 'n/a';
  const x = (ours > 0 ? ours : res) / peer;
  return `${ours > 0 ? '' : '< '}${fmt(x, x < 0.1 ? 3 : 2)}×`;
}

export async function run(): Promise<void> {
  const bun = bunBinary();
  const checkout = 'path' in bun ? peersCheckout(bun.path) : bun;
  const peers = 'path' in bun && 'dir' in checkout ? { bun: bun.path, dir: checkout.dir } : undefined;
  console.log(`\npeers: idle cost beside claude-peers-mcp, ${WINDOW_MS / 1000} s per row after ${SETTLE_MS / 1000} s`);
  if (peers !== undefined && 'note' in checkout)
    console.log(`peer: ${checkout.dir} (${checkout.note}), Bun ${'version' in bun ? bun.version : BUN_VERSION}`);
  else console.log(`peer rows skipped: ${'why' in checkout ? checkout.why : ''}; measuring ours alone`);
  console.log(
    '| system | sessions | load | hub CPU ms/min | hub wakeups/s main / all threads | hub RSS / PSS / USS MB | adapters | adapter CPU ms/min | adapter wakeups/s main / all | adapter RSS / PSS MB | all: CPU ms/min | all: wakeups/s | all: PSS MB |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  const rows: Row[] = [];
  const add = (r: Row): void => (rows.push(r), console.log(line(r)));
  for (const n of COUNTS) {
    if (peers !== undefined)
      add(await row('claude-peers', n, (dir, log) => startPeers(n, peers.bun, peers.dir, dir, log)));
    add(await row(n > 0 ? 'switchboard, stdio' : 'switchboard', n, (dir, log) => startOurs(n, 'stdio', dir, log)));
    if (n > 0) add(await row('switchboard, HTTP', n, (dir, log) => startOurs(n, 'http', dir, log)));
  }
  if (peers === undefined) return;
  console.log('\nours / peer, the whole row (hub + adapters): CPU, wakeups (all threads), PSS');
  for (const n of COUNTS) {
    const peer = rows.find((r) => r.system === 'claude-peers' && r.n === n)!;
    for (const ours of rows.filter((r) => r.system.startsWith('switchboard') && r.n === n)) {
      const [tick, one] = [(10 * 60_000) / WINDOW_MS, 1000 / WINDOW_MS]; // one CPU tick, one switch in the window
      const of = (k: keyof Proc, res: number): string => ratio(sum(ours, k), sum(peer, k), res);
      console.log(
        `  ${String(n).padStart(3)} sessions, ${ours.system.padEnd(18)} CPU ${of('cpu', tick)}, wakeups ${of('wakeAll', one)} (main threads ${of('wakeMain', one)}), PSS ${of('pss', 0)}`,
      );
    }
  }
}
