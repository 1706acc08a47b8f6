// message.send throughput with 100 sessions, pipelined senders and the
// journal on, against raw one-way NDJSON parsing (the same process layout: a
// child that JSON.parses each line) measured in the same run. Each process
// runs two timed phases of TOTAL lines: "cold" from its start (JIT warm-up
// included, as every figure before 2026-12-02 was) and "sustained", the next
// TOTAL on the same process, its queue still growing.

import fs from 'node:fs';
import path from 'node:path';
import { fmt, LineConn, rpc, startChild, tempDir } from './lib.js';

const SESSIONS = 100;
const CONNECTIONS = 4;
const TOTAL_DEFAULT = Number(process.env.BENCH_TOTAL ?? 200_000);
const TOTAL = TOTAL_DEFAULT;
const WINDOW = 2_000; // requests in flight per connection

/** One phase's rate (lines per second) and the CPU milliseconds the measured process spent on it. */
export interface Phase {
  rate: number;
  cpuMs: number;
}

/** Raw lines per second and the sink's CPU, cold and then sustained. */
async function rawLinesPerSecond(): Promise<{ cold: Phase; sustained: Phase }> {
  const dir = tempDir();
  const sink = await startChild(['sink', path.join(dir, 'sink.sock')]);
  const conn = await LineConn.connect(sink.socket);
  const line =
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'message.send',
      params: {
        sessionId: 'x'.repeat(36),
        token: 'y'.repeat(48),
        to: 'session-42',
        summary: 'bench',
        message: 'message 123456',
      },
    }) + '\n';
  const batch = line.repeat(1000);
  const phase = async (): Promise<Phase> => {
    const cpu0 = cpuMsOf(sink.pid);
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < TOTAL / 1000; i++) conn.write(batch);
    const done = new Promise<string>((r) => conn.onLine(r));
    conn.write(JSON.stringify({ end: true }) + '\n');
    await done;
    const secs = Number(process.hrtime.bigint() - t0) / 1e9;
    return { rate: TOTAL / secs, cpuMs: cpuMsOf(sink.pid) - cpu0 };
  };
  const cold = await phase();
  const sustained = await phase();
  conn.close();
  await sink.stop();
  return { cold, sustained };
}

/**
 * `history: false` starts the hub with its history store off; `after` runs on one connection before it stops.
 * `rate`, `cpuMs` and `queued` are the cold phase's; `sustained` (with `phases: 2`) the next `total` messages'.
 */
export async function hubMessagesPerSecond(
  opts: {
    history?: boolean;
    total?: number;
    phases?: 1 | 2;
    script?: string;
    after?: (conn: LineConn, uiToken: string) => Promise<void>;
  } = {},
): Promise<{ rate: number; queued: number; cpuMs: number; sustained?: Phase & { queued: number } }> {
  const TOTAL = opts.total ?? TOTAL_DEFAULT;
  const phases = opts.phases ?? 1;
  const dir = tempDir();
  const hub = await startChild(
    ['hub', dir, JSON.stringify({ inboxItems: TOTAL * phases }), ...(opts.history === false ? ['off'] : [])],
    opts.script,
  );
  const conns = await Promise.all(Array.from({ length: CONNECTIONS }, () => LineConn.connect(hub.socket)));
  const sessions: Array<{ sessionId: string; token: string; conn: LineConn }> = [];
  for (let i = 0; i < SESSIONS; i++) {
    const conn = conns[i % CONNECTIONS]!;
    const r = await rpc(conn, i + 1, 'session.register', { cwd: '/bench', name: `s-${i}` });
    sessions.push({ sessionId: r.sessionId as string, token: r.token as string, conn });
  }
  const perConn = TOTAL / CONNECTIONS;
  /** TOTAL more messages, `first` the number sent on each connection before. */
  const phase = async (first: number): Promise<Phase & { queued: number }> => {
    let queued = 0;
    const cpu0 = cpuMsOf(hub.pid);
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
                const n = first + sent;
                const s = mine[n % mine.length]!;
                const to = `s-${(ci + n * 7) % SESSIONS}`;
                const target = to === `s-${sessions.indexOf(s)}` ? `s-${(sessions.indexOf(s) + 1) % SESSIONS}` : to;
                out += `{"jsonrpc":"2.0","id":${n + 1000},"method":"message.send","params":{"sessionId":"${s.sessionId}","token":"${s.token}","to":"${target}","summary":"bench","message":"message ${ci}-${n}"}}\n`;
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
    return { rate: TOTAL / secs, cpuMs: cpuMsOf(hub.pid) - cpu0, queued };
  };
  const cold = await phase(0);
  const sustained = phases === 2 ? await phase(perConn) : undefined;
  if (opts.after) await opts.after(conns[0]!, hub.uiToken);
  for (const c of conns) c.close();
  await hub.stop();
  return { ...cold, ...(sustained !== undefined ? { sustained } : {}) };
}

/** User + system CPU milliseconds a process has used (Linux /proc; NaN elsewhere). */
function cpuMsOf(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
const CLOCK_TICKS = 100; // USER_HZ on Linux

/** BENCH_BASE=<children.mjs>: another build's hub (e.g. the commit before a change) in turns with this one. */
const BASE = process.env.BENCH_BASE;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (BASE ? 4 : 1));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? NaN;
}

type Row = { rate: number; cpuUs: number };
type Rows = Record<'raw' | 'hub' | 'base', Row[]>;

export async function run(): Promise<void> {
  const cold: Rows = { raw: [], hub: [], base: [] };
  const sustained: Rows = { raw: [], hub: [], base: [] };
  const row = (p: Phase): Row => ({ rate: p.rate, cpuUs: (p.cpuMs * 1000) / TOTAL });
  for (let r = 0; r < ROUNDS; r++) {
    const raw = await rawLinesPerSecond();
    cold.raw.push(row(raw.cold));
    sustained.raw.push(row(raw.sustained));
    for (const which of BASE && r % 2 === 1
      ? (['base', 'hub'] as const)
      : BASE
        ? (['hub', 'base'] as const)
        : (['hub'] as const)) {
      const hub = await hubMessagesPerSecond({ phases: 2, ...(which === 'base' ? { script: BASE } : {}) });
      const later = hub.sustained!;
      if (hub.queued !== TOTAL || later.queued !== TOTAL)
        throw new Error(`${which}: ${hub.queued} and ${later.queued} of ${TOTAL} queued`);
      cold[which].push(row(hub));
      sustained[which].push(row(later));
    }
  }
  console.log(
    `throughput (${TOTAL} messages per phase, ${SESSIONS} sessions, ${CONNECTIONS} pipelined connections, journal on, history on${ROUNDS > 1 ? `, ${ROUNDS} rounds, medians` : ''})`,
  );
  report('cold: the first messages of each process', cold);
  report(`sustained: the next ${TOTAL} on the same processes`, sustained);
}

function report(title: string, rows: Rows): void {
  const show = (k: keyof Rows): string => {
    const xs = rows[k];
    const rates = xs.map((x) => x.rate / 1000);
    return `${fmt(median(rates), 0).padStart(5)}k/s (${xs.map((x) => fmt(x.rate / 1000, 0)).join(' ')}), CPU µs each ${fmt(median(xs.map((x) => x.cpuUs)), 2)} (${xs.map((x) => fmt(x.cpuUs, 1)).join(' ')})`;
  };
  const ratio = (k: 'hub' | 'base'): string => {
    const wall = rows[k].map((x, i) => x.rate / (rows.raw[i]?.rate ?? NaN));
    const cpu = rows[k].map((x, i) => (rows.raw[i]?.cpuUs ?? NaN) / x.cpuUs);
    return `wall ${fmt(median(wall), 3)} (${wall.map((x) => fmt(x, 3)).join(' ')}), CPU ${fmt(median(cpu), 3)}`;
  };
  console.log(`  ${title}`);
  console.log(`    raw one-way NDJSON parse    ${show('raw')}`);
  console.log(`    hub message.send → queued   ${show('hub')}`);
  if (BASE) console.log(`    base hub (BENCH_BASE)       ${show('base')}`);
  console.log(`    ratio hub/raw: ${ratio('hub')} (target ≥ 0.15)`);
  if (BASE) {
    const paired = rows.hub.map((x, i) => x.cpuUs / (rows.base[i]?.cpuUs ?? NaN));
    console.log(`    ratio base/raw: ${ratio('base')}`);
    console.log(
      `    CPU per message this/base, paired rounds: median ${fmt(median(paired), 3)} (${paired.map((x) => fmt(x, 2)).join(' ')})`,
    );
  }
}
