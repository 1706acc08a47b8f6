// Sustained message.send throughput with 100 sessions, pipelined senders and
// the journal on, against raw one-way NDJSON parsing (the same process
// layout: a child that JSON.parses each line) measured in the same run.

import path from 'node:path';
import { cpuSeconds, fmt, LineConn, rpc, startChild, tempDir } from './lib.js';

/** A rate by the wall clock and by the CPU time the measured process used (robust on a loaded machine). */
interface Rate {
  wall: number;
  cpu: number;
}

const SESSIONS = 100;
const CONNECTIONS = 4;
const TOTAL = Number(process.env.BENCH_TOTAL ?? 200_000);
const WINDOW = 2_000; // requests in flight per connection

async function rawLinesPerSecond(): Promise<Rate> {
  const dir = tempDir();
  const sink = await startChild(['sink', path.join(dir, 'sink.sock')]);
  const conn = await LineConn.connect(sink.socket);
  const line = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message.send', params: { sessionId: 'x'.repeat(36), token: 'y'.repeat(48), to: 'session-42', summary: 'bench', message: 'message 123456' } }) + '\n';
  const batch = line.repeat(1000);
  const c0 = cpuSeconds(sink.pid);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < TOTAL / 1000; i++) conn.write(batch);
  const done = new Promise<string>((r) => conn.onLine(r));
  conn.write(JSON.stringify({ end: true }) + '\n');
  await done;
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = cpuSeconds(sink.pid) - c0;
  conn.close();
  await sink.stop();
  return { wall: TOTAL / secs, cpu: TOTAL / cpu };
}

async function hubMessagesPerSecond(script?: string): Promise<{ rate: Rate; queued: number }> {
  const dir = tempDir();
  const hub = await startChild(['hub', dir, JSON.stringify({ inboxItems: TOTAL })], script);
  const conns = await Promise.all(Array.from({ length: CONNECTIONS }, () => LineConn.connect(hub.socket)));
  const sessions: Array<{ sessionId: string; token: string; conn: LineConn }> = [];
  for (let i = 0; i < SESSIONS; i++) {
    const conn = conns[i % CONNECTIONS]!;
    const r = await rpc(conn, i + 1, 'session.register', { cwd: '/bench', name: `s-${i}` });
    sessions.push({ sessionId: r.sessionId as string, token: r.token as string, conn });
  }
  let queued = 0;
  const perConn = TOTAL / CONNECTIONS;
  const c0 = cpuSeconds(hub.pid);
  const t0 = process.hrtime.bigint();
  await Promise.all(
    conns.map(
      (conn, ci) =>
        new Promise<void>((resolve) => {
          const mine = sessions.filter((s) => s.conn === conn);
          let sent = 0;
          let answered = 0;
          const pump = (): void => {
            let out = '';
            while (sent < perConn && sent - answered < WINDOW) {
              const s = mine[sent % mine.length]!;
              const to = `s-${(ci + sent * 7) % SESSIONS}`;
              const target = to === `s-${sessions.indexOf(s)}` ? `s-${(sessions.indexOf(s) + 1) % SESSIONS}` : to;
              out += `{"jsonrpc":"2.0","id":${sent + 1000},"method":"message.send","params":{"sessionId":"${s.sessionId}","token":"${s.token}","to":"${target}","summary":"bench","message":"message ${ci}-${sent}"}}\n`;
              sent++;
            }
            if (out) conn.write(out);
          };
          conn.onLine((line) => {
            answered++;
            if (line.includes('"queued"')) queued++;
            if (answered === perConn) resolve();
            else if (sent - answered < WINDOW / 2) pump();
          });
          pump();
        }),
    ),
  );
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = cpuSeconds(hub.pid) - c0;
  for (const c of conns) c.close();
  await hub.stop();
  return { rate: { wall: TOTAL / secs, cpu: TOTAL / cpu }, queued };
}

/**
 * BENCH_AB=<children.mjs of another build>: that hub and this one in turns,
 * BENCH_ROUNDS rounds, each pair's CPU-per-message ratio (this one / that one).
 */
async function ab(other: string): Promise<void> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const ratios: number[] = [];
  console.log(`throughput A/B (${TOTAL} messages; B = ${other})`);
  for (let i = 0; i < rounds; i++) {
    const first = i % 2 === 0;
    const x = await hubMessagesPerSecond(first ? other : undefined);
    const y = await hubMessagesPerSecond(first ? undefined : other);
    const [b, a] = first ? [x, y] : [y, x];
    ratios.push(a.rate.cpu / b.rate.cpu);
    console.log(`  round ${i + 1}: this ${k(a.rate.cpu)} msg/CPU-s (${k(a.rate.wall)} wall), B ${k(b.rate.cpu)} msg/CPU-s (${k(b.rate.wall)} wall), this/B ${fmt(a.rate.cpu / b.rate.cpu, 2)}×`);
  }
  ratios.sort((p, q) => p - q);
  console.log(`  median this/B by CPU: ${fmt(ratios[Math.floor(ratios.length / 2)] ?? NaN, 2)}×`);
}

const k = (n: number): string => `${fmt(n / 1000, 0).padStart(6)}k`;

export async function run(): Promise<void> {
  if (process.env.BENCH_AB) return ab(process.env.BENCH_AB);
  // The raw baseline before and after the hub; the faster of the two (the machine's load moves).
  const before = await rawLinesPerSecond();
  const hub = await hubMessagesPerSecond();
  const after = await rawLinesPerSecond();
  const raw = { wall: Math.max(before.wall, after.wall), cpu: Math.max(before.cpu, after.cpu) };
  console.log(`throughput (${TOTAL} messages, ${SESSIONS} sessions, ${CONNECTIONS} pipelined connections, journal on${process.env.BENCH_HUB_FLAGS ? `, hub flags ${process.env.BENCH_HUB_FLAGS}` : ''})`);
  console.log(`                              wall clock     per CPU second of the process`);
  console.log(`  raw one-way NDJSON parse   ${k(raw.wall)} lines/s  ${k(raw.cpu)} lines/s`);
  console.log(`  hub message.send → queued  ${k(hub.rate.wall)} msg/s    ${k(hub.rate.cpu)} msg/s (${hub.queued} queued)`);
  console.log(`  ratio hub/raw: wall ${fmt(hub.rate.wall / raw.wall, 3)}, CPU ${fmt(hub.rate.cpu / raw.cpu, 3)} (goal ≥ 0.15)`);
}
