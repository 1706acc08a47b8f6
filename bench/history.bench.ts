// The history store's cost on the send path: the throughput benchmark's
// hub run (100 sessions, pipelined senders, journal on) with history off and
// on, alternated in the same run (off, on, off, on, …) so machine noise hits
// both; the ratio of the medians is the claim (≤ 5 % slower).
// Then the same send path in one process, history switched on and off in
// alternating blocks (BENCH_BLOCK_PAIRS × 2 blocks of BENCH_BLOCK messages):
// the steadier figure on a shared machine, whose drifts hit both alike.
// The hub's CPU time per message is reported beside the rate: on a shared
// machine it is the steadier measure. Also how much of a full-speed firehose
// the store kept (written vs gap).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HistoryRecorder } from '../core/history/recorder.js';
import { LIMITS } from '../core/protocol/limits.js';
import { fmt, rpc, tempDir } from './lib.js';
import { hubMessagesPerSecond } from './throughput.bench.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BLOCK_PAIRS = Number(process.env.BENCH_BLOCK_PAIRS ?? 40);
const BLOCK = Number(process.env.BENCH_BLOCK ?? 10_000);
const CHILDREN = new URL('./children.mjs', import.meta.url).pathname;
const TOTAL = Number(process.env.BENCH_TOTAL ?? 200_000);

/** History on and off in alternating blocks (ABBA) of one in-process hub: the machine's drifts hit both alike. */
function blocks(): void {
  const r = spawnSync(process.execPath, [CHILDREN, 'historyblocks', tempDir(), String(BLOCK_PAIRS), String(BLOCK)], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = r.stdout.split('\n')[0] ?? '';
  if (r.status !== 0 || !line.startsWith('{')) throw new Error(`historyblocks child failed: ${r.status} ${r.stderr}`);
  const { on, off } = JSON.parse(line) as { on: number[]; off: number[] };
  const pairs = on.map((x, i) => x / off[i]!).sort((a, b) => a - b);
  const q = (p: number): number => pairs[Math.min(pairs.length - 1, Math.floor(p * pairs.length))]!;
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  console.log(
    `  in one process, ${BLOCK_PAIRS} pairs of ${BLOCK}-message blocks, history on/off alternated (ABBA): CPU per message on ${fmt(median(on), 2)} µs, off ${fmt(median(off), 2)} µs`,
  );
  console.log(
    `    on/off: ${fmt(sum(on) / sum(off), 3)} of the sums, ${fmt(median(pairs), 3)} median of the pairs (quartiles ${fmt(q(0.25), 3)}–${fmt(q(0.75), 3)}; target ≤ 1.05)`,
  );
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/** Nanoseconds the four send-path calls of one message take (what admission and the hub add per message); objects prebuilt, as the hub has them. */
function hookCost(): { room: number; full: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sbh-'));
  const n = 20_000;
  const envs = Array.from({ length: n }, (_, i) => ({
    msgId: `m-${i}`,
    at: i,
    fromSessionId: 'sa',
    fromName: 's-1',
    fromAddress: 'uds:/a',
    summary: 'bench',
    body: `message ${i}`,
  }));
  const acts = envs.map((e) => ({
    at: e.at,
    kind: 'decision' as const,
    status: 'deliver',
    msgId: e.msgId,
    sender: 's-1',
    receiver: 's-2',
    reason: 'accept',
  }));
  const items = envs.map((e) => ({
    kind: 'message' as const,
    id: e.msgId,
    from: { address: 'uds:/a', name: 's-1', sessionId: 'sa' },
    summary: 'bench',
    text: e.body,
    at: e.at,
    approvedAfterHold: false,
  }));
  const bob = { id: 'sb', name: 's-2', team: null };
  const time = (queueRecords: number): number => {
    const r = new HistoryRecorder({
      stateDir: dir,
      limits: { ...LIMITS, historyQueueRecords: queueRecords, historyFlushMs: 3_600_000 },
      now: () => 0,
      policy: () => ({ maxAgeMs: 1e12, maxBytes: 1e12 }),
      onError: () => undefined,
    });
    r.open();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) {
      r.message(envs[i]!, bob, null);
      r.activity(acts[i]!);
      r.item(items[i]!);
      r.outcome(envs[i]!.msgId, 'queued', undefined);
    }
    const ns = Number(process.hrtime.bigint() - t0) / n;
    r.close();
    return ns;
  };
  for (let i = 0; i < 3; i++) time(0); // warm-up
  time(4 * n);
  return { room: time(4 * n), full: time(0) };
}

export async function run(): Promise<void> {
  const off: number[] = [];
  const on: number[] = [];
  const offCpu: number[] = [];
  const onCpu: number[] = [];
  let kept = { written: 0, gap: 0, queued: 0, writeMs: 0 };
  let runMs = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const o = await hubMessagesPerSecond({ history: false, total: TOTAL });
    off.push(o.rate);
    offCpu.push(o.cpuMs / (TOTAL / 1000));
    const r = await hubMessagesPerSecond({
      total: TOTAL,
      after: async (conn, uiToken) => {
        const s = (await rpc(conn, 1, 'history.status', { uiToken })) as {
          written: number;
          queued: number;
          gap: { records: number };
          writeMs: number;
        };
        kept = { written: s.written, gap: s.gap.records, queued: s.queued, writeMs: s.writeMs };
      },
    });
    on.push(r.rate);
    runMs = (TOTAL / r.rate) * 1000;
    onCpu.push(r.cpuMs / (TOTAL / 1000));
  }
  const cpuRatio = median(onCpu) / median(offCpu);
  const paired = median(on.map((x, i) => x / off[i]!));
  const pairedCpu = median(onCpu.map((x, i) => x / offCpu[i]!));
  const ratio = median(on) / median(off);
  console.log(
    `history on vs off (${TOTAL} messages per run, ${ROUNDS} alternated rounds, throughput benchmark's hub run)`,
  );
  console.log(
    `  history off  ${off.map((x) => fmt(x / 1000, 0) + 'k').join(' ')} msg/s (median ${fmt(median(off) / 1000, 0)}k)`,
  );
  console.log(
    `  history on   ${on.map((x) => fmt(x / 1000, 0) + 'k').join(' ')} msg/s (median ${fmt(median(on) / 1000, 0)}k)`,
  );
  console.log(
    `  ratio on/off: ${fmt(ratio, 3)} of the medians, ${fmt(paired, 3)} median of the paired rounds (target ≥ 0.95)`,
  );
  console.log(
    `  hub CPU per 1000 messages: off ${offCpu.map((x) => fmt(x, 1)).join(' ')} ms, on ${onCpu.map((x) => fmt(x, 1)).join(' ')} ms`,
  );
  console.log(
    `  CPU ratio on/off: ${fmt(cpuRatio, 3)} of the medians, ${fmt(pairedCpu, 3)} median of the paired rounds (target ≤ 1.05)`,
  );
  console.log(
    `  last run kept: ${kept.written} records written, ${kept.queued} still queued, ${kept.gap} counted as a gap`,
  );
  console.log(
    `  last run: ${kept.writeMs} ms of the hub's event loop writing history in a ${fmt(runMs, 0)} ms run (${fmt((100 * kept.writeMs) / runMs, 2)} %)`,
  );
  blocks();
  const hooks = hookCost();
  console.log(
    `  send-path hooks per message (4 records, in process): ${fmt(hooks.room, 0)} ns while the queue fills (GC of retained records included), ${fmt(hooks.full, 0)} ns with it full`,
  );
  console.log(
    `    = ${fmt((100 * hooks.room) / (median(onCpu) * 1000), 2)} % / ${fmt((100 * hooks.full) / (median(onCpu) * 1000), 2)} % of the hub's CPU per message`,
  );
}
