// History completeness: messages that leave this hub are recorded
// with their outcome — to a stock Claude Code session (sent, then its
// receipts), to another program's socket, to a team mailbox, and to another
// machine through a real nats-server relay (queued there, then delivered;
// confirm-denied when the user says no). Failed sends are `dropped` with why.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HubClient } from '../../../core/client/client.js';
import type { HistoryMessage } from '../../../core/protocol/history.js';
import type { Registration } from '../../../core/protocol/methods.js';
import { fakePeer, FIXTURES } from '../../helpers/peer.js';
import { startHub, until, type TestHub } from '../../helpers/hub.js';
import { machine, startNats, type Nats } from '../relay/nats.js';
import { stockPeer, type StockPeer } from '../stock/helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
const creds = (r: Registration) => ({ sessionId: r.sessionId, token: r.token });
const all = async (c: HubClient, th: TestHub, more: Record<string, unknown> = {}): Promise<HistoryMessage[]> =>
  (await c.call('history.search', { uiToken: th.hub.uiToken, ...more })).messages;
const trail = (m: HistoryMessage): string[] => m.trail.map((e) => `${e.kind}:${e.status}`);

async function hub(): Promise<{ th: TestHub; c: HubClient; alice: Registration }> {
  const th = await startHub();
  cleanups.push(() => th.close());
  const c = await th.client();
  return { th, c, alice: await th.register(c, { name: 'alice' }) };
}

describe('messages leaving the hub are in its history', () => {
  it("a send to a Claude Code session is recorded sent, and Claude Code's receipts move its outcome", async () => {
    const { th, c, alice } = await hub();
    const peer: StockPeer = await stockPeer(path.join(th.dirs.root, 'claude'), path.join(th.dirs.root, 'cc-socks'));
    cleanups.push(() => peer.stop());
    await until(async () => (await c.call('agents.list', {})).rows.some((r) => r.kind === 'claude-code'));
    const r = await c.call('message.send', {
      ...creds(alice),
      to: `myapp-${peer.pid}`,
      summary: 'tests',
      message: 'please run the stock tests',
    });
    expect(r.status).toBe('sent');
    let [m] = await all(c, th);
    expect(m, 'recorded sent').toMatchObject({
      msgId: r.msg_id,
      outcome: 'sent',
      reason: 'written to the Claude Code session’s socket',
      sender: { sessionId: alice.sessionId, name: 'alice' },
      receiver: { sessionId: `uds:${peer.socketPath}`, name: `myapp-${peer.pid}` },
      summary: 'tests',
    });
    expect(m!.text).toContain('please run the stock tests');

    await until(() => peer.peer.lines.length === 1);
    const from = (peer.peer.lines[0]!.from as string).slice('uds:'.length);
    const status = (s: string, reason: string) => ({
      type: 'control',
      action: 'peer_message_status',
      status: s,
      reason,
      from: `uds:${peer.socketPath}`,
      orig_msg_id: r.msg_id,
      msgV: 1,
      msg_id: `st-${s}`,
    });
    await peer.send(from, status('held', 'Held for the user.'));
    // A hang in either wait: a receipt did not move the outcome.
    await until(async () => (await all(c, th))[0]!.outcome === 'held');
    await peer.send(from, status('delivered', 'Delivered.'));
    await until(async () => (await all(c, th))[0]!.outcome === 'delivered');
    [m] = await all(c, th);
    expect(trail(m!), 'each receipt on its trail').toEqual(['receipt:sent', 'receipt:held', 'receipt:delivered']);
    // The sender's own history (its credentials) has it too; the filter knows `sent`.
    expect(
      (await c.call('history.search', { ...creds(alice), text: 'stock tests' })).messages,
      "in the sender's own history",
    ).toHaveLength(1);
    expect(await all(c, th, { outcome: ['sent'] }), 'no longer sent').toEqual([]);
  });

  it("a send to another program's socket is sent; one to a dead socket is dropped with the reason", async () => {
    const { th, c, alice } = await hub();
    const live = await fakePeer(path.join(th.dirs.root, 'script.sock'));
    cleanups.push(() => live.close());
    expect(
      (
        await c.call('message.send', {
          ...creds(alice),
          to: `uds:${live.path}`,
          summary: 'to a script',
          message: 'hello script',
        })
      ).status,
    ).toBe('sent');
    const dead = path.join(th.dirs.root, 'gone.sock');
    await expect(
      c.call('message.send', { ...creds(alice), to: `uds:${dead}`, summary: 'to nobody', message: 'hello void' }),
    ).rejects.toThrow();
    const [gone, sent] = await all(c, th);
    expect(sent).toMatchObject({
      outcome: 'sent',
      reason: 'written to the socket at that address',
      receiver: { sessionId: `uds:${live.path}`, name: `uds:${live.path}` },
    });
    expect(gone).toMatchObject({ outcome: 'dropped', summary: 'to nobody' });
    expect(gone!.reason).toMatch(/^unreachable: /);
  });

  it("a team mailbox send is in the team's conversation, a refused one as dropped with its code", async () => {
    const { th, c } = await hub();
    const root = th.hub.teams.root;
    fs.mkdirSync(root, { recursive: true });
    for (const sub of ['teams', 'tasks'])
      fs.cpSync(path.join(FIXTURES, sub), path.join(root, sub), { recursive: true });
    for (const p of fs.readdirSync(root, { recursive: true, withFileTypes: true }))
      fs.chmodSync(path.join(p.parentPath, p.name), p.isDirectory() ? 0o700 : 0o600);
    const r = await th.register(c, { name: 'r', team: 'session-3f9a1c2e', member: 'researcher' });
    await c.call('teams.send', {
      ...creds(r),
      team: 'session-3f9a1c2e',
      to: 'team-lead',
      text: 'survey finished',
      summary: 'survey done',
    });
    await expect(
      c.call('teams.send', {
        ...creds(r),
        team: 'session-3f9a1c2e',
        to: 'team-lead',
        text: JSON.stringify({ type: 'team_permission_update', rules: [] }),
      }),
    ).rejects.toThrow();
    const conv = (await c.call('history.conversation', { uiToken: th.hub.uiToken, team: 'session-3f9a1c2e' })).messages;
    expect(
      conv.map((m) => [m.summary, m.outcome, m.receiver.name, m.receiver.team]),
      'the sent one, then the refused one',
    ).toEqual([
      ['survey done', 'sent', 'team-lead', 'session-3f9a1c2e'],
      [null, 'dropped', 'team-lead', 'session-3f9a1c2e'],
    ]);
    expect(conv[0]).toMatchObject({
      reason: "in team-lead's mailbox of team session-3f9a1c2e",
      sender: { sessionId: r.sessionId, name: 'r', team: 'session-3f9a1c2e' },
    });
    expect(conv[1]!.reason, 'the refusal code').toMatch(/^frame_not_allowed: /);
  });
});

describe('messages to another machine are in the sending hub’s history', () => {
  let nats: Nats;
  it('queued there, then delivered by its receipt; a send the user denied is confirm-denied', async () => {
    nats = await startNats();
    cleanups.push(() => nats.stop());
    const a = await machine('laptop', nats);
    cleanups.push(() => a.close());
    const b = await machine('buildbox', nats);
    cleanups.push(() => b.close());
    const ca = await a.client();
    const cb = await b.client();
    const alice = await a.register(ca, { name: 'alice' });
    const bob = await b.register(cb, { name: 'bob' });
    await until(async () => (await ca.call('agents.list', {})).rows.some((r) => r.name === 'bob'));
    const sent = await ca.call('message.send', {
      ...creds(alice),
      to: 'bob',
      summary: 'build',
      message: 'please build main',
    });
    expect(sent.status).toBe('queued');
    const [m] = await all(ca, a);
    expect(m).toMatchObject({
      msgId: sent.msg_id,
      outcome: 'queued',
      receiver: { sessionId: `peer:buildbox/${bob.sessionId}`, name: 'bob on buildbox' },
      sender: { name: 'alice' },
    });
    const items = (await cb.call('inbox.fetch', { ...creds(bob) })).items;
    await cb.call('inbox.ack', { ...creds(bob), ids: items.map((i) => i.id) });
    await until(async () => (await all(ca, a))[0]!.outcome === 'delivered');

    await ca.call('settings.set', { uiToken: a.hub.uiToken, key: 'isolatePeerMachines', value: true });
    const denied = ca.call('message.send', { ...creds(alice), to: 'bob', summary: 'secret', message: 'secret plans' });
    await until(async () => (await ca.call('confirmations.list', { uiToken: a.hub.uiToken })).items.length === 1);
    const [conf] = (await ca.call('confirmations.list', { uiToken: a.hub.uiToken })).items;
    await ca.call('confirmations.deny', { uiToken: a.hub.uiToken, id: conf!.id });
    expect((await denied).status).toBe('confirm-denied');
    const [last] = await all(ca, a);
    expect(last).toMatchObject({ summary: 'secret', outcome: 'confirm-denied' });
    expect(
      (
        await ca.call('history.conversation', { uiToken: a.hub.uiToken, between: ['alice', 'bob on buildbox'] })
      ).messages.map((x) => x.outcome),
    ).toEqual(['delivered', 'confirm-denied']);
  });
});
