// The history store's cost on the send path: the throughput benchmark's
// hub run (100 sessions, pipelined senders, journal on) with history off and
// on, alternated in the same run (off, on, off, on, …) so machine noise hits
// both; the ratio of the medians is the claim (issue 18: ≤ 5 % slower).
// The hub's CPU time per message is reported beside the rate: on a shared
// machine it is the steadier measure. Also how much of a full-speed firehose
// the store kept (written vs gap).

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
  const offCpu: number[] = [];
  const onCpu: number[] = [];
  let kept = { written: 0, gap: 0, queued: 0 };
  for (let i = 0; i < ROUNDS; i++) {
    const o = await hubMessagesPerSecond({ history: false, total: TOTAL });
    off.push(o.rate);
    offCpu.push(o.cpuMs / (TOTAL / 1000));
    const r = await hubMessagesPerSecond({
      total: TOTAL,
      after: async (conn, uiToken) => {
        const s = (await rpc(conn, 1, 'history.status', { uiToken })) as { written: number; queued: number; gap: { records: number } };
        kept = { written: s.written, gap: s.gap.records, queued: s.queued };
      },
    });
    on.push(r.rate);
    onCpu.push(r.cpuMs / (TOTAL / 1000));
  }
  const cpuRatio = median(onCpu) / median(offCpu);
  const paired = median(on.map((x, i) => x / off[i]!));
  const pairedCpu = median(onCpu.map((x, i) => x / offCpu[i]!));
  const ratio = median(on) / median(off);
  console.log(`history on vs off (${TOTAL} messages per run, ${ROUNDS} alternated rounds, throughput benchmark's hub run)`);
  console.log(`  history off  ${off.map((x) => fmt(x / 1000, 0) + 'k').join(' ')} msg/s (median ${fmt(median(off) / 1000, 0)}k)`);
  console.log(`  history on   ${on.map((x) => fmt(x / 1000, 0) + 'k').join(' ')} msg/s (median ${fmt(median(on) / 1000, 0)}k)`);
  console.log(`  ratio on/off: ${fmt(ratio, 3)} of the medians, ${fmt(paired, 3)} median of the paired rounds (target ≥ 0.95)`);
  console.log(`  hub CPU per 1000 messages: off ${offCpu.map((x) => fmt(x, 1)).join(' ')} ms, on ${onCpu.map((x) => fmt(x, 1)).join(' ')} ms`);
  console.log(`  CPU ratio on/off: ${fmt(cpuRatio, 3)} of the medians, ${fmt(pairedCpu, 3)} median of the paired rounds (target ≤ 1.05)`);
  console.log(`  last run kept: ${kept.written} records written, ${kept.queued} still queued, ${kept.gap} counted as a gap`);
}
