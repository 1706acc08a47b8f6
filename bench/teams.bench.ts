// Team inbox appends under contention (separate processes), ours against a
// reference writer with Claude Code's exact lock options, measured in the
// same run, with each one's loss count; and task claims per second with
// claimers racing in separate processes.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseInbox } from '../core/teams/mailbox.js';
import { TaskList } from '../core/tasks/task-list.js';
import { fmt, tempDir } from './lib.js';

const WORKER = new URL('./team-worker.mjs', import.meta.url).pathname;
const WRITERS = 4;
const APPENDS = Number(process.env.BENCH_APPENDS ?? 300);
const TASKS = 1000;
const CLAIMER_COUNTS = [4, 8]; // two per core, and four per core on this 2-core machine

function worker<T>(args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!) as T) : reject(new Error(`worker exited ${code}`)),
    );
  });
}

// Rates use the workers' own clocks (the slowest one), so process start-up is not counted.
async function appendRun(mode: 'append' | 'ref-append'): Promise<{ rate: number; lost: number; kept: number }> {
  const file = path.join(tempDir(), 'inbox.json');
  const results = await Promise.all(
    Array.from({ length: WRITERS }, (_, i) =>
      worker<{ lost: number; ms: number }>([mode, file, String(APPENDS), `w${i}`]),
    ),
  );
  const secs = Math.max(...results.map((r) => r.ms)) / 1000;
  const kept = parseInbox(fs.readFileSync(file, 'utf8')).entries.length;
  return { rate: kept / secs, lost: WRITERS * APPENDS - kept, kept };
}

async function claimRun(claimers: number): Promise<number> {
  const root = path.join(tempDir(), 'tasks');
  const list = new TaskList(root, 'bench', { deadlineMs: 60_000, staleMs: 10_000 });
  for (let i = 0; i < TASKS; i++) await list.create({ subject: `task ${i}`, description: '' });
  const results = await Promise.all(
    Array.from({ length: claimers }, (_, i) =>
      worker<{ claimed: string[]; ms: number }>(['claim', root, 'bench', `agent-${i}`, String(TASKS)]),
    ),
  );
  const secs = Math.max(...results.map((r) => r.ms)) / 1000;
  const claimed = results.reduce((n, r) => n + r.claimed.length, 0);
  if (claimed !== TASKS) throw new Error(`claimed ${claimed} of ${TASKS}`);
  return TASKS / secs;
}

export async function run(): Promise<void> {
  const ref = await appendRun('ref-append');
  const ours = await appendRun('append');
  console.log(`team inbox appends (${WRITERS} processes × ${APPENDS}, one inbox)`);
  console.log(`  reference (Claude Code lock options)  ${fmt(ref.rate, 0).padStart(6)} appends/s, lost ${ref.lost}`);
  console.log(`  switchboard                           ${fmt(ours.rate, 0).padStart(6)} appends/s, lost ${ours.lost}`);
  console.log(`  ratio ours/reference: ${fmt(ours.rate / ref.rate, 2)}× (goal ≥ 1× with zero loss)`);
  console.log(`task claims (processes racing over ${TASKS} tasks; each task claimed exactly once; goal ≥ 500/s)`);
  for (const n of CLAIMER_COUNTS)
    console.log(`  ${String(n).padStart(2)} claimers  ${fmt(await claimRun(n), 0).padStart(5)} claims/s`);
}
