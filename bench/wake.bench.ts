// Waking idle sessions, with the real Claude Code 2.1.332 and the scripted model (the
// real-agent harness; needs unshare, tmux and the built CLI):
// 1. Idle wake: a message to an idle interactive session until the model
//    request that carries it, against the user's own typed prompt (tmux
//    keys) until its model request, alternated in the same run.
//    The same with the real Codex CLI 0.171.0 TUI (its thread in its
//    app-server daemon, woken through the daemon's control socket).
// 2. Boundary cost, paired within one Claude Code process (`paired`,
//    boundary-paired.ts): two identical no-op MCP tools alternated, the
//    mcp_tool PostToolUse hook matching one; hooked − unhooked per pair.
// 3. The older separate-runs measure (`boundary`, not in the default parts:
//    its run-to-run noise is larger than the target): per tool call of a
//    headless turn of Read calls, the time from one model request to the
//    next, with Switchboard's hooks removed, the mcp_tool and command hooks.
import fs from 'node:fs';
import path from 'node:path';
import type { ModelRequest, Step } from '../test/agents/model/server.js';
import { startInteractiveClaude, type Pane } from '../test/agents/harness/interactive.js';
import { startInteractiveCodex } from '../test/agents/harness/interactive-codex.js';
import { sessionsOf, switchboardRow } from '../test/agents/harness/observe.js';
import { PROFILES } from '../test/agents/harness/profiles.js';
import { startWorld, type World } from '../test/agents/harness/world.js';
import { agentCommand } from '../test/agents/harness/binaries.js';
import { runCli } from '../test/helpers/cli.js';
import { until } from '../test/helpers/hub.js';
import { fmt, percentile } from './lib.js';
import { pairedBoundary } from './boundary-paired.js';

const WAKES = Number(process.env.BENCH_WAKE_RUNS ?? 8);
const TOOLS = Number(process.env.BENCH_WAKE_TOOLS ?? 20);
/** Which parts run: `claude`, `codex`, `paired`, `boundary` (comma-separated). */
const PARTS = new Set((process.env.BENCH_WAKE_PARTS ?? 'claude,codex,paired').split(','));

const p50 = (xs: number[]): number =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

async function idleWake(): Promise<void> {
  const w = await startWorld();
  try {
    await w.setup('claude');
    const arrivals: Array<{ at: number; req: ModelRequest }> = [];
    const step = (req: ModelRequest) => (arrivals.push({ at: Date.now(), req }), { text: 'Noted.' });
    const pane = await startInteractiveClaude(w, {
      name: 'bench',
      steps: Array.from({ length: 2 * WAKES + 2 }, () => step),
    });
    try {
      const row = await switchboardRow(w, pane.cwd, 30_000);
      const s = () => sessionsOf(w, pane.cwd)[0]!;
      const idle = () => until(() => s().state === 'idle' && /Noted\./.test(pane.screen()), 30_000);
      await until(() => w.hub.hub.wake.routeFor(s()).kind === 'claude-socket', 30_000);
      const alice = await w.register('alice');
      const wake: number[] = [];
      const typed: number[] = [];
      const reached = async (text: string, t0: number): Promise<number> => {
        await until(() => arrivals.some((a) => a.req.context.includes(text)), 30_000);
        return arrivals.find((a) => a.req.context.includes(text))!.at - t0;
      };
      for (let i = 0; i < WAKES; i++) {
        const m = `wake ${i} ${Date.now()}`;
        const t0 = Date.now();
        await w.client.call('message.send', {
          sessionId: alice.sessionId,
          token: alice.token,
          to: row.label,
          summary: 'bench',
          message: m,
        });
        wake.push(await reached(m, t0));
        await new Promise((r) => setTimeout(r, 500));
        await idle();
        pane.keys('-l', `typed ${i}`);
        await new Promise((r) => setTimeout(r, 300));
        const t1 = Date.now();
        pane.keys('Enter');
        typed.push(await reached(`typed ${i}`, t1));
        await new Promise((r) => setTimeout(r, 500));
        await idle();
      }
      console.log(`idle wake, Claude Code 2.1.332 interactive (n=${WAKES}, ms)      p50      max`);
      console.log(
        `  typed prompt (Enter) → model request         ${fmt(p50(typed)).padStart(7)}  ${fmt(Math.max(...typed)).padStart(7)}`,
      );
      console.log(
        `  message.send (idle) → model request           ${fmt(p50(wake)).padStart(7)}  ${fmt(Math.max(...wake)).padStart(7)}`,
      );
      console.log(`  ratio wake/typed p50: ${fmt(p50(wake) / p50(typed), 2)}× (target: wake p50 ≤ 2000 ms)`);
    } finally {
      await pane.stop();
    }
  } finally {
    await w.close();
  }
}

/** Idle wake of an interactive Codex thread against its user typing, alternated. */
async function codexIdleWake(): Promise<void> {
  const w = await startWorld();
  let pane: Pane | undefined;
  try {
    await w.setup('codex');
    const arrivals: Array<{ at: number; req: ModelRequest }> = [];
    const step = (req: ModelRequest) => (arrivals.push({ at: Date.now(), req }), { text: 'Noted.' });
    pane = await startInteractiveCodex(w, { name: 'bench', steps: Array.from({ length: 2 * WAKES + 2 }, () => step) });
    const p = pane;
    const s = () => sessionsOf(w, p.cwd)[0];
    const reached = async (text: string, t0: number): Promise<number> => {
      await until(() => arrivals.some((a) => a.req.context.includes(text)), 30_000);
      return arrivals.find((a) => a.req.context.includes(text))!.at - t0;
    };
    const type = async (text: string): Promise<number> => {
      p.keys('-l', text);
      await until(() => p.screen().includes(text), 10_000);
      await new Promise((r) => setTimeout(r, 200));
      const t1 = Date.now();
      p.keys('Enter');
      return reached(text, t1);
    };
    const idle = () => until(() => s()?.state === 'idle' && s()?.hooksSeenAt !== null, 30_000);
    await type('hello there');
    const row = await switchboardRow(w, p.cwd, 30_000);
    await idle();
    const alice = await w.register('alice');
    const wake: number[] = [];
    const typed: number[] = [];
    for (let i = 0; i < WAKES; i++) {
      await new Promise((r) => setTimeout(r, 500));
      await idle();
      const m = `wake ${i} ${Date.now()}`;
      const t0 = Date.now();
      await w.client.call('message.send', {
        sessionId: alice.sessionId,
        token: alice.token,
        to: row.label,
        summary: 'bench',
        message: m,
      });
      wake.push(await reached(m, t0));
      await new Promise((r) => setTimeout(r, 500));
      await idle();
      typed.push(await type(`typed ${i}`));
    }
    console.log(`idle wake, Codex CLI 0.171.0 interactive (n=${WAKES}, ms)        p50      max`);
    console.log(
      `  typed prompt (Enter) → model request         ${fmt(p50(typed)).padStart(7)}  ${fmt(Math.max(...typed)).padStart(7)}`,
    );
    console.log(
      `  message.send (idle) → model request           ${fmt(p50(wake)).padStart(7)}  ${fmt(Math.max(...wake)).padStart(7)}`,
    );
    console.log(`  ratio wake/typed p50: ${fmt(p50(wake) / p50(typed), 2)}× (target: wake p50 ≤ 2000 ms)`);
  } finally {
    await pane?.stop();
    await w.close();
  }
}

type HookForm = 'none' | 'mcp_tool' | 'command';

async function boundaryRun(form: HookForm): Promise<number[]> {
  const w: World = await startWorld();
  try {
    PROFILES.claude.seed(w.home);
    const binDir = path.dirname(agentCommand('claude')[0]!);
    const r = await runCli(['setup', 'claude-code', '--agent-version', form === 'command' ? '2.1.117' : '2.1.332'], {
      ...w.env,
      PATH: `${binDir}:${process.env.PATH ?? ''}`,
    });
    if (r.code !== 0) throw new Error(r.stderr);
    if (form === 'none') {
      const file = path.join(w.home, '.claude', 'settings.json');
      const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      delete settings.hooks; // Switchboard's hooks removed; its MCP server stays
      fs.writeFileSync(file, JSON.stringify(settings));
    }
    const cwd = path.join(w.root, 'w-b');
    fs.mkdirSync(cwd, { recursive: true });
    fs.writeFileSync(path.join(cwd, 'notes.txt'), 'x\n');
    const at: number[] = [];
    const steps: Step[] = Array.from(
      { length: TOOLS },
      () => () => (at.push(Date.now()), { tool: 'Read', input: { file_path: path.join(cwd, 'notes.txt') } }),
    );
    steps.push(() => (at.push(Date.now()), { text: 'Done.' }));
    const a = await w.start('claude', { prompt: 'Read it many times.', steps, cwd, name: 'b' });
    const code = await a.waitExit(120_000);
    if (code !== 0) throw new Error(`claude exited ${code}: ${a.output().slice(-2000)}`);
    return at.slice(1).map((t, i) => t - at[i]!);
  } finally {
    await w.close();
  }
}

const ROUNDS = Number(process.env.BENCH_WAKE_ROUNDS ?? 3);

/** Rounds alternate the three forms (the machine is shared and noisy); per form, the median of the rounds' p50s. */
async function boundaryCost(): Promise<void> {
  const forms: HookForm[] = ['none', 'mcp_tool', 'command'];
  const p50s: Record<HookForm, number[]> = { none: [], mcp_tool: [], command: [] };
  for (let i = 0; i < ROUNDS; i++) for (const f of forms) p50s[f].push(p50(await boundaryRun(f)));
  const med = (f: HookForm): number => p50(p50s[f]);
  const base = med('none');
  const rounds = (f: HookForm): string => p50s[f].map((x) => fmt(x, 0)).join(' ');
  console.log(
    `boundary cost, Claude Code 2.1.332 headless (${TOOLS} Read calls per run, ${ROUNDS} alternated rounds; ms between model requests, median of per-run p50)`,
  );
  console.log(`  no Switchboard hooks (baseline)         ${fmt(base).padStart(7)}          rounds: ${rounds('none')}`);
  console.log(
    `  setup for 2.1.332 (no PostToolUse hook) ${fmt(med('mcp_tool')).padStart(7)}  ${fmt(med('mcp_tool') - base).padStart(6)}  rounds: ${rounds('mcp_tool')}  (target added ≤ 2 ms)`,
  );
  console.log(
    `  command hooks (sh + node per call)      ${fmt(med('command')).padStart(7)}  ${fmt(med('command') - base).padStart(6)}  rounds: ${rounds('command')}`,
  );
}

export async function run(): Promise<void> {
  // The harness finds its forwarder beside its module: bundled, that is bench/.out/.
  fs.copyFileSync(path.resolve('test/agents/harness/forward.mjs'), new URL('./forward.mjs', import.meta.url));
  if (PARTS.has('claude')) await idleWake();
  if (PARTS.has('codex')) await codexIdleWake();
  if (PARTS.has('paired')) await pairedBoundary();
  if (PARTS.has('boundary')) await boundaryCost();
}
