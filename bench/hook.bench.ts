// The cost of one hook invocation with nothing pending (a post-tool hook on
// every tool call) against a bare `node -e 0`, alternated in the same run,
// with a live hub and a registered session; and the same hook through its
// own small CommonJS entry (dist/cli/switchboard-hook.cjs), when built: once
// as it runs after a hub round trip marked the session quiet (no call to the
// hub: protocol/quiet.ts), once with that mark removed before each run (the
// round trip every post-tool hook made before the marks).
// Wall clock, then CPU time (user + system, read by each process at its exit
// through a `--require`d reporter): on a loaded machine the wall clock is
// mostly waiting for a core, the CPU time is what each start costs.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fmt, percentile, startChild, tempDir } from './lib.js';

const CLI = process.env.BENCH_CLI ?? new URL('../../dist/cli/switchboard.mjs', import.meta.url).pathname; // from bench/.out/
const HOOK_ENTRY = process.env.BENCH_HOOK_ENTRY ?? path.join(path.dirname(CLI), 'switchboard-hook.cjs');
const RUNS = Number(process.env.BENCH_HOOK_RUNS ?? 40);

function timeRun(cmd: string[], input: string, env: NodeJS.ProcessEnv, before?: () => void): number {
  before?.();
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, cmd, { input, env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0 || r.stdout !== '' || r.stderr !== '')
    throw new Error(`unexpected hook result: ${r.status} ${r.stdout} ${r.stderr}`);
  return ms;
}

const REPORTER =
  "process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').appendFileSync(process.env.BENCH_CPU_OUT, `${(u.user + u.system) / 1000}\\n`); });\n";

/** CPU ms p50 of each command, alternated RUNS times. */
function cpuPass(
  dir: string,
  cmds: Record<string, { argv: string[]; input: string; before?: () => void }>,
  env: NodeJS.ProcessEnv,
): Record<string, number> {
  const reporter = path.join(dir, 'cpu-reporter.cjs');
  fs.writeFileSync(reporter, REPORTER);
  const out = (k: string): string => path.join(dir, `cpu-${k}.txt`);
  for (let i = 0; i < RUNS + 3; i++) {
    for (const [k, c] of Object.entries(cmds)) {
      c.before?.();
      const r = spawnSync(process.execPath, ['--require', reporter, ...c.argv], {
        input: c.input,
        env: { ...env, BENCH_CPU_OUT: i < 3 ? path.join(dir, 'cpu-warm.txt') : out(k) },
        encoding: 'utf8',
      });
      if (r.status !== 0 || r.stdout !== '' || r.stderr !== '')
        throw new Error(`unexpected result of ${k}: ${r.status} ${r.stdout} ${r.stderr}`);
    }
  }
  const res: Record<string, number> = {};
  for (const k of Object.keys(cmds))
    res[k] = percentile(
      fs
        .readFileSync(out(k), 'utf8')
        .trim()
        .split('\n')
        .map(Number)
        .sort((a, b) => a - b),
      50,
    );
  return res;
}

export async function run(): Promise<void> {
  const dir = tempDir();
  const hub = await startChild(['hub', dir, '{}']);
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    SWITCHBOARD_RUNTIME_DIR: path.join(dir, 'run'),
    SWITCHBOARD_HOME: path.join(dir, 'home'),
  };
  const input = JSON.stringify({
    session_id: 'bench-session',
    cwd: dir,
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
  });
  try {
    timeRun([CLI, 'hook', 'session-start', '--agent', 'claude'], input, env); // registers this process as the agent
  } catch (err) {
    await hub.stop();
    throw err;
  }
  const bare: number[] = [];
  const hook: number[] = [];
  const small: number[] = [];
  const call: number[] = [];
  const hasEntry = fs.existsSync(HOOK_ENTRY);
  const quietDir = path.join(env.SWITCHBOARD_RUNTIME_DIR, 'quiet');
  /** Removes the session's quiet mark: the next post-tool hook calls the hub (which writes it again). */
  const unmark = (): void => {
    for (const f of fs.existsSync(quietDir) ? fs.readdirSync(quietDir) : []) fs.rmSync(path.join(quietDir, f));
  };
  const entryArgv = [HOOK_ENTRY, 'post-tool', '--agent', 'claude'];
  let cpu: Record<string, number> = {};
  try {
    for (let i = 0; i < RUNS + 3; i++) {
      const b = timeRun(['-e', '0'], '', env);
      const h = timeRun([CLI, 'hook', 'post-tool', '--agent', 'claude'], input, env);
      const e = hasEntry ? timeRun(entryArgv, input, env) : 0;
      const u = hasEntry ? timeRun(entryArgv, input, env, unmark) : 0;
      if (i >= 3) {
        bare.push(b);
        hook.push(h);
        if (hasEntry) small.push(e);
        if (hasEntry) call.push(u);
      }
    }
    cpu = cpuPass(
      dir,
      {
        bare: { argv: ['-e', '0'], input: '' },
        cli: { argv: [CLI, 'hook', 'post-tool', '--agent', 'claude'], input },
        ...(hasEntry ? { entry: { argv: entryArgv, input }, call: { argv: entryArgv, input, before: unmark } } : {}),
      },
      env,
    );
  } finally {
    await hub.stop();
  }
  bare.sort((a, b) => a - b);
  hook.sort((a, b) => a - b);
  const b50 = percentile(bare, 50);
  const h50 = percentile(hook, 50);
  console.log(`hook start-up (${RUNS} alternating runs, ms)   p50     p90`);
  console.log(`  node -e 0                        ${fmt(b50).padStart(6)}  ${fmt(percentile(bare, 90)).padStart(6)}`);
  console.log(
    `  switchboard hook post-tool       ${fmt(h50).padStart(6)}  ${fmt(percentile(hook, 90)).padStart(6)}  (hub running, nothing pending)`,
  );
  console.log(`  ratio p50: ${fmt(h50 / b50, 2)}× (target ≤ 1.5×)`);
  if (hasEntry) {
    small.sort((a, b) => a - b);
    const s50 = percentile(small, 50);
    console.log(
      `  switchboard-hook.cjs post-tool  ${fmt(s50).padStart(6)}  ${fmt(percentile(small, 90)).padStart(6)}  ratio p50: ${fmt(s50 / b50, 2)}× (target ≤ 1.5×; marked quiet, no hub call)`,
    );
    call.sort((a, b) => a - b);
    const u50 = percentile(call, 50);
    console.log(
      `  switchboard-hook.cjs, no mark    ${fmt(u50).padStart(6)}  ${fmt(percentile(call, 90)).padStart(6)}  ratio p50: ${fmt(u50 / b50, 2)}× (one hub round trip)`,
    );
  }
  const c = (k: string): string => `${fmt(cpu[k]!).padStart(6)} ms  ${fmt(cpu[k]! / cpu.bare!, 2)}×`;
  console.log(
    `CPU time per process (user + system, p50 of ${RUNS} alternated): node -e 0 ${fmt(cpu.bare!)} ms; switchboard hook ${c('cli')}${hasEntry ? `; switchboard-hook.cjs ${c('entry')}; no mark ${c('call')}` : ''}`,
  );
}
