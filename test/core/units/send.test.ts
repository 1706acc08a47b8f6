// message.send on fake ports (no hub): resolution, pins, idle subscriptions,
// and where each kind of target goes: admission (ours), one line to a socket
// (an address), the stock port (Claude Code rows), the relay (other machines).
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { Envelope } from '../../../core/delivery/envelope.js';
import type { AdmissionPort, RouteResult } from '../../../core/delivery/ports.js';
import { sendMessage, type SendPorts } from '../../../core/messaging/send.js';
import { udsAddress, unwrapMessage } from '../../../core/protocol/cc-wire.js';
import { LIMITS } from '../../../core/protocol/limits.js';
import type { SendParams } from '../../../core/protocol/methods.js';
import { refHash } from '../../../core/registry/names.js';
import { Pins } from '../../../core/registry/resolution.js';
import { SessionTable } from '../../../core/registry/table.js';
import { processStartTime } from '../../../core/registry/proc.js';
import type { RelayMessage } from '../../../core/protocol/relay-wire.js';
import { OutstandingSends } from '../../../core/relay/outstanding.js';
import type { RemoteMachines } from '../../../core/relay/remote-machines.js';
import type { QwenInterop } from '../../../core/stock/qwen.js';
import type { StockInterop } from '../../../core/stock/stock.js';
import { fakeClock, until } from '../../helpers/hub.js';
import { fakePeer, type FakePeer } from '../../helpers/peer.js';
import { tempDir } from '../../helpers/temp.js';
import { effectiveWith, session } from './fakes.js';

const peers: FakePeer[] = [];
afterEach(async () => {
  for (const p of peers.splice(0)) await p.close();
});

function harness() {
  const table = new SessionTable();
  const routed: Array<{ env: Envelope; receiverId: string }> = [];
  const subscribed: Array<{ subscriber: string; target: string; label: string }> = [];
  const relayed: Array<{ machine: string; msg: RelayMessage }> = [];
  const stockSent: Array<{ msgId: string; name: string; address: string }> = [];
  const activity: string[] = [];
  const answer: { route: RouteResult } = { route: { status: 'queued' } };
  const admission: AdmissionPort = {
    route: (env, receiver) => (routed.push({ env, receiverId: receiver.id }), Promise.resolve(answer.route)),
    effective: () => effectiveWith(),
  };
  // ReplySockets, Relay and Confirmations are classes: the fakes need a cast (see the report).
  const replies = {
    addressFor: () => Promise.resolve(null),
    sent: (msgId: string, _senderId: string, name: string, address: string) =>
      void stockSent.push({ msgId, name, address }),
  };
  const relay = {
    machine: 'here',
    send: (machine: string, msg: RelayMessage) => (
      relayed.push({ machine, msg }),
      Promise.resolve({ v: 1 as const, status: 'held' as const, to: { name: 'far', sessionId: 'far-id' } })
    ),
  };
  const ports: SendPorts = {
    table,
    pins: new Pins(),
    admission,
    limits: LIMITS,
    clock: fakeClock(),
    history: { enabled: false, message: () => false, outcome: () => undefined },
    idle: {
      subscribe: (s, t, label = t.name) => (
        subscribed.push({ subscriber: s.id, target: t.id, label }),
        { id: 'sub', subscriberId: s.id, targetId: t.id, targetLabel: label, createdAt: 0, expiresAt: 0 }
      ),
    },
    stock: {
      root: tempDir('sb-units-'),
      supportsIdle: () => false,
      subscribeIdle: () => Promise.resolve(),
      replies: replies as unknown as StockInterop['replies'],
    },
    claude: {
      qwen: {
        replies: { for: () => Promise.resolve(null), sent: () => undefined } as unknown as QwenInterop['replies'],
      },
    },
    remote: {
      relay: relay as unknown as RemoteMachines['relay'],
      confirmations: undefined as unknown as RemoteMachines['confirmations'],
      outstanding: new OutstandingSends(() => 0),
    },
    adminSettings: () => effectiveWith(),
    receipts: { sent: () => void activity.push('sent') },
  };
  const alice = session('alice');
  const bob = session('bob', { permissionMode: 'bypassPermissions' });
  table.add(alice);
  table.add(bob);
  return { ports, table, alice, bob, routed, subscribed, relayed, stockSent, activity, answer };
}

const send = (to: string, over: Partial<SendParams> = {}): SendParams => ({
  sessionId: 'x',
  token: 'y',
  to,
  summary: 'hello',
  message: 'hi there',
  ...over,
});

describe('sendMessage to a session of this hub', () => {
  it('refuses a send that resolves to the sender itself, by name or by address', async () => {
    const h = harness();
    await expect(sendMessage(h.ports, h.alice, send('alice'))).rejects.toMatchObject({ reason: 'to_self' });
    await expect(sendMessage(h.ports, h.alice, send(h.alice.address))).rejects.toMatchObject({ reason: 'to_self' });
    expect(h.routed).toEqual([]);
  });

  it('hands admission the envelope the hub vouches for and answers its status with a note', async () => {
    const h = harness();
    const r = await sendMessage(h.ports, h.alice, send('bob'));
    expect(h.routed).toHaveLength(1);
    expect(h.routed[0]).toMatchObject({
      receiverId: h.bob.id,
      env: {
        msgId: r.msg_id,
        fromAddress: h.alice.address,
        fromName: 'alice',
        fromSessionId: h.alice.id,
        fromClass: 'prompting',
        ownChild: false,
        summary: 'hello',
        body: 'hi there',
      },
    });
    expect(r).toMatchObject({ status: 'queued', to: { name: 'bob', address: h.bob.address } });
    expect(r.note).toMatch(/^Queued in bob \[[0-9a-f]+\]'s inbox/);
    h.answer.route = { status: 'dropped', reason: 'rate-limited' };
    expect(await sendMessage(h.ports, h.alice, send('bob'))).toMatchObject({
      status: 'dropped',
      reason: 'rate-limited',
      note: 'Dropped (rate-limited). Nothing was delivered.',
    });
  });

  it('pins a name after an accepted send: another session under that name is refused until named with its ref', async () => {
    const h = harness();
    h.answer.route = { status: 'refused', reason: 'policy' };
    await sendMessage(h.ports, h.alice, send('bob'));
    h.answer.route = { status: 'queued' };
    await sendMessage(h.ports, h.alice, send('bob'));
    h.table.retire(h.bob.id, 0);
    const bob2 = session('bob');
    h.table.add(bob2);
    await expect(sendMessage(h.ports, h.alice, send('bob'))).rejects.toMatchObject({ reason: 'pin_mismatch' });
    const ref = h.table.refOf(bob2.id);
    expect((await sendMessage(h.ports, h.alice, send(`bob [${ref}]`))).to.address).toBe(bob2.address);
    expect((await sendMessage(h.ports, h.alice, send('bob'))).to.address).toBe(bob2.address); // re-pinned
  });

  it('a refused send pins nothing', async () => {
    const h = harness();
    h.answer.route = { status: 'refused', reason: 'policy' };
    await sendMessage(h.ports, h.alice, send('bob'));
    h.table.retire(h.bob.id, 0);
    h.table.add(session('bob'));
    expect((await sendMessage(h.ports, h.alice, send('bob'))).status).toBe('refused');
  });

  it('notify_when_idle alone subscribes without a message; with a message it subscribes only when accepted', async () => {
    const h = harness();
    const r = await sendMessage(
      h.ports,
      h.alice,
      send('bob', { message: undefined, summary: undefined, notify_when_idle: true }),
    );
    expect(r.status).toBe('subscribed');
    expect(h.routed).toEqual([]);
    expect(h.subscribed).toEqual([
      { subscriber: h.alice.id, target: h.bob.id, label: `bob [${h.table.refOf(h.bob.id)}]` },
    ]);
    h.answer.route = { status: 'refused', reason: 'policy' };
    await sendMessage(h.ports, h.alice, send('bob', { notify_when_idle: true }));
    expect(h.subscribed).toHaveLength(1);
    h.answer.route = { status: 'held', reason: 'parity' };
    await sendMessage(h.ports, h.alice, send('bob', { notify_when_idle: true }));
    expect(h.subscribed).toHaveLength(2);
  });
});

describe('sendMessage to other targets', () => {
  it('an address that is no listed session gets exactly one user event line on its socket, status sent', async () => {
    const h = harness();
    const peer = await fakePeer(path.join(tempDir('sb-units-'), 'other.sock'));
    peers.push(peer);
    const r = await sendMessage(h.ports, h.alice, send(udsAddress(peer.path)));
    expect(r).toMatchObject({ status: 'sent', to: { name: null, ref: null, address: udsAddress(peer.path) } });
    await until(() => peer.lines.length > 0);
    expect(peer.lines).toHaveLength(1);
    const line = peer.lines[0] as { type: string; msg_id: string; from: string; message: { content: string } };
    expect(line).toMatchObject({ type: 'user', msg_id: r.msg_id, from: h.alice.address });
    expect(unwrapMessage(line.message.content)).toMatchObject({
      body: 'hi there',
      attrs: { from: h.alice.address, 'from-name': 'alice', 'from-mode': 'prompting' },
    });
    expect(h.routed).toEqual([]);
    await expect(
      sendMessage(h.ports, h.alice, send(udsAddress(peer.path), { notify_when_idle: true })),
    ).rejects.toMatchObject({ reason: 'idle_not_local' });
    await expect(
      sendMessage(h.ports, h.alice, send(udsAddress(path.join(path.dirname(peer.path), 'nobody.sock')))),
    ).rejects.toMatchObject({ reason: 'unreachable' });
  });

  // Its registry entry is read at once, before discovery lists it; nothing is written.
  it("a send to the sender's own Claude Code socket is refused as to_self, even before discovery lists it", async () => {
    const h = harness();
    const cc = await fakePeer(path.join(tempDir('sb-units-'), 'own.sock'));
    peers.push(cc);
    // This test process plays the agent: its Claude Code registry entry names the socket; discovery has not run.
    const me = { pid: process.pid, procStart: processStartTime(process.pid) ?? null };
    Object.assign(h.alice, me);
    const sessions = path.join(h.ports.stock.root, 'sessions');
    fs.mkdirSync(sessions, { recursive: true, mode: 0o700 });
    const entry = { pid: process.pid, sessionId: 'cc-own', cwd: '/w', messagingSocketPath: cc.path };
    fs.writeFileSync(path.join(sessions, `${process.pid}.json`), JSON.stringify({ ...entry, procStart: me.procStart }));
    expect(h.table.stock, 'discovery has not run').toEqual([]);
    await expect(sendMessage(h.ports, h.alice, send(udsAddress(cc.path))), 'its own socket').rejects.toMatchObject({
      reason: 'to_self',
    });
    // Another session sending there, or an entry of another start of that pid, writes the line as before.
    const r = await sendMessage(h.ports, h.bob, send(udsAddress(cc.path)));
    expect(r.status, 'another session reaches it').toBe('sent');
    await until(() => cc.lines.length === 1);
    fs.writeFileSync(
      path.join(sessions, `${process.pid}.json`),
      JSON.stringify({ ...entry, procStart: 'another start' }),
    );
    expect(
      (await sendMessage(h.ports, h.alice, send(udsAddress(cc.path)))).status,
      'an entry of another start of the pid is not the sender',
    ).toBe('sent');
    await until(() => cc.lines.length === 2);
    expect(
      cc.lines.map((l) => (l as { from: string }).from),
      'only the refused send wrote nothing',
    ).toEqual([h.bob.address, h.alice.address]);
  });

  it("a send to a Claude Code session is written to that session's socket, not routed to a hub inbox", async () => {
    const h = harness();
    const dir = tempDir('sb-units-');
    const cc = await fakePeer(path.join(dir, 'cc.sock'));
    peers.push(cc);
    const address = udsAddress(cc.path);
    h.table.setStock([
      {
        entry: { pid: 4242, sessionId: 'cc-1', cwd: '/w', messagingSocketPath: cc.path, name: 'carol' },
        socketPath: cc.path,
        address,
        refHash: refHash(address),
        status: 'idle',
      },
    ]);
    const r = await sendMessage(h.ports, h.alice, send('carol'));
    expect(r, 'the answer').toMatchObject({ status: 'sent', to: { name: 'carol', address } });
    expect(h.stockSent, 'the send is remembered for its receipts').toEqual([
      { msgId: r.msg_id, name: 'carol', address },
    ]);
    expect(h.activity, 'the activity log').toEqual(['sent']);
    expect(h.routed, 'no hub inbox').toEqual([]);
    await until(() => cc.lines.length > 0);
    expect(cc.lines, 'one user line on its socket').toMatchObject([
      { type: 'user', msg_id: r.msg_id, from: h.alice.address },
    ]);
    h.table.setStock([]);
    h.table.add(session('carol'));
    await expect(
      sendMessage(h.ports, h.alice, send('carol')),
      'the name stays pinned to that socket',
    ).rejects.toMatchObject({ reason: 'pin_mismatch' });
  });

  it("a send to another machine's session goes to the relay and answers with the remote hub's status", async () => {
    const h = harness();
    const address = 'peer:laptop/dave-id';
    h.table.setRemote([
      {
        machine: 'laptop',
        address,
        refHash: refHash(address),
        session: {
          sessionId: 'dave-id',
          name: 'dave',
          agent: 'claude',
          state: 'idle',
          stateSince: 0,
          cwd: '/w',
          inboxDepth: 0,
          canReceive: true,
        },
      },
    ]);
    const r = await sendMessage(h.ports, h.alice, send('dave'));
    expect(h.relayed).toMatchObject([
      {
        machine: 'laptop',
        msg: {
          msgId: r.msg_id,
          to: 'dave-id',
          from: { machine: 'here', sessionId: h.alice.id, name: 'alice' },
          summary: 'hello',
          body: 'hi there',
        },
      },
    ]);
    expect(r).toMatchObject({ status: 'held', to: { name: 'far', address: 'peer:laptop/far-id' } });
    await sendMessage(h.ports, h.alice, send('peer:desk/erin'));
    expect(h.relayed[1], 'a peer: address goes to the relay too').toMatchObject({
      machine: 'desk',
      msg: { to: 'erin' },
    });
    expect(h.routed, 'no local inbox').toEqual([]);
  });
});
