// A broker that pauses (Wi-Fi gone for a while, a laptop lid): a send that
// timed out may still arrive. It is answered `timeout` with its msg_id,
// recorded as `unknown`, stays outstanding, and its later `delivered`
// receipt reaches the sender and settles it (the receipt used to be thrown
// away as "a receipt for no message we sent", and history said `dropped`).
import { afterEach, expect, it } from 'vitest';
import { RpcError } from '../../../core/client/client.js';
import type { InboxItem } from '../../../core/protocol/methods.js';
import { until } from '../../helpers/hub.js';
import { sendSignal } from '../../helpers/processes.js';
import { machine, startNats } from './nats.js';

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

it('a send that timed out during a broker pause is settled by its later receipt', async () => {
  const nats = await startNats();
  cleanup.push(() => nats.stop());
  const a = await machine('laptop', nats);
  const b = await machine('buildbox', nats);
  cleanup.push(
    () => a.close(),
    () => b.close(),
  );
  const ca = await a.client();
  const cb = await b.client();
  const alice = await a.register(ca, { name: 'alice' });
  const bob = await b.register(cb, { name: 'bob' });
  const aliceAuth = { sessionId: alice.sessionId, token: alice.token };
  const bobAuth = { sessionId: bob.sessionId, token: bob.token };
  await until(async () => (await ca.call('agents.list', {})).rows.some((r) => r.name === 'bob'));

  sendSignal(nats.proc, 'SIGSTOP');
  cleanup.push(() => sendSignal(nats.proc, 'SIGCONT')); // runs before the stop above
  const err = await ca
    .call(
      'message.send',
      { ...aliceAuth, to: 'bob', summary: 's', message: 'through the pause' },
      { timeoutMs: 60_000 },
    )
    .then(
      () => undefined,
      (e: unknown) => e as RpcError,
    );
  expect(err).toBeInstanceOf(RpcError);
  expect(err!.reason).toBe('timeout');
  const msgId = err!.data.msg_id as string;
  expect(msgId).toMatch(/^[0-9a-f-]{36}$/);
  const outcome = async (): Promise<string | undefined> =>
    (await ca.call('history.search', { uiToken: a.hub.uiToken, limit: 10 })).messages.find((m) => m.msgId === msgId)
      ?.outcome;
  expect(await outcome()).toBe('unknown');

  sendSignal(nats.proc, 'SIGCONT');
  let got: InboxItem[] = [];
  await until(async () => {
    got = (await cb.call('inbox.fetch', { ...bobAuth, limit: 10 })).items;
    return got.some((i) => i.kind === 'message' && i.text.includes('through the pause'));
  });
  await cb.call('inbox.ack', { ...bobAuth, ids: got.map((i) => i.id) });
  await until(async () =>
    (await ca.call('inbox.fetch', { ...aliceAuth, limit: 10 })).items.some(
      (i) => i.kind === 'receipt' && i.origMsgId === msgId && i.status === 'delivered',
    ),
  );
  expect(await outcome()).toBe('delivered');
}, 120_000);
