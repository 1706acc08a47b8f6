// What each agent session carries of ours, stdio against HTTP, in one run:
// N agents (BENCH_ADAPTER_N, default 10), each a live node process as the
// agent, connected with the MCP SDK's own client and one tool call made,
// then left idle. stdio (the baseline): each agent runs `switchboard mcp`,
// counted and measured (PSS, RSS). HTTP: each agent ran `switchboard mcp
// --print-headers` once, as Claude Code's headersHelper does, and talks to
// the hub's endpoint: counted the same way, and the hub's own PSS growth
// per session measured (its unshared pages: PSS would fall as the stdio
// adapters share node's pages with it). Linux only (/proc).

import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ADAPTER_NODE_FLAGS } from '../core/setup/mcp-entry.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  children,
  CLI,
  fmt,
  freePort,
  HTTP_AGENT,
  pssMb,
  rssMb,
  startServe,
  STDIO_AGENT,
  tempDir,
  ussMb,
  agentEnv,
} from './lib.js';

const N = Number(process.env.BENCH_ADAPTER_N ?? 10);
const SETTLE_MS = 3000;

interface Row {
  processes: number;
  pss: number;
  rss: number;
  /** The hub's own (unshared) memory growth. */
  hubGrowth: number;
}

async function measureOurs(agentPids: number[], hubPid: number, hubBefore: number): Promise<Row> {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const ours = agentPids.flatMap(children);
  return {
    processes: ours.length,
    pss: ours.reduce((a, p) => a + pssMb(p), 0),
    rss: ours.reduce((a, p) => a + rssMb(p), 0),
    hubGrowth: ussMb(hubPid) - hubBefore,
  };
}

export async function run(): Promise<void> {
  const dir = tempDir();
  const port = await freePort();
  const env = agentEnv(dir, port);
  const hub = await startServe(dir, false, { SWITCHBOARD_MCP_PORT: String(port) });
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const clients: Client[] = [];
  const agents: ChildProcess[] = [];
  const rows: Record<string, Row> = {};
  try {
    // stdio, the baseline
    let before = ussMb(hub.pid);
    for (let i = 0; i < N; i++) {
      const t = new StdioClientTransport({
        command: process.execPath,
        args: [
          '-e',
          STDIO_AGENT,
          '--', // what follows is the stand-in's argv, flags included (node would take them for itself)
          ...ADAPTER_NODE_FLAGS,
          CLI,
          'mcp',
          '--agent',
          'claude',
          '--mode',
          'default',
          '--name',
          `s${i}`,
        ],
        env,
        cwd: dir,
      });
      const c = new Client({ name: 'bench', version: '1' });
      await c.connect(t);
      await c.callTool({ name: 'switchboard_list_peers', arguments: {} });
      clients.push(c);
    }
    const stdioAgents = clients.map((c) => (c.transport as StdioClientTransport).pid!);
    rows.stdio = await measureOurs(stdioAgents, hub.pid, before);
    for (const c of clients.splice(0)) await c.close();
    await new Promise((r) => setTimeout(r, SETTLE_MS));

    // HTTP
    before = ussMb(hub.pid);
    const pids: number[] = [];
    for (let i = 0; i < N; i++) {
      const a = spawn(
        process.execPath,
        ['-e', HTTP_AGENT, CLI, 'mcp', '--print-headers', '--agent', 'claude', '--mode', 'default', '--name', `h${i}`],
        { env, cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      agents.push(a);
      let out = '';
      await new Promise<void>((resolve) =>
        a.stdout.on('data', (d: Buffer) => ((out += d.toString()), out.trim().endsWith('}') && resolve())),
      );
      const c = new Client({ name: 'bench', version: '1' });
      await c.connect(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
          requestInit: { headers: JSON.parse(out) as Record<string, string> },
        }),
      );
      await c.callTool({ name: 'switchboard_list_peers', arguments: {} });
      clients.push(c);
      pids.push(a.pid!);
    }
    rows.http = await measureOurs(pids, hub.pid, before);
  } finally {
    for (const c of clients) await c.close().catch(() => undefined);
    for (const a of agents) a.kill('SIGKILL');
    await hub.stop();
  }
  const s = rows.stdio;
  const h = rows.http;
  console.log(`\nadapter: what ${N} idle agent sessions carry of ours (stdio is the baseline, same run)`);
  console.log(
    '| transport | processes per session | PSS per session (MB) | RSS per session (MB) | hub growth per session (USS, MB) | total per session (MB) |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const [name, r] of [
    ['stdio (baseline)', s],
    ['HTTP', h],
  ] as const)
    console.log(
      `| ${name} | ${fmt(r.processes / N, 1)} | ${fmt(r.pss / N)} | ${fmt(r.rss / N)} | ${fmt(r.hubGrowth / N, 2)} | ${fmt((r.pss + r.hubGrowth) / N, 2)} |`,
    );
  console.log(
    `HTTP / stdio, total per session (adapter PSS + hub growth): ${fmt((h.pss + h.hubGrowth) / (s.pss + s.hubGrowth), 3)}×`,
  );
}
