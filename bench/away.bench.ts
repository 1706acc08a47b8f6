// Mail for a machine that is away, measured for truth: two hubs in one
// process and a real nats-server with JetStream (its files in one directory
// across restarts). bob's machine goes away (its hub stopped); alice sends
// BENCH_N messages by name, the broker is killed and restarted, alice's hub
// restarts and sends BENCH_N more by address; then alice's machine goes
// away too, bob's comes back and reads everything, the broker restarts
// again, and alice's hub comes back for its receipts. Counted: answers,
// what bob got (once, twice, never), and the `delivered` receipts alice got
// (once, twice, never). The same first phase against a broker without
// JetStream is the baseline (direct mode: `unreachable`).
// `npm run bench -- away` (only when named; needs nats-server).

import path from 'node:path';
import { RpcError } from '../core/client/client.js';
import type { Registration } from '../core/protocol/methods.js';
import { startNats, type Nats } from '../test/helpers/nats.js';
import { inProcessHub, sleep, until, stopInProcess, type InProcessHub } from './in-process.js';
import { tempDir } from './lib.js';

const N = Number(process.env.BENCH_N ?? 100);

type Machine = InProcessHub;

const machine = (root: string, url: string, name: string): Promise<Machine> =>
  inProcessHub(root, { relay: { servers: [url], machine: name, presenceSeconds: 3 } });
const stop = stopInProcess;

const reg = (m: Machine, name: string) =>
  m.client.call('session.register', { cwd: m.root, name, pid: process.pid, liveness: 'pid' });
const auth = (r: Registration) => ({ sessionId: r.sessionId, token: r.token });

async function send(
  m: Machine,
  from: Registration,
  to: string,
  text: string,
): Promise<{ answer: string; id?: string }> {
  try {
    const r = await m.client.call('message.send', { ...auth(from), to, summary: 'away', message: text });
    return { answer: r.status, id: r.msg_id };
  } catch (err) {
    return { answer: (err as RpcError).reason ?? 'error' };
  }
}

const tally = (answers: string[]) =>
  [...new Set(answers)].map((a) => `${a} ${answers.filter((x) => x === a).length}`).join(', ');

/** Direct mode, the baseline: the same sends to a machine that is away, on a broker without JetStream. */
async function direct(): Promise<string> {
  const nats = await startNats();
  const a = await machine(tempDir(), nats.url, 'laptop');
  const b = await machine(tempDir(), nats.url, 'buildbox');
  const alice = await reg(a, 'alice');
  const bob = await reg(b, 'bob');
  await until('bob listed', async () => (await a.client.call('agents.list', {})).rows.some((r) => r.name === 'bob'));
  await stop(b);
  const answers: string[] = [];
  for (let i = 0; i < N; i++) answers.push((await send(a, alice, `peer:buildbox/${bob.sessionId}`, `d ${i}`)).answer);
  await stop(a);
  await nats.stop();
  return tally(answers);
}

export async function run(): Promise<void> {
  const store = path.join(tempDir(), 'js');
  let nats: Nats = await startNats(undefined, { jetstreamDir: store });
  const port = nats.port;
  let a = await machine(tempDir(), nats.url, 'laptop');
  let b = await machine(tempDir(), nats.url, 'buildbox');
  const alice = await reg(a, 'alice');
  const bob = await reg(b, 'bob');
  await until('store mode', () => a.hub.remote.relay?.mode === 'store' && b.hub.remote.relay?.mode === 'store');
  await until('bob listed', async () => (await a.client.call('agents.list', {})).rows.some((r) => r.name === 'bob'));

  const sent: Array<{ text: string; answer: string; id?: string }> = [];
  await stop(b); // buildbox goes away
  await until('bob listed as away', async () =>
    (await a.client.call('agents.list', {})).rows.some((r) => r.name === 'bob' && r.awaySince !== undefined),
  );
  for (let i = 0; i < N; i++) sent.push({ text: `by name ${i}`, ...(await send(a, alice, 'bob', `by name ${i}`)) });
  await nats.stop(); // SIGKILL
  nats = await startNats(port, { jetstreamDir: store });
  await stop(a);
  a = await machine(a.root, nats.url, 'laptop');
  await until('laptop back in store mode', () => a.hub.remote.relay?.mode === 'store');
  const to = `peer:buildbox/${bob.sessionId}`;
  for (let i = 0; i < N; i++) sent.push({ text: `by address ${i}`, ...(await send(a, alice, to, `by address ${i}`)) });
  await stop(a); // laptop goes away too: its receipts must wait for it

  const back = Date.now();
  b = await machine(b.root, nats.url, 'buildbox');
  const got = new Map<string, number>();
  let readAt = 0;
  await until('bob has everything stored', async () => {
    const items = (await b.client.call('inbox.fetch', { ...auth(bob), limit: 100 })).items;
    for (const x of items) {
      const text = x.kind === 'message' ? (/\n(by (?:name|address) \d+)\n/.exec(x.text)?.[1] ?? '') : '';
      got.set(text, (got.get(text) ?? 0) + 1);
    }
    if (items.length > 0) await b.client.call('inbox.ack', { ...auth(bob), ids: items.map((x) => x.id) });
    readAt = Date.now();
    return sent.every((s) => s.answer !== 'stored' || got.has(s.text));
  });
  const deliveredMs = readAt - back;
  await until('receipts stored for laptop', () => b.hub.remote.pending.size === 0);
  await nats.stop();
  nats = await startNats(port, { jetstreamDir: store });

  const aBack = Date.now();
  a = await machine(a.root, nats.url, 'laptop');
  const receipts = new Map<string, number>();
  let receiptsAt = 0;
  await until('every receipt', async () => {
    const items = (await a.client.call('inbox.fetch', { ...auth(alice), limit: 100 })).items;
    for (const x of items)
      if (x.kind === 'receipt' && x.status === 'delivered')
        receipts.set(x.origMsgId, (receipts.get(x.origMsgId) ?? 0) + 1);
    if (items.length > 0) await a.client.call('inbox.ack', { ...auth(alice), ids: items.map((x) => x.id) });
    receiptsAt = Date.now();
    return sent.every((s) => s.id === undefined || receipts.has(s.id));
  });
  await sleep(2000); // anything late would be a duplicate: look once more
  for (const x of (await a.client.call('inbox.fetch', { ...auth(alice), limit: 100 })).items)
    if (x.kind === 'receipt') receipts.set(x.origMsgId, (receipts.get(x.origMsgId) ?? 0) + 1);
  for (const x of (await b.client.call('inbox.fetch', { ...auth(bob), limit: 100 })).items)
    if (x.kind === 'message') got.set('late', (got.get('late') ?? 0) + 1);
  const outstanding = a.hub.remote.outstanding.size;
  await stop(a);
  await stop(b);
  await nats.stop();

  const stored = sent.filter((s) => s.answer === 'stored');
  const once = stored.filter((s) => got.get(s.text) === 1).length;
  const twice = stored.filter((s) => (got.get(s.text) ?? 0) > 1).length + (got.get('late') ?? 0);
  const rOnce = stored.filter((s) => receipts.get(s.id ?? '') === 1).length;
  const rTwice = stored.filter((s) => (receipts.get(s.id ?? '') ?? 0) > 1).length;
  console.log(`away (n=${N} by name while listed as away + ${N} by address after the sender's hub restarted)`);
  console.log(`  answers                         ${tally(sent.map((s) => s.answer))}`);
  console.log(`  delivered once / twice / never  ${once} / ${twice} / ${stored.length - once - twice}`);
  console.log(`  receipts once / twice / never   ${rOnce} / ${rTwice} / ${stored.length - rOnce - rTwice}`);
  console.log(`  outstanding left at the sender  ${outstanding}`);
  console.log(`  receiver back → all read        ${deliveredMs} ms`);
  console.log(`  sender back → all receipts      ${receiptsAt - aBack} ms`);
  console.log(`  baseline, no JetStream          ${await direct()}`);
}
