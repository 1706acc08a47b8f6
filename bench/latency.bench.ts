// Send → receiver-notified latency through the hub (a separate process,
// journal on) against a raw Node UDS NDJSON ping-pong measured in the same
// run. Sequential: one message in flight at a time.

import path from 'node:path';
import { fmt, LineConn, percentile, rpc, startChild, tempDir } from './lib.js';

const N = Number(process.env.BENCH_N ?? 20_000);
const WARMUP = 2_000;

async function rawRoundTrips(): Promise<number[]> {
  const dir = tempDir();
  const echo = await startChild(['echo', path.join(dir, 'echo.sock')]);
  const conn = await LineConn.connect(echo.socket);
  const samples: number[] = [];
  for (let i = 0; i < N + WARMUP; i++) {
    const t0 = process.hrtime.bigint();
    await conn.request(JSON.stringify({ id: i, method: 'ping', params: { text: `message ${i}` } }));
    if (i >= WARMUP) samples.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  conn.close();
  await echo.stop();
  return samples;
}

async function hubSendToNotify(): Promise<number[]> {
  const dir = tempDir();
  const hub = await startChild(['hub', dir, JSON.stringify({ inboxItems: 1_000_000 })]);
  const a = await LineConn.connect(hub.socket);
  const b = await LineConn.connect(hub.socket);
  const ra = await rpc(a, 1, 'session.register', { cwd: '/bench/a', name: 'a' });
  const rb = await rpc(b, 1, 'session.register', { cwd: '/bench/b', name: 'b' });
  await rpc(b, 2, 'inbox.subscribe', { sessionId: rb.sessionId, token: rb.token });
  const samples: number[] = [];
  for (let i = 0; i < N + WARMUP; i++) {
    const line = JSON.stringify({
      jsonrpc: '2.0',
      id: i + 10,
      method: 'message.send',
      params: { sessionId: ra.sessionId, token: ra.token, to: 'b', summary: 'bench', message: `message ${i}` },
    });
    const t0 = process.hrtime.bigint();
    let notified = 0n;
    const answered = new Promise<void>((resolve, reject) =>
      a.onLine((reply) => (reply.includes('"queued"') ? resolve() : reject(new Error(`send not queued: ${reply}`)))),
    );
    const pushed = new Promise<void>((r) =>
      b.onLine(() => {
        notified = process.hrtime.bigint();
        r();
      }),
    );
    a.write(line + '\n');
    await Promise.all([answered, pushed]);
    if (i >= WARMUP) samples.push(Number(notified - t0) / 1000);
  }
  a.close();
  b.close();
  await hub.stop();
  return samples;
}

export async function run(): Promise<void> {
  const raw = (await rawRoundTrips()).sort((x, y) => x - y);
  const hub = (await hubSendToNotify()).sort((x, y) => x - y);
  const rawP50 = percentile(raw, 50);
  const hubP50 = percentile(hub, 50);
  console.log(`latency (n=${N}, µs)            p50      p99`);
  console.log(`  raw UDS NDJSON round trip  ${fmt(rawP50).padStart(7)}  ${fmt(percentile(raw, 99)).padStart(7)}`);
  console.log(`  hub send → notified        ${fmt(hubP50).padStart(7)}  ${fmt(percentile(hub, 99)).padStart(7)}`);
  console.log(
    `  ratio hub/raw p50: ${fmt(hubP50 / rawP50, 2)}× (target ≤ 3×); hub p99 ${fmt(percentile(hub, 99) / 1000, 3)} ms (target ≤ 0.5 ms)`,
  );
}
