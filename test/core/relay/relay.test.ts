// Two hubs as two machines (separate runtime and state directories) meeting
// through a real nats-server: presence, messages and replies, the remote
// policy and its receipts, isolatePeerMachines, and no network at all
// without a relay.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HubClient } from '../../../core/client/client.js';
import type { InboxItem, Registration } from '../../../core/protocol/methods.js';
import { startHub, until, type TestHub } from '../../helpers/hub.js';
import { connect } from '@nats-io/transport-node';
import { SUBJECTS } from '../../../core/protocol/relay-wire.js';
import { machine, startNats, type Nats } from './nats.js';

let nats: Nats;
let a: TestHub;
let b: TestHub;
let ca: HubClient;
let cb: HubClient;
let alice: Registration;
let bob: Registration;
const creds = (r: Registration) => ({ sessionId: r.sessionId, token: r.token });
const items = async (c: HubClient, r: Registration): Promise<InboxItem[]> =>
  (await c.call('inbox.fetch', { ...creds(r), limit: 50 })).items;

beforeEach(async () => {
  nats = await startNats();
  a = await machine('laptop', nats);
  b = await machine('buildbox', nats);
  ca = await a.client();
  cb = await b.client();
  alice = await a.register(ca, { name: 'alice' });
  bob = await b.register(cb, { name: 'bob' });
  await until(async () => (await ca.call('agents.list', {})).rows.some((r) => r.name === 'bob'));
});
afterEach(async () => {
  await a.close();
  await b.close();
  await nats.stop();
});

describe('relay between two hubs', () => {
  it("lists the other machine's sessions, marked with the machine, and drops them when they end", async () => {
    const row = (await ca.call('agents.list', {})).rows.find((r) => r.name === 'bob')!;
    expect(row).toMatchObject({ machine: 'buildbox', address: `peer:buildbox/${bob.sessionId}`, kind: 'switchboard' });
    expect(row.label).toMatch(/^bob \[[0-9a-f]{6}\]$/);
    await cb.call('session.unregister', creds(bob));
    await until(async () => !(await ca.call('agents.list', {})).rows.some((r) => r.name === 'bob'));
  });

  it('a message crosses, the reply crosses back by copying from, and receipts follow', async () => {
    const sent = await ca.call('message.send', {
      ...creds(alice),
      to: 'bob',
      summary: 'build',
      message: 'please build main',
    });
    expect(sent).toMatchObject({ status: 'queued', to: { name: 'bob', address: `peer:buildbox/${bob.sessionId}` } });
    await until(async () => (await items(cb, bob)).length === 1);
    const [m] = await items(cb, bob);
    expect(m).toMatchObject({
      kind: 'message',
      from: { address: `peer:laptop/${alice.sessionId}`, name: 'alice', sessionId: null },
    });
    expect(m!.kind === 'message' && m!.text).toContain('please build main');
    await cb.call('inbox.ack', { ...creds(bob), ids: [m!.id] });
    await until(
      async () => (await items(ca, alice)).some((i) => i.kind === 'receipt' && i.status === 'delivered'),
      5000,
    );

    const reply = await cb.call('message.send', {
      ...creds(bob),
      to: `peer:laptop/${alice.sessionId}`,
      summary: 'done',
      message: 'built: 0 errors',
    });
    expect(reply.status).toBe('queued');
    await until(
      async () => (await items(ca, alice)).some((i) => i.kind === 'message' && i.text.includes('built: 0 errors')),
      5000,
    );
  });

  it("the receiving machine's policy decides, and its hold and approval reach the sender", async () => {
    const yolo = await b.register(cb, { name: 'yolo', permissionMode: 'bypassPermissions' });
    await until(async () => (await ca.call('agents.list', {})).rows.some((r) => r.name === 'yolo'));
    const sent = await ca.call('message.send', {
      ...creds(alice),
      to: 'yolo',
      summary: 'rm',
      message: 'delete the cache',
    });
    expect(sent.status, 'held, as the send status').toBe('held');
    expect(sent.reason).toContain('unverified');
    // A hang in a wait here: the held or approved receipt did not come back.
    await until(async () => (await items(ca, alice)).some((i) => i.kind === 'receipt' && i.status === 'held'));
    const [h] = (await cb.call('held.list', { uiToken: b.hub.uiToken })).items;
    expect(h!.sender, 'held there, from an unverified sender').toMatchObject({
      name: 'alice',
      address: `peer:laptop/${alice.sessionId}`,
      verified: false,
    });
    await cb.call('held.approve', { uiToken: b.hub.uiToken, id: h!.id });
    await until(
      async () => (await items(ca, alice)).some((i) => i.kind === 'receipt' && i.status === 'approved'),
      5000,
    );
    expect((await items(cb, yolo)).length, 'approved: delivered there').toBe(1);
  });

  it('errors are clear: an unknown session there, and a machine nobody serves', async () => {
    await expect(
      ca.call('message.send', { ...creds(alice), to: 'peer:buildbox/nobody', summary: 's', message: 'm' }),
    ).rejects.toMatchObject({ reason: 'target_not_found' });
    await expect(
      ca.call('message.send', { ...creds(alice), to: 'peer:mars/bob', summary: 's', message: 'm' }),
    ).rejects.toMatchObject({ reason: 'unreachable' });
  });
});

describe('bad input from the broker', () => {
  it('garbage from the broker changes nothing on the hubs', async () => {
    const nc = await connect({ servers: nats.url });
    try {
      const answer = await nc.request(
        SUBJECTS.message('buildbox'),
        new TextEncoder().encode('{"v":1,"msgId":"x","__proto__":{}}'),
        { timeout: 2000 },
      );
      expect(JSON.parse(new TextDecoder().decode(answer.data)), 'a garbage request').toEqual({
        v: 1,
        error: 'invalid_params',
      });
      nc.publish(SUBJECTS.presence('evil'), new TextEncoder().encode('{"v":1,"machine":"evil","sessions":"all"}'));
      nc.publish(SUBJECTS.receipt('laptop'), new TextEncoder().encode('not json'));
      await nc.flush();
    } finally {
      await nc.close();
    }
    expect(
      (await ca.call('agents.list', {})).rows.some((r) => r.machine === 'evil'),
      'garbage presence',
    ).toBe(false);
    expect(
      (await ca.call('message.send', { ...creds(alice), to: 'bob', summary: 's', message: 'still fine' })).status,
      'the hubs keep working',
    ).toBe('queued');
  });
});

describe('isolatePeerMachines', () => {
  it('parks a send until the user allows it; a denied one never reaches the other side', async () => {
    await ca.call('settings.set', { uiToken: a.hub.uiToken, key: 'isolatePeerMachines', value: true });
    const denied = ca.call('message.send', { ...creds(alice), to: 'bob', summary: 's', message: 'secret plans' });
    await until(async () => (await ca.call('confirmations.list', { uiToken: a.hub.uiToken })).items.length === 1);
    const [c] = (await ca.call('confirmations.list', { uiToken: a.hub.uiToken })).items;
    expect(c).toMatchObject({ sender: { name: 'alice' }, target: { machine: 'buildbox' }, preview: 'secret plans' });
    await ca.call('confirmations.deny', { uiToken: a.hub.uiToken, id: c!.id });
    expect((await denied).status).toBe('confirm-denied');
    expect(await items(cb, bob)).toEqual([]);

    const allowed = ca.call('message.send', { ...creds(alice), to: 'bob', summary: 's', message: 'public plans' });
    await until(async () => (await ca.call('confirmations.list', { uiToken: a.hub.uiToken })).items.length === 1);
    const [c2] = (await ca.call('confirmations.list', { uiToken: a.hub.uiToken })).items;
    await ca.call('confirmations.allow', { uiToken: a.hub.uiToken, id: c2!.id });
    expect((await allowed).status).toBe('queued');
    expect((await items(cb, bob)).map((i) => i.kind === 'message' && i.text.includes('public plans'))).toEqual([true]);
  });

  it('bypass sessions wait too; sends within the machine never ask', async () => {
    await ca.call('settings.set', { uiToken: a.hub.uiToken, key: 'isolatePeerMachines', value: true });
    const yolo = await a.register(ca, { name: 'yolo-local', permissionMode: 'bypassPermissions' });
    await a.register(ca, { name: 'yolo-peer', permissionMode: 'bypassPermissions' });
    expect(
      (await ca.call('message.send', { ...creds(yolo), to: 'yolo-peer', summary: 's', message: 'local' })).status,
    ).toBe('queued');
    expect((await ca.call('confirmations.list', { uiToken: a.hub.uiToken })).items).toEqual([]);
    const pending = ca
      .call('message.send', { ...creds(yolo), to: 'bob', summary: 's', message: 'remote' })
      .catch((e: unknown) => ({ status: String(e) }));
    await until(async () => (await ca.call('confirmations.list', { uiToken: a.hub.uiToken })).items.length === 1);
    await a.close(); // closing the hub expires what waits: nothing leaves unconfirmed
    expect((await pending).status).toMatch(/confirm-expired|closed/);
    expect(await items(cb, bob)).toEqual([]);
  });
});

describe('without a relay', () => {
  it('opens no connection and says so when asked to send elsewhere', async () => {
    const t = await startHub();
    try {
      expect(t.hub.remote.relay).toBeUndefined();
      const c = await t.client();
      const r = await t.register(c, { name: 'solo' });
      await expect(
        c.call('message.send', { ...creds(r), to: 'peer:buildbox/bob', summary: 's', message: 'm' }),
      ).rejects.toMatchObject({ reason: 'unreachable' });
    } finally {
      await t.close();
    }
  });
});
