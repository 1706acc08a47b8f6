// Boundary cost of Claude Code's mcp_tool PostToolUse hook, paired WITHIN one
// Claude Code process (separate runs differ by 50–130 ms from one another):
// the scripted model alternates two identical no-op tools of a tiny MCP
// server (`mcp__bench__noop_a`, `mcp__bench__noop_b`, in ABBA blocks) and
// Switchboard's PostToolUse hook matches only noop_a. Per call: the next
// model request's arrival minus the moment the tool call's answer left the
// model server; per ABBA block two paired differences (hooked − unhooked).
// Which tool is hooked alternates from run to run (a tool-specific bias
// cancels).
// A control run has the hook match neither tool (the pairs then differ by
// noise only); a floor run replaces Switchboard's hook by an mcp_tool hook
// on the bench server that answers '' at once (what any mcp_tool hook costs
// in Claude Code itself), and a floor-http run an HTTP hook to a loopback
// server that answers {} at once (the other hook form without a process). The switchboard MCP server is preloaded with a timer that
// records each switchboard_hook call's receive → reply time (the hub side
// of a hooked call: the lower bound of what it can add). An as-setup run uses
// what `switchboard setup claude-code` writes for 2.1.332 unchanged: no
// PostToolUse hook at all (a busy turn gets its messages through Claude
// Code's socket), so its pairs and its absolute gaps show what Switchboard
// adds per tool call there; the other variants ask setup for the hook
// (`--post-tool-hook`) to measure what one costs.
import fs from 'node:fs';
import path from 'node:path';
import { NOOP_HOOK_PATH, type Step } from '../test/agents/model/server.js';
import { MODEL_PORT } from '../test/agents/harness/launch.js';
import { agentCommand } from '../test/agents/harness/binaries.js';
import { PROFILES } from '../test/agents/harness/profiles.js';
import { startWorld } from '../test/agents/harness/world.js';
import { runCli } from '../test/helpers/cli.js';
import { fmt, percentile } from './lib.js';

const CALLS = Number(process.env.BENCH_PAIRED_CALLS ?? 80); // measured calls per run (half hooked), a multiple of 4
const RUNS = Number(process.env.BENCH_PAIRED_RUNS ?? 4); // even: the hooked tool alternates between noop_a and noop_b
const WARM = 4; // first calls: tool loading (ToolSearch), caches

/** Two identical no-op tools over MCP stdio (NDJSON JSON-RPC). */
const NOOP_SERVER = `const rl = require('node:readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
rl.on('line', (line) => {
  let m; try { m = JSON.parse(line); } catch { return; }
  if (m.id === undefined) return;
  if (m.method === 'initialize') return send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'bench', version: '1' } } });
  if (m.method === 'tools/list') return send({ id: m.id, result: { tools: ['noop_a', 'noop_b', 'noop_hook'].map((name) => ({ name, description: 'Does nothing.', inputSchema: { type: 'object', properties: {} } })) } });
  if (m.method === 'tools/call') return send({ id: m.id, result: { content: [{ type: 'text', text: m.params.name === 'noop_hook' ? '' : 'ok' }] } });
  if (m.method === 'ping') return send({ id: m.id, result: {} });
  send({ id: m.id, error: { code: -32601, message: 'no such method' } });
});`;

/** Preloaded into the switchboard MCP server: receive → reply of each switchboard_hook call, one line per call. */
const HOOK_TIMER = `const { performance } = require('node:perf_hooks');
const fs = require('node:fs');
const out = process.env.BENCH_HOOK_TIMES;
const started = new Map();
let buf = '';
const input = process.stdin;
const emit = input.emit;
input.emit = function (ev, chunk, ...rest) {
  if (ev === 'data') {
    const t = performance.now();
    buf += chunk.toString();
    let nl;
    while ((nl = buf.indexOf('\\n')) >= 0) {
      const line = buf.slice(0, nl); buf = buf.slice(nl + 1);
      if (!line.includes('switchboard_hook')) continue;
      try { const m = JSON.parse(line); if (m.method === 'tools/call') started.set(m.id, { t, event: m.params.arguments.event }); } catch {}
    }
  }
  return emit.call(this, ev, chunk, ...rest);
};
const write = process.stdout.write;
process.stdout.write = function (data, ...rest) {
  const r = write.call(this, data, ...rest);
  const t = performance.now();
  const text = data.toString();
  for (const [id, s] of started) {
    if (!text.includes('"id":' + JSON.stringify(id))) continue;
    started.delete(id);
    setImmediate(() => fs.appendFileSync(out, s.event + ' ' + (t - s.t).toFixed(3) + '\\n'));
  }
  return r;
};`;

type Variant = 'as-setup' | 'hooked' | 'floor' | 'floor-http' | 'control';
const ALL_VARIANTS: readonly Variant[] = ['as-setup', 'hooked', 'floor', 'floor-http', 'control'];
/** `BENCH_PAIRED_VARIANTS=as-setup,control` runs only those. */
const VARIANTS: readonly Variant[] = process.env.BENCH_PAIRED_VARIANTS
  ? ALL_VARIANTS.filter((v) => process.env.BENCH_PAIRED_VARIANTS!.split(',').includes(v))
  : ALL_VARIANTS;
interface RunResult {
  hooked: number[];
  plain: number[];
  diffs: number[];
  hub: number[];
}

const ABBA = ['noop_a', 'noop_b', 'noop_b', 'noop_a'] as const;

/** `hooked`: which of the two tools the hook matches (control: none, but its pairs are taken the same way). */
async function pairedRun(variant: Variant, hooked: 'a' | 'b'): Promise<RunResult> {
  const w = await startWorld();
  try {
    PROFILES.claude.seed(w.home);
    const binDir = path.dirname(agentCommand('claude')[0]!);
    const hookFlag = variant === 'as-setup' ? [] : ['--post-tool-hook'];
    const r = await runCli(['setup', 'claude-code', '--agent-version', '2.1.332', ...hookFlag], {
      ...w.env,
      PATH: `${binDir}:${process.env.PATH ?? ''}`,
    });
    if (r.code !== 0) throw new Error(r.stderr);
    const settingsFile = path.join(w.home, '.claude', 'settings.json');
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as {
      hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ type: string }> }>>;
    };
    const post = settings.hooks.PostToolUse;
    if (variant === 'as-setup') {
      if (post !== undefined) throw new Error('setup for 2.1.332 wrote a PostToolUse hook');
    } else {
      if (post?.length !== 1 || post[0]!.hooks[0]!.type !== 'mcp_tool') throw new Error('setup wrote no mcp_tool hook');
      post[0]!.matcher = variant === 'control' ? 'mcp__bench__noop_none' : `mcp__bench__noop_${hooked}`;
      if (variant === 'floor')
        post[0]!.hooks = [{ type: 'mcp_tool', server: 'bench', tool: 'noop_hook', input: {} } as never];
      if (variant === 'floor-http')
        post[0]!.hooks = [
          { type: 'http', url: `http://127.0.0.1:${MODEL_PORT}${NOOP_HOOK_PATH}`, timeout: 10 } as never,
        ];
    }
    fs.writeFileSync(settingsFile, JSON.stringify(settings));
    const noop = path.join(w.root, 'noop-mcp.cjs');
    const timer = path.join(w.root, 'hook-timer.cjs');
    const times = path.join(w.root, 'hook-times.txt');
    fs.writeFileSync(noop, NOOP_SERVER);
    fs.writeFileSync(timer, HOOK_TIMER);
    const userConfig = path.join(w.home, '.claude.json');
    const cfg = JSON.parse(fs.readFileSync(userConfig, 'utf8')) as {
      mcpServers: Record<string, Record<string, unknown>>;
    };
    cfg.mcpServers.bench = { type: 'stdio', command: process.execPath, args: [noop], env: {} };
    const sb = cfg.mcpServers.switchboard!;
    sb.env = { ...(sb.env as object), NODE_OPTIONS: `--require ${timer}`, BENCH_HOOK_TIMES: times };
    fs.writeFileSync(userConfig, JSON.stringify(cfg, null, 2));
    const cwd = path.join(w.root, 'w-p');
    fs.mkdirSync(cwd, { recursive: true });
    const tools = [...ABBA, ...Array.from({ length: CALLS }, (_, i) => ABBA[i % 4]!)];
    const steps: Step[] = [...tools.map((t) => ({ tool: t, input: {} })), { text: 'Done.' }];
    const a = await w.start('claude', { prompt: 'Call the tools.', steps, cwd, name: 'p', mode: 'bypass' });
    const code = await a.waitExit(240_000);
    if (code !== 0 || a.model.errors.length > 0)
      throw new Error(`claude exited ${code}: ${a.model.errors.join('; ')} ${a.output().slice(-2000)}`);
    const main = a.model.main();
    if (variant === 'floor-http' && a.model.noopHookHits() < CALLS / 2)
      throw new Error(`the HTTP hook ran ${a.model.noopHookHits()} times for ${CALLS / 2} matched calls`);
    if (process.env.BENCH_PAIRED_DEBUG)
      for (const q of a.model.requests)
        console.log(
          `${variant} #${q.index} ${q.main ? 'main' : 'side'} ${q.path} at ${q.at.toFixed(1)} answered ${q.answered?.at.toFixed(1)} ${q.answered?.tool ?? ''} ctx ${q.context.length}`,
        );
    const calls: Array<{ tool: 'a' | 'b'; gap: number }> = [];
    for (let i = 0; i + 1 < main.length; i++) {
      const tool = main[i]!.answered?.tool;
      if (tool === undefined || !/__noop_[ab]$/.test(tool)) continue;
      calls.push({ tool: tool.endsWith('_a') ? 'a' : 'b', gap: main[i + 1]!.at - main[i]!.answered!.at });
    }
    if (calls.length !== tools.length) throw new Error(`expected ${tools.length} tool calls, saw ${calls.length}`);
    const measured = calls.slice(WARM);
    const diffs: number[] = [];
    for (let b = 0; b + 3 < measured.length; b += 4) {
      const [a1, b1, b2, a2] = measured.slice(b, b + 4) as [
        (typeof calls)[0],
        (typeof calls)[0],
        (typeof calls)[0],
        (typeof calls)[0],
      ];
      const sign = hooked === 'a' ? 1 : -1;
      diffs.push(sign * (a1.gap - b1.gap), sign * (a2.gap - b2.gap));
    }
    const hub = fs.existsSync(times)
      ? fs
          .readFileSync(times, 'utf8')
          .trim()
          .split('\n')
          .filter((l) => l.startsWith('post-tool '))
          .map((l) => Number(l.split(' ')[1]))
      : [];
    return {
      hooked: measured.filter((c) => c.tool === hooked).map((c) => c.gap),
      plain: measured.filter((c) => c.tool !== hooked).map((c) => c.gap),
      diffs,
      hub,
    };
  } finally {
    await w.close();
  }
}

const p50 = (xs: number[]): number =>
  xs.length === 0
    ? NaN
    : percentile(
        [...xs].sort((a, b) => a - b),
        50,
      );

/** Hooked and control runs alternated; per run p50s, and p50 of the pooled paired differences. */
export async function pairedBoundary(): Promise<void> {
  const all: Record<Variant, RunResult[]> = { 'as-setup': [], hooked: [], floor: [], 'floor-http': [], control: [] };
  for (let i = 0; i < RUNS; i++)
    for (const v of VARIANTS) {
      const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
      const res = await pairedRun(v, i % 2 === 0 ? 'a' : 'b');
      all[v].push(res);
      console.log(
        `  ${v.padEnd(8)} run ${i + 1} (load ${load}, matched tool noop_${i % 2 === 0 ? 'a' : 'b'}): matched p50 ${fmt(p50(res.hooked), 2)} ms, other p50 ${fmt(p50(res.plain), 2)} ms, paired matched−other p50 ${fmt(p50(res.diffs), 2)} ms (n=${res.diffs.length})${v === 'hooked' ? `, switchboard_hook receive→reply p50 ${fmt(p50(res.hub), 2)} ms (n=${res.hub.length})` : ''}`,
      );
    }
  const pooled = (v: Variant, k: keyof RunResult): number[] => all[v].flatMap((r) => r[k]);
  console.log(
    `boundary cost, Claude Code 2.1.332 headless, paired within each run (${CALLS} calls per run, ABBA, ${RUNS} runs per variant; ms from a tool call's answer to the next model request)`,
  );
  const all50 = (v: Variant): string => all[v].map((r) => fmt(p50([...r.hooked, ...r.plain]), 2)).join(' ');
  console.log(
    `  as setup writes it for 2.1.332 (no PostToolUse hook), the same pairs, p50 of ${pooled('as-setup', 'diffs').length} pairs: ${fmt(p50(pooled('as-setup', 'diffs')), 2)} ms; per run: ${all['as-setup'].map((r) => fmt(p50(r.diffs), 2)).join(' ')}; absolute gap p50 per run: ${all50('as-setup')} ms (control runs: ${all50('control')} ms, hooked runs: ${all50('hooked')} ms)`,
  );
  console.log(
    `  hooked − unhooked, p50 of ${pooled('hooked', 'diffs').length} pairs: ${fmt(p50(pooled('hooked', 'diffs')), 2)} ms (target ≤ 2 ms); per run: ${all.hooked.map((r) => fmt(p50(r.diffs), 2)).join(' ')}`,
  );
  console.log(
    `  floor (an mcp_tool hook on the bench server that answers at once) − unhooked, p50 of ${pooled('floor', 'diffs').length} pairs: ${fmt(p50(pooled('floor', 'diffs')), 2)} ms; per run: ${all.floor.map((r) => fmt(p50(r.diffs), 2)).join(' ')}`,
  );
  console.log(
    `  floor-http (an HTTP hook to a loopback server that answers {} at once) − unhooked, p50 of ${pooled('floor-http', 'diffs').length} pairs: ${fmt(p50(pooled('floor-http', 'diffs')), 2)} ms; per run: ${all['floor-http'].map((r) => fmt(p50(r.diffs), 2)).join(' ')}`,
  );
  console.log(
    `  control (hook matches neither) same pairs, p50 of ${pooled('control', 'diffs').length} pairs: ${fmt(p50(pooled('control', 'diffs')), 2)} ms; per run: ${all.control.map((r) => fmt(p50(r.diffs), 2)).join(' ')}`,
  );
  console.log(
    `  gap p50 hooked ${fmt(p50(pooled('hooked', 'hooked')), 2)} ms, unhooked ${fmt(p50(pooled('hooked', 'plain')), 2)} ms; hub side (switchboard_hook receive → reply) p50 ${fmt(p50(pooled('hooked', 'hub')), 2)} ms, p90 ${fmt(
      percentile(
        [...pooled('hooked', 'hub')].sort((a, b) => a - b),
        90,
      ),
      2,
    )} ms`,
  );
}
