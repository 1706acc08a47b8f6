// A full disk during a burst, measured for truth, not speed: the hub's state
// directory on a small tmpfs (needs root; says so and stops elsewhere), most
// of it taken by another file, then senders send in bursts until well after
// the disk is full. Space comes back, every receiver reads and acknowledges
// everything, and the table compares, per answer the sender got, what really
// happened: in a receiver's inbox, a `delivered` receipt, the history
// outcome. A send answered with an error must be in no inbox, earn no
// receipt and be recorded `failed` (or not at all); a send answered `queued`
// must be in exactly one inbox, delivered, and recorded `delivered`.
// `npm run bench -- full-disk` (BENCH_N sends, default 2400).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { RpcError } from '../core/client/client.js';
import type { Registration } from '../core/protocol/methods.js';
import { inProcessHub } from './in-process.js';
import { tempDir } from './lib.js';

const N = Number(process.env.BENCH_N ?? 2400);
const SENDERS = 8;
const RECEIVERS = 4;
const BURST = 24;
const BODY_BYTES = 4 * 1024;
const DISK_KIB = 64 * 1024;

/** The send's number, wherever its text is framed: `#17 xxx…` → `17`. */
function numberOf(text: string): string {
  return /#(\d+) /.exec(text)?.[1] ?? text;
}

interface Sent {
  text: string;
  answer: string;
  msgId: string | undefined;
  sender: Registration;
}

export async function run(): Promise<void> {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) {
    console.log('full-disk: skipped (mounting a small tmpfs for the state directory needs root on Linux)');
    return;
  }
  const root = tempDir();
  const home = path.join(root, 'home');
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${DISK_KIB}k,mode=0700`, 'tmpfs', home]).status !== 0) {
    console.log('full-disk: skipped (this machine does not let us mount a tmpfs: a container?)');
    return;
  }
  try {
    // The throttle is lifted (in-process.ts): the disk is measured, not loop damping. History keeps a 2 MiB reserve
    // (the default 64 MiB is more than this disk): below it it writes nothing and counts a gap, and must still agree
    // with the answers.
    const { hub, client: c } = await inProcessHub(
      root,
      {},
      { historyReserveBytes: 2 * 1024 * 1024, inboxItems: 100_000 },
    );
    const reg = (name: string): Promise<Registration> =>
      c.call('session.register', { cwd: root, name, pid: process.pid, liveness: 'pid' });
    const senders = await Promise.all(Array.from({ length: SENDERS }, (_, i) => reg(`s${i}`)));
    const receivers = await Promise.all(Array.from({ length: RECEIVERS }, (_, i) => reg(`r${i}`)));
    const auth = (r: Registration) => ({ sessionId: r.sessionId, token: r.token });
    const free = (): number => {
      const st = fs.statfsSync(home);
      return st.bavail * st.bsize;
    };
    // Room for about a third of the burst: the disk fills during it.
    const room = Math.floor((N / 3) * BODY_BYTES * 1.3);
    const filler = path.join(home, 'filler');
    fs.writeFileSync(filler, Buffer.alloc(process.env.BENCH_NO_FILL ? 0 : Math.max(0, free() - room)));

    const sent: Sent[] = [];
    for (let i = 0; i < N; i += BURST) {
      const burst = Array.from({ length: Math.min(BURST, N - i) }, (_, k) => {
        const n = i + k;
        const sender = senders[n % SENDERS]!;
        const text = `#${n} `.padEnd(BODY_BYTES, 'x');
        return c.call('message.send', { ...auth(sender), to: `r${n % RECEIVERS}`, summary: 's', message: text }).then(
          (r) => ({ text, answer: r.reason ? `${r.status} (${r.reason})` : r.status, msgId: r.msg_id, sender }),
          (err: unknown) => ({
            text,
            answer: err instanceof RpcError ? err.reason : String(err),
            msgId: undefined,
            sender,
          }),
        );
      });
      sent.push(...(await Promise.all(burst)));
    }
    fs.rmSync(filler); // space comes back

    // Every receiver reads and acknowledges everything it has.
    const inboxOf = new Map<string, string>(); // text head → receiver
    for (const r of receivers)
      for (;;) {
        const items = (await c.call('inbox.fetch', { ...auth(r), limit: 1000 })).items;
        const ids: string[] = [];
        for (const item of items)
          if (item.kind === 'message') {
            inboxOf.set(numberOf(item.text), r.name);
            ids.push(item.id);
          }
        if (ids.length === 0) break;
        await c.call('inbox.ack', { ...auth(r), ids });
      }
    // What each sender was told afterwards.
    const delivered = new Set<string>();
    for (const s of senders)
      for (const item of (await c.call('inbox.fetch', { ...auth(s), limit: 1000 })).items)
        if (item.kind === 'receipt' && item.status === 'delivered') delivered.add(item.origMsgId);
    await new Promise((r) => setTimeout(r, 1500)); // history writes in batches between sends; let the last go
    const recorded = new Map<string, string>();
    // One conversation per sender and receiver: each holds fewer messages than a page (500).
    for (const sn of senders)
      for (const rc of receivers)
        for (const m of (
          await c.call('history.conversation', { uiToken: hub.uiToken, between: [sn.name, rc.name], limit: 500 })
        ).messages)
          recorded.set(numberOf(m.text), m.outcome);
    const rows = new Map<string, { n: number; inInbox: number; receipt: number; outcomes: Map<string, number> }>();
    for (const s of sent) {
      const row = rows.get(s.answer) ?? { n: 0, inInbox: 0, receipt: 0, outcomes: new Map() };
      row.n++;
      if (inboxOf.has(numberOf(s.text))) row.inInbox++;
      if (s.msgId !== undefined && delivered.has(s.msgId)) row.receipt++;
      const outcome = recorded.get(numberOf(s.text)) ?? '(not recorded)';
      row.outcomes.set(outcome, (row.outcomes.get(outcome) ?? 0) + 1);
      rows.set(s.answer, row);
    }
    console.log(
      `\nfull disk during a burst: ${N} sends of ${BODY_BYTES / 1024} KiB from ${SENDERS} senders to ${RECEIVERS} receivers, state directory on a ${DISK_KIB / 1024} MiB tmpfs`,
    );
    console.log('| answer | sends | in an inbox | delivered receipt | history |');
    console.log('|---|---:|---:|---:|---|');
    const hs = await c.call('history.status', { uiToken: hub.uiToken });
    let lies = 0;
    let behind = 0;
    for (const [answer, row] of rows) {
      const outcomes = [...row.outcomes].map(([o, n]) => `${o} ${n}`).join(', ');
      console.log(`| ${answer} | ${row.n} | ${row.inInbox} | ${row.receipt} | ${outcomes} |`);
      const count = (...o: string[]) => o.reduce((t, x) => t + (row.outcomes.get(x) ?? 0), 0);
      if (answer.startsWith('queued')) {
        lies += row.n - row.inInbox + (row.n - row.receipt) + (row.n - count('delivered', 'queued', '(not recorded)'));
        behind += count('queued'); // delivered, and history still says queued
      } else lies += row.inInbox + row.receipt + (row.n - count('failed', '(not recorded)'));
    }
    console.log(
      `answers, inboxes and receipts that contradict what happened: ${lies} (must be 0); delivered but ` +
        `"queued" in history: ${behind}; history's reported gap: ${hs.gap.records} records; its last error: ` +
        `${hs.lastError ?? 'none'}`,
    );
    c.close();
    await hub.close();
  } finally {
    spawnSync('umount', ['-l', home]);
    fs.rmSync(root, { recursive: true, force: true });
  }
}
