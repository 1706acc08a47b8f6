// Waking idle receivers (core/wake) with a scripted Claude Code socket of
// the receiver's own process (same pid: one row): the message is written
// there once, hooks are not offered it again, and the sender's receipt
// follows Claude Code's answer or the turn's hook report. A held message
// does not wake. With no way in, the user is told and the sender gets
// `waiting`.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HubClient } from '../../core/client/client.js';
import type { HubEvent } from '../../core/protocol/events.js';
import type { InboxItem, Registration } from '../../core/protocol/methods.js';
import { startHub, until, wakesSettled, type TestHub } from '../helpers/hub.js';
import { authOf, fetchInbox, receiptsIn } from '../helpers/inbox.js';
import { stockPeer, type StockPeer } from './stock/helpers.js';

let t: TestHub;
let c: HubClient;
let alice: Registration;
let peer: StockPeer | undefined;
const fetch = (r: Registration): Promise<InboxItem[]> => fetchInbox(c, r);
const receipts = (r: Registration, msgId: string): Promise<InboxItem[]> => receiptsIn(c, r, msgId);

beforeEach(async () => {
  t = await startHub();
  c = await t.client();
  alice = await t.register(c, { name: 'alice' });
});
afterEach(async () => {
  await peer?.stop();
  peer = undefined;
  await t.close();
});

/** A Claude Code session of ours whose own process also has a messaging socket (scripted), idle by its Stop hook. */
async function idleClaude(opts: { permissionMode?: 'default' | 'bypassPermissions' } = {}): Promise<Registration> {
  peer = await stockPeer(path.join(t.dirs.root, 'claude'), path.join(t.dirs.root, 'cc-socks'), { version: '2.1.332' });
  const bob = await t.register(c, {
    name: 'bob',
    agent: 'claude',
    pid: peer.pid,
    liveness: 'pid',
    hook: true,
    ...opts,
  });
  await c.call('session.state', { ...authOf(bob), state: 'busy', hook: true });
  await c.call('session.state', { ...authOf(bob), state: 'idle', hook: true });
  await until(() => t.hub.table.stock.length === 1);
  const rows = (await c.call('agents.list', {})).rows.filter((r) => r.name === 'bob' || r.kind === 'claude-code');
  expect(rows, 'one row for the agent process').toHaveLength(1);
  return bob;
}

describe('waking an idle Claude Code session through its own socket', () => {
  it("a message is written into the idle session once, and is delivered at the turn's hook report", async () => {
    const bob = await idleClaude();
    const r = await c.call('message.send', { ...authOf(alice), to: 'bob', summary: 's', message: 'wake up' });
    expect(r.status).toBe('queued');
    await until(() => peer!.peer.lines.some((l) => l.type === 'user'));
    const line = peer!.peer.lines.find((l) => l.type === 'user')!;
    expect(line, 'a user line').toMatchObject({
      msg_id: r.msg_id,
      type: 'user',
      priority: 'next',
      message: { role: 'user' },
    });
    expect((line.message as { content: string }).content).toContain('wake up');
    expect(line.from as string, 'from a reply socket of the hub').toMatch(/\/cc-socks\/sb-[0-9a-f]{16}\.sock$/);
    expect(await fetch(bob), 'a hook fetch must not hand the claimed message over again').toEqual([]);
    expect(await receipts(alice, r.msg_id), 'no receipt before the turn ends').toEqual([]);
    expect(t.hub.table.live.get(bob.sessionId)!.state, 'the message started a turn').toBe('busy');
    // The turn the message started ends: its Stop hook reports.
    await c.call('session.state', { ...authOf(bob), state: 'idle', hook: true });
    await until(async () => (await receipts(alice, r.msg_id)).length === 1);
    expect((await receipts(alice, r.msg_id))[0], 'delivered at the hook report').toMatchObject({ status: 'delivered' });
    expect(t.hub.mailboxes.depth(bob.sessionId), 'nothing left in the inbox').toBe(0);
    await wakesSettled(t.hub);
    expect(
      peer!.peer.lines.filter((l) => l.type === 'user'),
      'written once',
    ).toHaveLength(1);
  });

  it("a message Claude Code itself holds is settled only by Claude Code's later status", async () => {
    const bob = await idleClaude();
    const r = await c.call('message.send', { ...authOf(alice), to: 'bob', summary: 's', message: 'careful' });
    await until(() => peer!.peer.lines.some((l) => l.type === 'user'));
    const from = peer!.peer.lines.find((l) => l.type === 'user')!.from as string;
    const reply = from.slice('uds:'.length);
    await peer!.send(reply, {
      type: 'control',
      action: 'peer_message_status',
      status: 'held',
      reason: 'held for the user',
      from: `uds:${peer!.socketPath}`,
      orig_msg_id: r.msg_id,
      msgV: 1,
    });
    // The sender is told held (a hang here: no held receipt).
    await until(async () => (await receipts(alice, r.msg_id)).some((i) => i.kind === 'receipt' && i.status === 'held'));
    expect(t.hub.table.live.get(bob.sessionId)!.state, 'no turn started').toBe('idle');
    await c.call('session.state', { ...authOf(bob), state: 'busy', hook: true });
    await c.call('session.state', { ...authOf(bob), state: 'idle', hook: true });
    await wakesSettled(t.hub);
    expect(
      (await receipts(alice, r.msg_id)).some((i) => i.kind === 'receipt' && i.status === 'delivered'),
      'a hook report does not settle what Claude Code holds',
    ).toBe(false);
    expect(await fetch(bob), "still Claude Code's to decide").toEqual([]);
    await peer!.send(reply, {
      type: 'control',
      action: 'peer_message_status',
      status: 'delivered',
      from: `uds:${peer!.socketPath}`,
      orig_msg_id: r.msg_id,
      msgV: 1,
    });
    await until(async () =>
      (await receipts(alice, r.msg_id)).some((i) => i.kind === 'receipt' && i.status === 'delivered'),
    );
    expect(t.hub.mailboxes.depth(bob.sessionId), "Claude Code's delivered settles it").toBe(0);
  });

  it('a message our policy holds does not wake the session; approved, it does', async () => {
    await idleClaude();
    const mallory = await t.register(c, { name: 'mallory', permissionMode: 'bypassPermissions' });
    const r = await c.call('message.send', { ...authOf(mallory), to: 'bob', summary: 's', message: 'held by parity' });
    expect(r.status).toBe('held');
    await wakesSettled(t.hub);
    expect(peer!.peer.lines.filter((l) => l.type === 'user')).toHaveLength(0);
    const [held] = (await c.call('held.list', { uiToken: t.hub.uiToken })).items;
    await c.call('held.approve', { uiToken: t.hub.uiToken, id: held!.id });
    await until(() => peer!.peer.lines.some((l) => l.type === 'user' && l.msg_id === r.msg_id));
  });

  it('not while Claude Code itself says busy (its registry status); its change to idle wakes it', async () => {
    await idleClaude();
    const entry = JSON.parse(fs.readFileSync(peer!.registry, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(peer!.registry, JSON.stringify({ ...entry, status: 'busy', updatedAt: Date.now() }));
    await until(() => t.hub.table.stock[0]?.status === 'busy');
    const r = await c.call('message.send', { ...authOf(alice), to: 'bob', summary: 's', message: 'not yet' });
    await wakesSettled(t.hub);
    expect(peer!.peer.lines.filter((l) => l.type === 'user')).toHaveLength(0);
    fs.writeFileSync(peer!.registry, JSON.stringify({ ...entry, status: 'idle', updatedAt: Date.now() + 1 }));
    await until(() => peer!.peer.lines.some((l) => l.type === 'user' && l.msg_id === r.msg_id));
  });

  it('a busy session is not woken: its hooks hand the message over', async () => {
    const bob = await idleClaude();
    await c.call('session.state', { ...authOf(bob), state: 'busy', hook: true });
    const r = await c.call('message.send', { ...authOf(alice), to: 'bob', summary: 's', message: 'while busy' });
    await wakesSettled(t.hub);
    expect(peer!.peer.lines.filter((l) => l.type === 'user')).toHaveLength(0);
    expect((await fetch(bob)).map((i) => i.id)).toEqual([r.msg_id]);
  });
});

describe('no way in', () => {
  it('a message an idle Codex session cannot be woken for waits, and its user and sender are told once', async () => {
    const events: HubEvent[] = [];
    t.hub.events.on((e) => events.push(e));
    const codex = await t.register(c, { name: 'web', agent: 'codex', hook: true });
    await c.call('session.state', { ...authOf(codex), state: 'busy', hook: true });
    await c.call('session.state', { ...authOf(codex), state: 'idle', hook: true });
    const r1 = await c.call('message.send', { ...authOf(alice), to: 'web', summary: 's', message: 'one' });
    const r2 = await c.call('message.send', { ...authOf(alice), to: 'web', summary: 's', message: 'two' });
    await until(async () => (await receipts(alice, r2.msg_id)).length === 1);
    expect((await receipts(alice, r1.msg_id))[0], 'the sender gets waiting').toMatchObject({ status: 'waiting' });
    const first = (await receipts(alice, r1.msg_id))[0];
    expect(first?.kind === 'receipt' ? first.reason : '').toMatch(/idle and cannot be woken.*its user has been told/);
    const notices = events.flatMap((e) => (e.type === 'user.notice' ? [e.notice.text] : []));
    expect(notices.at(-1), 'a notice for its user').toMatch(
      /^2 messages waiting for web( \[[0-9a-f]+\])?, which is idle/,
    );
    const row = (await c.call('agents.list', {})).rows.find((x) => x.name === 'web')!;
    expect(row.waiting, 'its row counts them').toBe(2);
    expect(
      t.hub.userNotices.list().some((n) => /2 messages waiting for web/.test(n.text)),
      'the notice is kept for a UI that opens later',
    ).toBe(true);
    // Messages are still in its inbox for its next turn; going idle again tells nobody twice.
    expect((await fetch(codex)).map((i) => i.id).sort(), 'both wait in its inbox').toEqual(
      [r1.msg_id, r2.msg_id].sort(),
    );
    await c.call('session.state', { ...authOf(codex), state: 'busy', hook: true });
    expect(
      (await c.call('agents.list', {})).rows.find((x) => x.name === 'web')!.waiting,
      'a turn clears the count',
    ).toBe(0);
    await c.call('inbox.ack', { ...authOf(codex), ids: [r1.msg_id, r2.msg_id] });
    await c.call('session.state', { ...authOf(codex), state: 'idle', hook: true });
    await wakesSettled(t.hub);
    expect(
      (await receipts(alice, r1.msg_id)).filter((i) => i.kind === 'receipt' && i.status === 'waiting'),
      'the sender is told once per message',
    ).toHaveLength(1);
  });

  it('a session without hooks (MCP only) tells nobody: its idle means nothing', async () => {
    const other = await t.register(c, { name: 'plain' });
    const r = await c.call('message.send', { ...authOf(alice), to: 'plain', summary: 's', message: 'x' });
    await wakesSettled(t.hub);
    expect(await receipts(alice, r.msg_id)).toEqual([]);
    expect((await fetch(other)).length).toBe(1);
  });
});
