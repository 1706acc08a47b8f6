// Session churn against a real `switchboard serve`: RSS when idle, then after
// storms of register/exit cycles (connection-bound sessions that disconnect;
// every 10th one first gets a message, so it stays dormant for a resume).
// Goal (a hub that runs for weeks must not grow): RSS after 10 000 cycles (and a settle) ≤ idle RSS + 20 MB.

import fs from 'node:fs';
import path from 'node:path';
import { fmt, LineConn, rpc, rssMb, startServe, tempDir } from './lib.js';

const CYCLES = Number(process.env.CHURN_CYCLES ?? 10_000);
const STORMS = 2;
const PARALLEL = 8; // concurrent register/exit loops
const WITH_MESSAGE_EVERY = 10; // these end with an unread message: dormant, not forgotten
const QUICK_MS = 2000; // right after a storm: V8's young generation is still at its peak size
const SETTLE_MS = 15_000; // V8's memory reducer shrinks the young generation after a few seconds idle
const GOAL_MB = 20;

/** RssAnon / RssFile of a process, MB (file-backed pages are code and data files, not the hub's data). */
function rssParts(pid: number): string {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string): number => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024;
  return `anon ${fmt(kb('RssAnon'))}, file ${fmt(kb('RssFile'))}`;
}

async function storm(socket: string, sender: { sessionId: string; token: string }, offset: number): Promise<number> {
  let next = 0;
  let dormant = 0;
  let id = 1;
  const loop = async (): Promise<void> => {
    const senderConn = await LineConn.connect(socket); // LineConn has one request in flight at a time
    while (next < CYCLES) {
      const i = offset + next++;
      const conn = await LineConn.connect(socket);
      const reg = await rpc(conn, id++, 'session.register', { cwd: `/bench/churn-${i % 20}`, name: `churn-${i}` });
      if (i % WITH_MESSAGE_EVERY === 0) {
        await rpc(senderConn, id++, 'message.send', {
          sessionId: sender.sessionId,
          token: sender.token,
          to: reg.address,
          summary: 'churn',
          message: `for ${i}`,
        });
        dormant++;
      }
      conn.close();
    }
    senderConn.close();
  };
  await Promise.all(Array.from({ length: PARALLEL }, loop));
  return dormant;
}

export async function run(): Promise<void> {
  const dir = tempDir();
  const hub = await startServe(dir);
  const conn = await LineConn.connect(hub.socket);
  const s = await rpc(conn, 1, 'session.register', { cwd: '/bench/sender', name: 'sender' });
  // Receipts (undelivered) for the sender pile up in its inbox; it acknowledges nothing, as a silent agent would.
  const sender = { sessionId: s.sessionId as string, token: s.token as string };
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const idle = rssMb(hub.pid);
  console.log(`  (idle: ${rssParts(hub.pid)})`);
  const after: Array<{ quick: number; settled: number }> = [];
  let dormant = 0;
  let busyMs = 0;
  for (let k = 0; k < STORMS; k++) {
    const t0 = performance.now();
    dormant += await storm(hub.socket, sender, k * CYCLES);
    busyMs += performance.now() - t0;
    await new Promise((r) => setTimeout(r, QUICK_MS));
    const quick = rssMb(hub.pid);
    await new Promise((r) => setTimeout(r, SETTLE_MS - QUICK_MS));
    after.push({ quick, settled: rssMb(hub.pid) });
    console.log(`  (storm ${k + 1}: ${rssParts(hub.pid)})`);
  }
  const seconds = busyMs / 1000;
  const journal = fs.statSync(path.join(dir, 'home', 'journal.ndjson')).size / (1024 * 1024);
  conn.close();
  await hub.stop();
  console.log(
    `churn (${STORMS} storms of ${CYCLES} register/exit cycles, ${PARALLEL} in parallel; ${dormant} ended with an unread message)`,
  );
  console.log(`  idle serve RSS        ${fmt(idle).padStart(7)} MB`);
  after.forEach(({ quick, settled }, k) => {
    console.log(
      `  storm ${k + 1}, after ${QUICK_MS / 1000} s    ${fmt(quick).padStart(7)} MB (+${fmt(quick - idle)} MB)`,
    );
    console.log(
      `  storm ${k + 1}, after ${SETTLE_MS / 1000} s   ${fmt(settled).padStart(7)} MB (+${fmt(settled - idle)} MB; goal ≤ +${GOAL_MB} MB: ${settled - idle <= GOAL_MB ? 'met' : 'NOT met'})`,
    );
  });
  console.log(`  ${fmt((STORMS * CYCLES) / seconds, 0)} cycles/s; journal ${fmt(journal)} MB`);
}
