// The relay under the faults a laptop meets, measured for truth, not speed:
// two hubs and a real nats-server on loopback; the sender sends through each
// fault; afterwards (broker and hubs back, the receiver has read everything)
// it compares what the sender knows with what happened. A row's "unknown"
// counts messages that reached the receiver while the sender holds no
// `delivered` receipt for them; "lost" counts sends answered `queued` that
// never arrived. Both must be 0. `npm run bench -- faults` (BENCH_N per phase).

import { RpcError } from '../core/client/client.js';
import type { Registration } from '../core/protocol/methods.js';
import { startNats, type Nats } from '../test/helpers/nats.js';
import { inProcessHub, sleep, until, type InProcessHub } from './in-process.js';
import { tempDir } from './lib.js';

const N = Number(process.env.BENCH_N ?? 40);
const PAUSE_MS = 10_000;

type Machine = InProcessHub;

// The relay is measured, not loop damping: the throttle is lifted (in-process.ts), as in relay.bench.ts.
const machine = (root: string, url: string, name: string): Promise<Machine> =>
  inProcessHub(root, { relay: { servers: [url], machine: name } });

async function restart(m: Machine, url: string, name: string): Promise<Machine> {
  m.client.close();
  await m.hub.close();
  return machine(m.root, url, name);
}

interface Sent {
  phase: string;
  text: string;
  answer: string;
  msgId: string | undefined;
}

export async function run(): Promise<void> {
  let nats: Nats = await startNats();
  const port = nats.port;
  let a = await machine(tempDir(), nats.url, 'laptop');
  let b = await machine(tempDir(), nats.url, 'buildbox');
  const reg = (m: Machine, name: string) =>
    m.client.call('session.register', { cwd: m.root, name, pid: process.pid, liveness: 'pid' });
  const alice: Registration = await reg(a, 'alice');
  const bob: Registration = await reg(b, 'bob');
  const auth = (r: Registration) => ({ sessionId: r.sessionId, token: r.token });
  await until('bob listed on laptop', async () =>
    (await a.client.call('agents.list', {})).rows.some((r) => r.name === 'bob'),
  );
  const sent: Sent[] = [];
  const send = async (phase: string, i: number): Promise<void> => {
    const text = `${phase} ${i}`;
    try {
      const r = await a.client.call(
        'message.send',
        { ...auth(alice), to: 'bob', summary: phase, message: text },
        { timeoutMs: 60_000 },
      );
      sent.push({ phase, text, answer: r.status, msgId: r.msg_id });
    } catch (err) {
      const e = err as RpcError;
      sent.push({
        phase,
        text,
        answer: e.reason ?? 'error',
        msgId: typeof e.data?.msg_id === 'string' ? e.data.msg_id : undefined,
      });
    }
  };
  const burst = async (phase: string, during?: () => Promise<void>): Promise<void> => {
    const sends = Promise.all(Array.from({ length: N }, (_, i) => sleep(i * 25).then(() => send(phase, i))));
    await during?.();
    await sends;
  };

  await burst('normal');
  await burst('broker paused 10 s', async () => {
    await sleep(200);
    process.kill(nats.proc.pid as number, 'SIGSTOP');
    await sleep(PAUSE_MS);
    process.kill(nats.proc.pid as number, 'SIGCONT');
  });
  await burst('broker killed, restarted', async () => {
    await sleep(300);
    await nats.stop();
    await sleep(2000);
    nats = await startNats(port);
  });
  // The receiver reads while the broker is down, and its hub restarts before the broker is back.
  const arrivedBodies: string[] = [];
  const bobReads = async (): Promise<number> => {
    let n = 0;
    for (;;) {
      const items = (await b.client.call('inbox.fetch', { ...auth(bob), limit: 100 })).items;
      if (items.length === 0) return n;
      for (const x of items) if (x.kind === 'message') arrivedBodies.push(x.text);
      n += items.length;
      await b.client.call('inbox.ack', { ...auth(bob), ids: items.map((x) => x.id) });
    }
  };
  await nats.stop();
  await bobReads();
  b = await restart(b, nats.url, 'buildbox');
  a = await restart(a, nats.url, 'laptop'); // and the sender's hub: its outstanding sends come back from its journal
  nats = await startNats(port);
  await until(
    'both hubs reconnected',
    () => a.hub.remote.relay?.connected === true && b.hub.remote.relay?.connected === true,
  );
  await until('bob listed again', async () =>
    (await a.client.call('agents.list', {})).rows.some((r) => r.name === 'bob'),
  );
  await burst('after sender and receiver restarts');

  // Everything back: the receiver reads what is left (late arrivals too); then the sender's receipts settle.
  await until(
    'nothing more arrives for a second',
    async () => (await bobReads()) === 0 && (await sleep(1000), (await bobReads()) === 0),
  );
  const arrived = new Set(
    sent.filter((s) => arrivedBodies.some((t) => t.includes(`\n${s.text}\n`))).map((s) => s.text),
  );
  const delivered = new Set<string>();
  const receipts = async (): Promise<void> => {
    for (;;) {
      const items = (await a.client.call('inbox.fetch', { ...auth(alice), limit: 100 })).items;
      if (items.length === 0) return;
      for (const x of items) if (x.kind === 'receipt' && x.status === 'delivered') delivered.add(x.origMsgId);
      await a.client.call('inbox.ack', { ...auth(alice), ids: items.map((x) => x.id) });
    }
  };
  await until(
    'receipts settled',
    async () => {
      await receipts();
      return sent.every((s) => !arrived.has(s.text) || (s.msgId !== undefined && delivered.has(s.msgId)));
    },
    60_000,
  ).catch((err: unknown) => console.log(String(err)));

  const others = [...new Set(sent.filter((s) => s.answer !== 'queued' && s.answer !== 'timeout').map((s) => s.answer))];
  console.log(
    `relay faults (n=${N} per phase; the sender's final knowledge vs what happened; other answers: ${others.join(', ') || 'none'})`,
  );
  console.log('  phase                                 sent  queued  timeout  other  arrived  unknown  lost');
  for (const phase of [...new Set(sent.map((s) => s.phase))]) {
    const rows = sent.filter((s) => s.phase === phase);
    const count = (f: (s: Sent) => boolean) => rows.filter(f).length;
    const unknown = count((s) => arrived.has(s.text) && !(s.msgId !== undefined && delivered.has(s.msgId)));
    const lost = count((s) => s.answer === 'queued' && !arrived.has(s.text));
    console.log(
      `  ${phase.padEnd(36)}  ${String(rows.length).padStart(4)}  ${String(count((s) => s.answer === 'queued')).padStart(6)}  ${String(count((s) => s.answer === 'timeout')).padStart(7)}  ${String(count((s) => s.answer !== 'queued' && s.answer !== 'timeout')).padStart(5)}  ${String(count((s) => arrived.has(s.text))).padStart(7)}  ${String(unknown).padStart(7)}  ${String(lost).padStart(4)}`,
    );
  }
  a.client.close();
  b.client.close();
  await a.hub.close();
  await b.hub.close();
  await nats.stop();
}
