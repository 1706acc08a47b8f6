import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { socketPathOf, udsAddress } from '../../../core/protocol/cc-wire.js';
import type { Registration } from '../../../core/protocol/methods.js';
import { fakeClock, startHub, until, type TestHub } from '../../helpers/hub.js';
import { fakePeer, writeSocket, type FakePeer } from '../../helpers/peer.js';

let th: TestHub;
afterEach(async () => th?.close());
const auth = (r: Registration) => ({ sessionId: r.sessionId, token: r.token });

/** A 0 ms timer set now fires after every 0 ms timer set before it (Node keeps them in order). */
const timerTurn = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

/** A line of ours to the peer, written after anything the hub has started writing to it: once it is read, those are. */
async function peerCaughtUp(peer: FakePeer): Promise<void> {
  const mark = `mark-${Math.random()}`;
  await writeSocket(peer.path, JSON.stringify({ mark }) + '\n');
  await until(() => peer.lines.some((l) => l.mark === mark));
  peer.lines.splice(
    peer.lines.findIndex((l) => l.mark === mark),
    1,
  );
}

describe('receipts to socket writers (Claude Code status lines)', () => {
  it('reports held, then denied, as peer_message_status lines to a writer in the same directory', async () => {
    th = await startHub();
    const c = await th.client();
    const r = await th.register(c, { name: 'receiver', permissionMode: 'bypassPermissions' });
    const peer = await fakePeer(path.join(path.dirname(socketPathOf(r.address)!), 'cc-peer.sock'));
    try {
      await writeSocket(
        socketPathOf(r.address)!,
        JSON.stringify({
          type: 'user',
          msg_id: 'm-1',
          message: { role: 'user', content: 'hi' },
          from: udsAddress(peer.path),
        }) + '\n',
      );
      await until(() => peer.lines.length === 1);
      expect(peer.lines[0]).toMatchObject({
        type: 'control',
        action: 'peer_message_status',
        status: 'held',
        orig_msg_id: 'm-1',
        from: r.address,
      });
      const ui = await th.client();
      const [held] = (await ui.call('held.list', { uiToken: th.hub.uiToken })).items;
      expect(held!.sender).toEqual({
        name: null,
        address: udsAddress(peer.path),
        sessionId: null,
        verified: false,
        // A socket writer is no session: nothing more is known about it.
        agent: null,
        mode: null,
        cwd: null,
        machine: null,
      });
      expect(held!.reason).toContain('unverified');
      await ui.call('held.deny', { uiToken: th.hub.uiToken, id: 'm-1' });
      await until(() => peer.lines.length === 2);
      expect(peer.lines[1]).toMatchObject({ status: 'denied', orig_msg_id: 'm-1' });
    } finally {
      await peer.close();
    }
  });

  it('folds drop reports: one immediately, the rest as one line with the count after the window', async () => {
    const clock = fakeClock();
    th = await startHub({ clock, limits: { livenessSweepMs: 30 } });
    const c = await th.client();
    const r = await th.register(c, { name: 'receiver' });
    const peer = await fakePeer(path.join(path.dirname(socketPathOf(r.address)!), 'flood.sock'));
    try {
      const lines = Array.from({ length: 40 }, (_, i) =>
        JSON.stringify({
          type: 'user',
          msg_id: `f-${i}`,
          message: { role: 'user', content: `flood ${i}` },
          from: udsAddress(peer.path),
        }),
      );
      await writeSocket(socketPathOf(r.address)!, lines.join('\n') + '\n');
      // An unverified writer may fill half of the 50-message queue (verified senders keep the rest).
      await until(async () => (await c.call('inbox.fetch', { ...auth(r), limit: 1000 })).items.length === 25);
      await until(() => peer.lines.length === 1);
      expect(peer.lines[0]).toMatchObject({ status: 'dropped', reason: 'queue-full' });
      // All 40 lines were decided in one read (one 5 KB write); a report or fold sent before the window would be
      // written now or on a 0 ms timer (the fake clock stands still).
      await timerTurn();
      await peerCaughtUp(peer);
      expect(peer.lines).toHaveLength(1);
      clock.advance(60_000);
      await until(() => peer.lines.length === 2);
      expect(peer.lines[1]).toMatchObject({ status: 'dropped', reason: 'queue-full (14 messages)' });
    } finally {
      await peer.close();
    }
  });
});

describe('idle notices and the subscriber policy', () => {
  it('goes to the user, not the agent, when the subscriber would hold the target', async () => {
    th = await startHub();
    const wc = await th.client();
    const watcher = await th.register(wc, { name: 'watcher', permissionMode: 'bypassPermissions' });
    const tc = await th.client();
    const target = await th.register(tc, { name: 'target' });
    const ui = await th.client();
    const events: unknown[] = [];
    ui.on('ui.event', (e) => events.push(e));
    await ui.call('ui.attach', { uiToken: th.hub.uiToken });
    expect((await wc.call('message.send', { ...auth(watcher), to: 'target', notify_when_idle: true })).status).toBe(
      'subscribed',
    );
    const subs = await ui.call('subscriptions.list', { uiToken: th.hub.uiToken });
    expect(subs.items).toHaveLength(1);
    await tc.call('session.state', { ...auth(target), state: 'busy' });
    await tc.call('session.state', { ...auth(target), state: 'idle' });
    await until(() => events.some((e) => (e as { type: string }).type === 'user.notice'));
    expect((await wc.call('inbox.fetch', auth(watcher))).items).toEqual([]);
    const { notices } = await ui.call('activity.list', { uiToken: th.hub.uiToken });
    expect(notices).toEqual([
      expect.objectContaining({
        sessionId: watcher.sessionId,
        text: expect.stringMatching(/^\[Cross-session idle notice\] target \[[0-9a-f]+\] is now idle\.$/),
      }),
    ]);
  });

  /** watcher asked to be told when target is idle. */
  async function subscribed() {
    th = await startHub();
    const wc = await th.client();
    const watcher = await th.register(wc, { name: 'watcher' });
    const tc = await th.client();
    const target = await th.register(tc, { name: 'target' });
    const ui = await th.client();
    await wc.call('message.send', { ...auth(watcher), to: 'target', notify_when_idle: true });
    const [sub] = (await ui.call('subscriptions.list', { uiToken: th.hub.uiToken })).items;
    return { wc, watcher, tc, target, ui, sub: sub! };
  }

  it('the UI lists a subscription with its subscriber and target', async () => {
    const { target, sub } = await subscribed();
    expect(sub).toMatchObject({ subscriber: { name: 'watcher' }, target: { sessionId: target.sessionId } });
  });

  it('a subscription the UI cancelled never fires', async () => {
    const { wc, watcher, tc, target, ui, sub } = await subscribed();
    const hub = th.hub;
    expect(await ui.call('subscriptions.cancel', { uiToken: hub.uiToken, id: sub.id })).toEqual({
      cancelled: true,
    });
    await tc.call('session.state', { ...auth(target), state: 'busy' });
    await tc.call('session.state', { ...auth(target), state: 'idle' });
    // A later message into the watcher's inbox: a notice from the idle before it would be stored first.
    const last = await tc.call('message.send', { ...auth(target), to: 'watcher', summary: 's', message: 'after' });
    await until(async () => (await wc.call('inbox.fetch', auth(watcher))).items.some((i) => i.id === last.msg_id));
    expect((await wc.call('inbox.fetch', auth(watcher))).items.map((i) => i.kind)).toEqual(['message']);
    expect((await ui.call('activity.list', { uiToken: hub.uiToken })).notices).toEqual([]);
  });
});

describe('who may bypass parity', () => {
  it("the session's own child (its token on the auth line) is delivered to a bypassing session; others are held", async () => {
    th = await startHub();
    const c = await th.client();
    const r = await th.register(c, { name: 'receiver', permissionMode: 'bypassPermissions' });
    const line = (id: string) =>
      JSON.stringify({ type: 'user', msg_id: id, message: { role: 'user', content: `from a script (${id})` } });
    await writeSocket(
      socketPathOf(r.address)!,
      JSON.stringify({ type: 'auth', token: r.token }) + '\n' + line('child') + '\n',
    );
    await writeSocket(socketPathOf(r.address)!, line('stranger') + '\n');
    await until(async () => (await c.call('inbox.fetch', auth(r))).items.length === 1);
    expect((await c.call('inbox.fetch', auth(r))).items.map((i) => i.id)).toEqual(['child']);
    const ui = await th.client();
    await until(async () => (await ui.call('held.list', { uiToken: th.hub.uiToken })).items.length === 1);
  });

  it('a managed file beats the user and the session', async () => {
    const dirs = (await import('../../helpers/hub.js')).tempDirs();
    const fs = await import('node:fs');
    fs.writeFileSync(path.join(dirs.root, 'managed-settings.json'), JSON.stringify({ crossSessionInbound: 'refuse' }));
    fs.mkdirSync(dirs.home, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(dirs.home, 'settings.json'), JSON.stringify({ crossSessionInbound: 'accept' }));
    th = await startHub({}, dirs);
    const c = await th.client();
    const a = await th.register(c, { name: 'a' });
    await th.register(await th.client(), { name: 'b', settings: { crossSessionInbound: 'accept' } });
    const r = await c.call('message.send', { ...auth(a), to: 'b', summary: 's', message: 'x' });
    expect(r).toMatchObject({ status: 'refused', reason: 'crossSessionInbound is "refuse" in managed settings' });
    const eff = (await c.call('settings.effective', { uiToken: th.hub.uiToken })).effective as {
      inbound: { source: string };
    };
    expect(eff.inbound.source).toBe('managed');
  });
});
