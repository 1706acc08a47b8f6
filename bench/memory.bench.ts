// Hub RSS with 1000 sessions and 50 000 queued messages (journal on),
// against the RSS of an idle hub measured in the same run.

import { fmt, LineConn, rpc, rssMb, startChild, startServe, tempDir } from './lib.js';

/** BENCH_SERVE=1: measure a real `switchboard serve` (the product's process) instead of the benchmark's hub child. */
const SERVE = process.env.BENCH_SERVE === '1';

const SESSIONS = 1000;
const QUEUED = 50_000;
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 3000);
/** BENCH_LIMITS='{"historyQueueRecords":2000}': hub limits over the benchmark's own (the benchmark hub only). */
const LIMITS = JSON.parse(process.env.BENCH_LIMITS ?? '{}') as Record<string, number>;

export async function run(): Promise<void> {
  const dir = tempDir();
  const hub = SERVE
    ? await startServe(dir, true)
    : await startChild(['hub', dir, JSON.stringify({ inboxItems: 1000, ...LIMITS })]);
  // serve has no SIGUSR2 handler (the signal would end it): the heap report is the benchmark child's.
  const report = (): void => {
    if (!SERVE) process.kill(hub.pid, 'SIGUSR2');
  };
  const idle = rssMb(hub.pid);
  if (process.env.BENCH_BREAKDOWN) {
    report();
    await new Promise((r) => setTimeout(r, 1500));
  }
  const conns = await Promise.all(Array.from({ length: 10 }, () => LineConn.connect(hub.socket)));
  const sessions: Array<{ sessionId: string; token: string }> = [];
  for (let i = 0; i < SESSIONS; i++) {
    const r = await rpc(conns[i % 10]!, i + 1, 'session.register', {
      cwd: `/bench/project-${i}`,
      name: `session-${i}`,
    });
    sessions.push({ sessionId: r.sessionId as string, token: r.token as string });
  }
  await new Promise((r) => setTimeout(r, 300));
  const withSessions = rssMb(hub.pid);
  report();
  if (process.env.BENCH_BREAKDOWN) await new Promise((r) => setTimeout(r, 1500));
  const conn = conns[0]!;
  let answered = 0;
  let queued = 0;
  // Pipelined with a window, as adapters send: at most WINDOW requests in flight.
  const WINDOW = 1000;
  await new Promise<void>((resolve) => {
    let sent = 0;
    const pump = (): void => {
      let out = '';
      while (sent < QUEUED && sent - answered < WINDOW) {
        const s = sessions[sent % SESSIONS]!;
        out += `{"jsonrpc":"2.0","id":${sent},"method":"message.send","params":{"sessionId":"${s.sessionId}","token":"${s.token}","to":"session-${(sent + 1) % SESSIONS}","summary":"bench","message":"a message of ordinary length, number ${sent}, with some words in it"}}\n`;
        sent++;
      }
      if (out) conn.write(out);
    };
    conn.onLine((line) => {
      answered++;
      if (line.includes('"queued"')) queued++;
      if (answered === QUEUED) resolve();
      else if (sent - answered < WINDOW / 2) pump();
    });
    pump();
  });
  await new Promise((r) => setTimeout(r, 500));
  const loaded = rssMb(hub.pid);
  // The hub gives memory back once a burst is over (reclaim.ts, at its next sweeps): RSS a few seconds on.
  // Meanwhile one hub.info at a time: the longest answer shows what the collection cost a client.
  let worstMs = 0;
  const until = performance.now() + SETTLE_MS;
  for (let id = 1_000_000; performance.now() < until; id++) {
    const t0 = performance.now();
    await rpc(conns[1]!, id, 'hub.info', {});
    worstMs = Math.max(worstMs, performance.now() - t0);
    await new Promise((r) => setTimeout(r, 10));
  }
  const settled = rssMb(hub.pid);
  report();
  await new Promise((r) => setTimeout(r, process.env.BENCH_BREAKDOWN ? 1500 : 100));
  const afterSignal = rssMb(hub.pid);
  for (const c of conns) c.close();
  await hub.stop();
  console.log(`memory (${SESSIONS} sessions, ${queued} queued${SERVE ? ', switchboard serve' : ''})`);
  console.log(`  idle hub RSS     ${fmt(idle).padStart(7)} MB`);
  console.log(`  1000 sessions    ${fmt(withSessions).padStart(7)} MB`);
  console.log(`  loaded hub RSS   ${fmt(loaded).padStart(7)} MB (0.5 s after the burst)`);
  console.log(
    `  settled          ${fmt(settled).padStart(7)} MB (${SETTLE_MS / 1000} s later; target ≤ 100 MB); ratio settled/idle ${fmt(settled / idle, 2)}×`,
  );
  console.log(`  slowest hub.info while settling: ${fmt(worstMs)} ms`);
  if (process.env.BENCH_GC) console.log(`  after a forced GC ${fmt(afterSignal).padStart(6)} MB`);
}
