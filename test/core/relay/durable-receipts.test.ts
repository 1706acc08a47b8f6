// Receipts across machines survive what a laptop meets: a receipt made while
// the broker is down waits (journaled, through a restart of its hub) and
// reaches the sender once the broker is back; a send made before the
// sender's hub restarted still takes its receipt after it. Both were lost:
// receipts were published only while connected, and outstanding sends lived
// in memory only.
import { afterEach, expect, it } from 'vitest';
import type { HubClient } from '../../../core/client/client.js';
import type { InboxItem, Registration } from '../../../core/protocol/methods.js';
import { startHub, until, type TestHub } from '../../helpers/hub.js';
import { machine, startNats, type Nats } from './nats.js';

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

const auth = (r: Registration) => ({ sessionId: r.sessionId, token: r.token });
/** A session bound to this test's process: it is restored, not ended, when its hub restarts. */
const register = (h: TestHub, c: HubClient, name: string) =>
  c.call('session.register', { cwd: h.dirs.root, name, pid: process.pid, liveness: 'pid' });

async function twoMachines(nats: Nats) {
  const a = await machine('laptop', nats);
  const b = await machine('buildbox', nats);
  const ca = await a.client();
  const cb = await b.client();
  const alice = await register(a, ca, 'alice');
  const bob = await register(b, cb, 'bob');
  await until(async () => (await ca.call('agents.list', {})).rows.some((r) => r.name === 'bob'));
  const sent = await ca.call('message.send', { ...auth(alice), to: 'bob', summary: 's', message: 'hello bob' });
  expect(sent.status).toBe('queued');
  return { a, b, cb, alice, bob, msgId: sent.msg_id };
}

/** Bob reads and acknowledges what he has: the `delivered` receipt starts on its way. */
async function bobReads(cb: HubClient, bob: Registration): Promise<void> {
  let items: InboxItem[] = [];
  await until(async () => (items = (await cb.call('inbox.fetch', { ...auth(bob), limit: 10 })).items).length > 0);
  await cb.call('inbox.ack', { ...auth(bob), ids: items.map((i) => i.id) });
}

const delivered = async (c: HubClient, alice: Registration, msgId: string): Promise<boolean> =>
  (await c.call('inbox.fetch', { ...auth(alice), limit: 10 })).items.some(
    (i) => i.kind === 'receipt' && i.origMsgId === msgId && i.status === 'delivered',
  );

it('a receipt made while the broker is down, through a restart of its hub, reaches the sender', async () => {
  let nats = await startNats();
  const port = nats.port;
  cleanup.push(() => nats.stop());
  const { a, b, cb, alice, bob, msgId } = await twoMachines(nats);
  cleanup.push(() => a.close());
  await nats.stop();
  await until(() => b.hub.remote.relay?.connected === false);
  await bobReads(cb, bob);
  await until(() => b.hub.remote.pending.size === 1);
  await b.close(); // the waiting receipt is in its journal only now
  const b2 = await startHub({}, b.dirs);
  cleanup.push(() => b2.close());
  expect(b2.hub.remote.pending.size).toBe(1);
  nats = await startNats(port);
  const ca = await a.client();
  await until(() => delivered(ca, alice, msgId));
  await until(() => b2.hub.remote.pending.size === 0);
});

it("a send made before the sender's hub restarted still takes its receipt after it", async () => {
  const nats = await startNats();
  cleanup.push(() => nats.stop());
  const { a, b, cb, alice, bob, msgId } = await twoMachines(nats);
  cleanup.push(() => b.close());
  await a.close();
  const a2 = await startHub({}, a.dirs);
  cleanup.push(() => a2.close());
  expect(a2.hub.remote.outstanding.size).toBe(1);
  await until(() => a2.hub.remote.relay?.connected === true);
  await bobReads(cb, bob);
  const ca = await a2.client();
  await until(() => delivered(ca, alice, msgId));
  expect(a2.hub.remote.outstanding.size).toBe(0); // delivered is final
});
