// A laptop that sleeps: a real `serve` for machine buildbox is stopped
// (SIGSTOP) until the broker, pinging it every second, drops its
// connection — away for longer than the broker's connection timeout. Sends
// to its session are then `stored`; once it wakes (SIGCONT) it reconnects
// and gets every stored message exactly once, and the sender gets every
// `delivered` receipt.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { HubClient } from '../../../core/client/client.js';
import type { InboxItem } from '../../../core/protocol/methods.js';
import { cliEnv, serveCli } from '../../helpers/cli.js';
import { tempDirs, until } from '../../helpers/hub.js';
import { connectedNames } from '../../helpers/nats.js';
import { sendSignal } from '../../helpers/processes.js';
import { tempDir } from '../../helpers/temp.js';
import { machine, startNats } from './nats.js';

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

const N = 20;

it('a machine asleep past the broker’s connection timeout gets every stored message once when it wakes', async () => {
  const nats = await startNats(undefined, {
    jetstreamDir: path.join(tempDir('sbjs-'), 'js'),
    pingSeconds: 1,
    monitor: true,
  });
  cleanup.push(() => nats.stop());
  // The laptop announces itself rarely: a stopped process's kernel still acknowledges TCP, so only the broker's
  // pings find it silent, and the broker skips them while it has traffic (presences) to deliver to it. A laptop
  // really asleep acknowledges nothing, and the broker's write deadline ends it as well.
  const a = await machine('laptop', nats, { relay: { servers: [nats.url], machine: 'laptop', presenceSeconds: 60 } });
  cleanup.push(() => a.close());
  const ca = await a.client();
  const alice = await a.register(ca, { name: 'alice' });

  const dirs = tempDirs();
  fs.mkdirSync(dirs.home, { recursive: true, mode: 0o700 });
  fs.writeFileSync(
    path.join(dirs.home, 'settings.json'),
    JSON.stringify({ relay: { servers: [nats.url], machine: 'buildbox', presenceSeconds: 3 } }),
  );
  const served = await serveCli(cliEnv(dirs));
  cleanup.push(() => served.stop('SIGKILL'));
  const cb = await HubClient.connect(served.ready.socket);
  cleanup.push(() => cb.close());
  const bob = await cb.call('session.register', { cwd: dirs.root, name: 'bob', pid: process.pid, liveness: 'pid' });
  const auth = { sessionId: alice.sessionId, token: alice.token };
  await until(async () =>
    (await ca.call('agents.list', {})).rows.some((r) => r.name === 'bob' && r.awaySince === undefined),
  );
  // Its store consumer exists once a send to it that finds no hub is delivered to it: first, one that does.
  expect((await ca.call('message.send', { ...auth, to: 'bob', summary: 's', message: 'awake' })).status).toBe('queued');
  await until(() => a.hub.remote.relay?.mode === 'store');

  expect(sendSignal(served.child, 'SIGSTOP')).toBe(true);
  cleanup.push(() => sendSignal(served.child, 'SIGCONT'));
  await until(async () => !(await connectedNames(nats)).includes('switchboard@buildbox')); // the broker gave up on it
  await until(async () =>
    (await ca.call('agents.list', {})).rows.some((r) => r.name === 'bob' && r.awaySince !== undefined),
  );
  const sent: string[] = [];
  for (let i = 0; i < N; i++) {
    const r = await ca.call('message.send', { ...auth, to: 'bob', summary: 's', message: `asleep ${i}` });
    expect(r.status).toBe('stored');
    sent.push(r.msg_id);
  }

  expect(sendSignal(served.child, 'SIGCONT')).toBe(true);
  let items: InboxItem[] = [];
  const bobAuth = { sessionId: bob.sessionId, token: bob.token };
  await until(async () => (items = (await cb.call('inbox.fetch', { ...bobAuth, limit: 100 })).items).length >= N + 1);
  const texts = items.map((i) => (i.kind === 'message' ? i.text : ''));
  for (let i = 0; i < N; i++) expect(texts.filter((t) => t.includes(`asleep ${i}\n`)).length).toBe(1);
  expect(items.length).toBe(N + 1);
  await cb.call('inbox.ack', { ...bobAuth, ids: items.map((i) => i.id) });
  await until(async () => {
    const got = (await ca.call('inbox.fetch', { ...auth, limit: 100 })).items;
    return sent.every((id) => got.some((i) => i.kind === 'receipt' && i.origMsgId === id && i.status === 'delivered'));
  });
  await until(() => a.hub.remote.outstanding.size === 0);
}, 120_000);
