// A busy Claude Code turn takes messages through its own messaging socket
// (core/wake/claude-socket.ts, "busy"): only an interactive 2.1.332+ process
// that itself says busy, after our policy, within Claude Code's throttle, and
// written once; the sender's `delivered` waits for the turn's next hook
// report; Claude Code's own hold leaves the turn busy. Everything else waits
// in the inbox for the session's hooks. A scripted Claude Code socket of the
// receiver's own process (same pid: one row).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HubClient } from '../../core/client/client.js';
import type { InboxItem, Registration } from '../../core/protocol/methods.js';
import type { Limits } from '../../core/protocol/limits.js';
import { startHub, until, wakesSettled, type TestHub } from '../helpers/hub.js';
import { authOf, fetchInbox, receiptsIn } from '../helpers/inbox.js';
import { stockPeer, type StockPeer } from './stock/helpers.js';

let t: TestHub;
let c: HubClient;
let alice: Registration;
let peer: StockPeer | undefined;
const fetch = (r: Registration): Promise<InboxItem[]> => fetchInbox(c, r);
const receipts = (r: Registration, msgId: string): Promise<InboxItem[]> => receiptsIn(c, r, msgId);
const written = () => peer!.peer.lines.filter((l) => l.type === 'user');

afterEach(async () => {
  await peer?.stop();
  peer = undefined;
  await t.close();
});

/** A Claude Code session of ours in a turn (its hooks said busy; its registry entry says `status`). */
async function busyClaude(
  entry: Record<string, unknown> = {},
  limits: Partial<Limits> = {},
): Promise<{ bob: Registration; setStatus: (status: string) => Promise<void> }> {
  t = await startHub({ limits });
  c = await t.client();
  alice = await t.register(c, { name: 'alice' });
  peer = await stockPeer(path.join(t.dirs.root, 'claude'), path.join(t.dirs.root, 'cc-socks'), {
    version: '2.1.332',
    status: 'busy',
    ...entry,
  });
  const bob = await t.register(c, { name: 'bob', agent: 'claude', pid: peer.pid, liveness: 'pid', hook: true });
  await c.call('session.state', { ...authOf(bob), state: 'busy', hook: true });
  await until(() => t.hub.table.stock.length === 1);
  const registry = peer.registry;
  return {
    bob,
    async setStatus(status) {
      const e = JSON.parse(fs.readFileSync(registry, 'utf8')) as Record<string, unknown>;
      fs.writeFileSync(registry, JSON.stringify({ ...e, status, updatedAt: Date.now() }));
      await until(() => t.hub.table.stock[0]?.status === status);
    },
  };
}

const send = (message: string, from = alice) =>
  c.call('message.send', { ...authOf(from), to: 'bob', summary: 's', message });

describe('a busy Claude Code turn takes messages through its own socket', () => {
  it('a message is written into the turn once, and is delivered at its next hook report', async () => {
    const { bob } = await busyClaude();
    const r = await send('mid-turn note');
    expect(r.status).toBe('queued');
    await until(() => written().length === 1);
    expect(written()[0], 'a user line for the next model request').toMatchObject({
      msg_id: r.msg_id,
      type: 'user',
      priority: 'next',
    });
    const content = (written()[0]!.message as { content: string }).content;
    expect(content, 'our untrusted framing is inside the content').toMatch(
      /^<cross-session-message [^>]*from-name="alice"/,
    );
    expect(content, 'the text').toContain('mid-turn note');
    expect(await fetch(bob), 'a hook fetch must not hand the claimed message over again').toEqual([]);
    expect(await receipts(alice, r.msg_id), 'no receipt before the turn went on').toEqual([]);
    expect(t.hub.table.live.get(bob.sessionId)!.state, 'the turn stays busy').toBe('busy');
    // The turn's Stop hook reports.
    await c.call('session.state', { ...authOf(bob), state: 'idle', hook: true });
    await until(async () => (await receipts(alice, r.msg_id)).length === 1);
    const [receipt] = await receipts(alice, r.msg_id);
    expect(receipt, 'delivered at the hook report').toMatchObject({ status: 'delivered' });
    expect(receipt?.kind === 'receipt' ? receipt.reason : '', 'the receipt says how').toMatch(
      /busy Claude Code session.*next model request/,
    );
    await wakesSettled(t.hub);
    expect(written(), 'never written twice (not by the wake after its Stop either)').toHaveLength(1);
    expect(t.hub.mailboxes.depth(bob.sessionId), 'nothing left in the inbox').toBe(0);
  });

  it.each([
    ['Claude Code before 2.1.332', { version: '2.1.331' }],
    ['a headless run by kind', { kind: 'bg' }],
    ['a headless run by entrypoint', { entrypoint: 'sdk-cli' }],
    ['a turn Claude Code says is waiting', { status: 'waiting' }],
  ])('not into %s: the hooks hand the message over', async (_what, entry) => {
    const { bob } = await busyClaude(entry);
    const r = await send(`not mid-turn ${JSON.stringify(entry)}`);
    await wakesSettled(t.hub);
    expect(written(), JSON.stringify(entry)).toHaveLength(0);
    expect((await fetch(bob)).map((i) => i.id)).toEqual([r.msg_id]);
  });

  it('a message waiting for its Claude Code to say busy goes when it does', async () => {
    const { setStatus } = await busyClaude({ status: 'idle' });
    const r = await send('soon');
    await wakesSettled(t.hub);
    expect(written()).toHaveLength(0);
    await setStatus('busy');
    await until(() => written().some((l) => l.msg_id === r.msg_id));
  });

  it('a message our policy holds is not written mid-turn; approved, it is', async () => {
    await busyClaude();
    const mallory = await t.register(c, { name: 'mallory', permissionMode: 'bypassPermissions' });
    const r = await send('held by parity', mallory);
    expect(r.status).toBe('held');
    await wakesSettled(t.hub);
    expect(written()).toHaveLength(0);
    const [held] = (await c.call('held.list', { uiToken: t.hub.uiToken })).items;
    await c.call('held.approve', { uiToken: t.hub.uiToken, id: held!.id });
    await until(() => written().some((l) => l.msg_id === r.msg_id));
    const content = (written()[0]!.message as { content: string }).content;
    expect(content).toContain('approved="after-hold"');
  });

  it("a message Claude Code itself holds is settled only by Claude Code's later status", async () => {
    const { bob } = await busyClaude();
    const r = await send('careful');
    await until(() => written().length === 1);
    const reply = (written()[0]!.from as string).slice('uds:'.length);
    const status = (s: string) =>
      peer!.send(reply, {
        type: 'control',
        action: 'peer_message_status',
        status: s,
        from: `uds:${peer!.socketPath}`,
        orig_msg_id: r.msg_id,
        msgV: 1,
      });
    await status('held');
    // The sender is told held (a hang here: no held receipt).
    await until(async () => (await receipts(alice, r.msg_id)).some((i) => i.kind === 'receipt' && i.status === 'held'));
    expect(t.hub.table.live.get(bob.sessionId)!.state, 'its turn goes on').toBe('busy');
    await c.call('session.state', { ...authOf(bob), state: 'idle', hook: true });
    await wakesSettled(t.hub);
    expect(
      (await receipts(alice, r.msg_id)).some((i) => i.kind === 'receipt' && i.status === 'delivered'),
      'a hook report does not settle what Claude Code holds',
    ).toBe(false);
    await status('denied');
    await until(async () =>
      (await receipts(alice, r.msg_id)).some((i) => i.kind === 'receipt' && i.status === 'denied'),
    );
  });

  it("within Claude Code's throttle: a burst beyond it and an identical repeat wait for the hooks instead of being dropped unseen", async () => {
    const { bob } = await busyClaude({}, { claudeSocketBurst: 3 });
    const sent = [];
    for (const text of ['one', 'two', 'one', 'three', 'four', 'five']) sent.push(await send(text));
    await until(() => written().length === 3);
    await wakesSettled(t.hub);
    const ids = written().map((l) => l.msg_id);
    expect(ids).toEqual([sent[0]!.msg_id, sent[1]!.msg_id, sent[3]!.msg_id]);
    expect(
      (await fetch(bob)).map((i) => i.id),
      'the repeat and what the burst left are the hooks’',
    ).toEqual([sent[2]!.msg_id, sent[4]!.msg_id, sent[5]!.msg_id]);
  });
});

describe('the idle wake within the same throttle', () => {
  it('a message the throttle kept back from an idle session is written once the budget has room again', async () => {
    const { bob } = await busyClaude({ status: 'idle' }, { claudeSocketBurst: 1, claudeSocketPerSecond: 1 });
    await c.call('session.state', { ...authOf(bob), state: 'idle', hook: true });
    const a = await send('a');
    await until(() => written().length === 1);
    await c.call('session.state', { ...authOf(bob), state: 'idle', hook: true }); // its turn ended
    const b = await send('b');
    await until(() => written().some((l) => l.msg_id === b.msg_id));
    expect(written().map((l) => l.msg_id)).toEqual([a.msg_id, b.msg_id]);
  });
});

describe('a headless Claude Code run is never woken', () => {
  // claude -p: 2.1.332 registers it as kind interactive, entrypoint sdk-cli.
  it('claude -p is not woken: its hooks hand the message over', async () => {
    const { bob } = await busyClaude({ status: 'idle', entrypoint: 'sdk-cli' });
    await c.call('session.state', { ...authOf(bob), state: 'idle', hook: true });
    expect(t.hub.wake.routeFor(t.hub.table.live.get(bob.sessionId)!)).toMatchObject({
      kind: 'none',
      why: expect.stringMatching(/headless Claude Code run \(sdk-cli/) as unknown,
    });
    const r = await send('not a wake');
    await wakesSettled(t.hub);
    expect(written()).toHaveLength(0);
    expect((await fetch(bob)).map((i) => i.id)).toEqual([r.msg_id]);
  });
});
