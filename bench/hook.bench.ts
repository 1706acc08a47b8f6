// The cost of one hook invocation with nothing pending (a post-tool hook on
// every tool call) against a bare `node -e 0`, alternated in the same run,
// with a live hub and a registered session; and the same hook through its
// own small CommonJS entry (dist/cli/switchboard-hook.cjs), when built.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fmt, percentile, startChild, tempDir } from './lib.js';

const CLI = process.env.BENCH_CLI ?? new URL('../../dist/cli/switchboard.mjs', import.meta.url).pathname; // from bench/.out/
const HOOK_ENTRY = process.env.BENCH_HOOK_ENTRY ?? path.join(path.dirname(CLI), 'switchboard-hook.cjs');
const RUNS = Number(process.env.BENCH_HOOK_RUNS ?? 40);

function timeRun(cmd: string[], input: string, env: NodeJS.ProcessEnv): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, cmd, { input, env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0 || r.stdout !== '' || r.stderr !== '') throw new Error(`unexpected hook result: ${r.status} ${r.stdout} ${r.stderr}`);
  return ms;
}

export async function run(): Promise<void> {
  const dir = tempDir();
  const hub = await startChild(['hub', dir, '{}']);
  const env = { PATH: process.env.PATH, HOME: dir, SWITCHBOARD_RUNTIME_DIR: path.join(dir, 'run'), SWITCHBOARD_HOME: path.join(dir, 'home') };
  const input = JSON.stringify({ session_id: 'bench-session', cwd: dir, hook_event_name: 'PostToolUse', tool_name: 'Bash' });
  try {
    timeRun([CLI, 'hook', 'session-start', '--agent', 'claude'], input, env); // registers this process as the agent
  } catch (err) {
    await hub.stop();
    throw err;
  }
  const bare: number[] = [];
  const hook: number[] = [];
  const small: number[] = [];
  const hasEntry = fs.existsSync(HOOK_ENTRY);
  try {
    for (let i = 0; i < RUNS + 3; i++) {
      const b = timeRun(['-e', '0'], '', env);
      const h = timeRun([CLI, 'hook', 'post-tool', '--agent', 'claude'], input, env);
      const e = hasEntry ? timeRun([HOOK_ENTRY, 'post-tool', '--agent', 'claude'], input, env) : 0;
      if (i >= 3) {
        bare.push(b);
        hook.push(h);
        if (hasEntry) small.push(e);
      }
    }
  } finally {
    await hub.stop();
  }
  bare.sort((a, b) => a - b);
  hook.sort((a, b) => a - b);
  const b50 = percentile(bare, 50);
  const h50 = percentile(hook, 50);
  console.log(`hook start-up (${RUNS} alternating runs, ms)   p50     p90`);
  console.log(`  node -e 0                        ${fmt(b50).padStart(6)}  ${fmt(percentile(bare, 90)).padStart(6)}`);
  console.log(`  switchboard hook post-tool       ${fmt(h50).padStart(6)}  ${fmt(percentile(hook, 90)).padStart(6)}  (hub running, nothing pending)`);
  console.log(`  ratio p50: ${fmt(h50 / b50, 2)}× (target ≤ 1.5×)`);
  if (!hasEntry) return;
  small.sort((a, b) => a - b);
  const s50 = percentile(small, 50);
  console.log(`  switchboard-hook.cjs post-tool  ${fmt(s50).padStart(6)}  ${fmt(percentile(small, 90)).padStart(6)}  ratio p50: ${fmt(s50 / b50, 2)}× (target ≤ 1.5×)`);
}
