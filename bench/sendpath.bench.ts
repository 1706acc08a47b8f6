// The hub's send path without sockets, CPU per message: parse, validate,
// dispatch (resolution, admission, framing, inbox, journal) and answer, in
// one process (bench/sendpath-child.ts), so the client and the socket layer
// do not share its noise. BENCH_BASE=<children.mjs> runs another build's
// (which must have the `sendpath` mode) in turns; the paired ratio is the claim.

import { spawn } from 'node:child_process';
import { fmt, tempDir } from './lib.js';

const BASE = process.env.BENCH_BASE;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const TOTAL = Number(process.env.BENCH_TOTAL ?? 100_000);

interface Result {
  cpuUs: number;
  wallUs: number;
  queued: number;
}

const CHILDREN = new URL('./children.mjs', import.meta.url).pathname;

/** One run in a fresh process of `script` (this build's children.mjs by default). */
function once(script = CHILDREN): Promise<Result> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [script, 'sendpath', tempDir(), String(TOTAL)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.once('exit', (code) => {
      try {
        const r = JSON.parse(out.trim().split('\n')[0] ?? '') as Result;
        if (r.queued !== TOTAL) throw new Error(`sendpath: ${r.queued} of ${TOTAL} queued`);
        resolve(r);
      } catch (err) {
        reject(
          new Error(
            `sendpath child (exit ${code}) gave no result: ${err instanceof Error ? err.message : String(err)}`,
          ),
        );
      }
    });
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? NaN;
}

export async function run(): Promise<void> {
  const mine: Result[] = [];
  const base: Result[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    if (BASE && r % 2 === 1) base.push(await once(BASE));
    mine.push(await once());
    if (BASE && r % 2 === 0) base.push(await once(BASE));
  }
  const show = (xs: Result[]): string =>
    `${fmt(median(xs.map((x) => x.cpuUs)), 2)} µs CPU (${xs.map((x) => fmt(x.cpuUs, 1)).join(' ')}), wall ${fmt(median(xs.map((x) => x.wallUs)), 1)} µs`;
  console.log(
    `send path in one process (${TOTAL} message.send, 100 sessions, 2000 in flight, journal on, no sockets; ${ROUNDS} rounds, medians per message)`,
  );
  console.log(`  this build   ${show(mine)}`);
  if (BASE) {
    const paired = mine.map((x, i) => x.cpuUs / (base[i]?.cpuUs ?? NaN));
    console.log(`  base build   ${show(base)}`);
    console.log(
      `  CPU this/base, paired rounds: median ${fmt(median(paired), 3)} (${paired.map((x) => fmt(x, 2)).join(' ')})`,
    );
  }
}
