// The history store's cost on the send path: the throughput benchmark's
// hub run (100 sessions, pipelined senders, journal on) with history off and
// on, alternated in the same run (off, on, off, on, …) so machine noise hits
// both; the ratio of the medians is the claim (issue 18: ≤ 5 % slower).
// Also how much of a full-speed firehose the store kept (written vs gap).

import { fmt, rpc } from './lib.js';
import { hubMessagesPerSecond } from './throughput.bench.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TOTAL = Number(process.env.BENCH_TOTAL ?? 200_000);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

export async function run(): Promise<void> {
  const off: number[] = [];
  const on: number[] = [];
  let kept = { written: 0, gap: 0, queued: 0 };
  for (let i = 0; i < ROUNDS; i++) {
    off.push((await hubMessagesPerSecond({ history: false, total: TOTAL })).rate);
    const r = await hubMessagesPerSecond({
      total: TOTAL,
      after: async (conn, uiToken) => {
        const s = (await rpc(conn, 1, 'history.status', { uiToken })) as { written: number; queued: number; gap: { records: number } };
        kept = { written: s.written, gap: s.gap.records, queued: s.queued };
      },
    });
    on.push(r.rate);
  }
  const ratio = median(on) / median(off);
  console.log(`history on vs off (${TOTAL} messages per run, ${ROUNDS} alternated rounds, throughput benchmark's hub run)`);
  console.log(`  history off  ${off.map((x) => fmt(x / 1000, 0) + 'k').join(' ')} msg/s (median ${fmt(median(off) / 1000, 0)}k)`);
  console.log(`  history on   ${on.map((x) => fmt(x / 1000, 0) + 'k').join(' ')} msg/s (median ${fmt(median(on) / 1000, 0)}k)`);
  console.log(`  ratio on/off: ${fmt(ratio, 3)} (target ≥ 0.95)`);
  console.log(`  last run kept: ${kept.written} records written, ${kept.queued} still queued, ${kept.gap} counted as a gap`);
}
