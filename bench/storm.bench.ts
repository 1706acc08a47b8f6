// Fairness under a storm: a well-behaved client's hub.info round
// trips, first on a quiet hub (the baseline, same run), then while another
// process's 20 connections send 100 000 malformed frames at once (each gets
// an error answer). Prints both p99 and their ratio (goal ≤ 5×). The hub and
// the flood are separate processes; the client is this process.

import os from 'node:os';
import { fmt, LineConn, percentile, startChild, tempDir } from './lib.js';

const CONNS = Number(process.env.BENCH_STORM_CONNS ?? 20);
const FRAMES = Number(process.env.BENCH_STORM_FRAMES ?? 100_000);
const QUIET = 3_000;
const WARMUP = 500;

async function roundTrip(conn: LineConn, id: number): Promise<number> {
  const t0 = process.hrtime.bigint();
  await conn.request(`{"jsonrpc":"2.0","id":${id},"method":"hub.info"}`);
  return Number(process.hrtime.bigint() - t0) / 1000;
}

export async function run(): Promise<void> {
  const dir = tempDir();
  const hub = await startChild(['hub', dir, process.env.BENCH_STORM_LIMITS ?? '{}']); // e.g. {"linesPerTurn":32}
  const conn = await LineConn.connect(hub.socket);
  let id = 1;
  for (let i = 0; i < WARMUP; i++) await roundTrip(conn, id++);
  const quiet: number[] = [];
  for (let i = 0; i < QUIET; i++) quiet.push(await roundTrip(conn, id++));

  const flood = await startChild(['flood', hub.socket, String(CONNS), String(FRAMES)]);
  // Diagnostic: BENCH_STORM_NICE=19 keeps the flooding process from taking CPU from the hub and this client.
  if (process.env.BENCH_STORM_NICE) os.setPriority(flood.pid, Number(process.env.BENCH_STORM_NICE));
  let floodMs = NaN;
  const done = new Promise<void>((resolve) => {
    let out = '';
    flood.proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /\{"done":([\d.]+)\}/.exec(out);
      if (m) {
        floodMs = Number(m[1]);
        resolve();
      }
    });
  });
  let storming = true;
  void done.then(() => (storming = false));
  const storm: number[] = [];
  while (storming) storm.push(await roundTrip(conn, id++));
  conn.close();
  await flood.stop();
  await hub.stop();

  quiet.sort((a, b) => a - b);
  storm.sort((a, b) => a - b);
  const q99 = percentile(quiet, 99);
  const s99 = percentile(storm, 99);
  console.log(
    `storm (${CONNS} connections, ${FRAMES} malformed frames, hub.info round trips, µs)   n      p50      p99      max`,
  );
  console.log(
    `  quiet baseline                ${String(quiet.length).padStart(6)}  ${fmt(percentile(quiet, 50)).padStart(7)}  ${fmt(q99).padStart(7)}  ${fmt(quiet.at(-1) ?? NaN).padStart(7)}`,
  );
  console.log(
    `  during the storm              ${String(storm.length).padStart(6)}  ${fmt(percentile(storm, 50)).padStart(7)}  ${fmt(s99).padStart(7)}  ${fmt(storm.at(-1) ?? NaN).padStart(7)}`,
  );
  console.log(`  storm answered in ${fmt(floodMs, 0)} ms; ratio storm/quiet p99: ${fmt(s99 / q99, 2)}× (goal ≤ 5×)`);
}
