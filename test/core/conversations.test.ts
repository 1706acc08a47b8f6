// Identities that survive a restart of the agent: a session bound to its
// agent's conversation (the hook input's session_id) waits after its
// process ends, its unread senders told `kept`; when the conversation comes
// back in a new process (same agent, same folder) — named at registration
// or, when the MCP adapter registered first, by the first hook — it gets
// its session back: id, address, name (so peers' pins hold), waiting mail;
// the new process's credentials act as it, in the folder it runs in now. A
// new conversation is a new session. It all survives a hub restart.
// Real hub, real sockets and journal; each agent process is a real `sleep`.

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HubClient } from '../../core/client/client.js';
import type { InboxItem, MethodInput } from '../../core/protocol/methods.js';
import { startHub, tempDirs, until, type TestHub } from '../helpers/hub.js';
import { stopAll, stopProcess } from '../helpers/processes.js';
import { stockPeer, type StockPeer } from './stock/helpers.js';

let th: TestHub | undefined;
const procs: ChildProcess[] = [];
const stocks: StockPeer[] = [];
afterEach(async () => {
  await th?.close();
  th = undefined;
  await stopAll(procs.splice(0));
  for (const s of stocks.splice(0)) await s.stop();
});

type Creds = { sessionId: string; token: string };
const creds = (r: Creds): Creds => ({ sessionId: r.sessionId, token: r.token });

function agentProcess(): ChildProcess {
  const p = spawn('sleep', ['600'], { stdio: 'ignore' });
  procs.push(p);
  return p;
}

async function register(c: HubClient, p: ChildProcess, extra: Partial<MethodInput<'session.register'>> = {}) {
  return c.call('session.register', {
    cwd: th!.dirs.root,
    pid: p.pid!,
    liveness: 'pid',
    agent: 'claude',
    permissionMode: 'default',
    ...extra,
  });
}

const items = async (c: HubClient, r: Creds): Promise<InboxItem[]> => (await c.call('inbox.fetch', creds(r))).items;
const receipts = async (c: HubClient, r: Creds): Promise<string[]> =>
  (await items(c, r)).flatMap((i) => (i.kind === 'receipt' ? [i.status] : []));

/** A conversation's first process gets a message, then exits (its adapter unregisters, as at exit). */
async function endedWithMail(c: HubClient, alice: Creds, conversation: string, name: string) {
  const first = agentProcess();
  const reg = await register(c, first, { conversation, name });
  const sent = await c.call('message.send', { ...creds(alice), to: name, summary: 's', message: `for ${name}` });
  expect(sent.status).toBe('queued');
  await c.call('session.unregister', creds(reg));
  await stopProcess(first);
  await until(async () => (await receipts(c, alice)).includes('kept'));
  return { reg, sent };
}

describe('a conversation that comes back gets its session back', () => {
  it('a conversation named at registration gets its session back, with its waiting mail', async () => {
    th = await startHub();
    const c = await th.client();
    const alice = await c.call('session.register', { cwd: th.dirs.root, name: 'alice', permissionMode: 'default' });
    const { reg, sent } = await endedWithMail(c, alice, 'conv-1', 'api');
    const [kept] = (await items(c, alice)).filter((i) => i.kind === 'receipt');
    expect(kept, 'the sender is told kept').toMatchObject({ status: 'kept', origMsgId: sent.msg_id });
    expect(th.hub.table.live.has(reg.sessionId), 'not live while its process is gone').toBe(false);

    const again = await register(c, agentProcess(), { conversation: 'conv-1' });
    expect(again, 'same id, address and name').toMatchObject({
      sessionId: reg.sessionId,
      name: 'api',
      address: reg.address,
      resumed: true,
    });
    const mail = await items(c, again);
    expect(
      mail.map((i) => i.kind === 'message' && i.text),
      'its waiting mail',
    ).toEqual([expect.stringContaining('for api')]);
    await c.call('inbox.ack', { ...creds(again), ids: mail.map((i) => i.id) });
    await until(async () => (await receipts(c, alice)).includes('delivered')); // a hang: the sender is never told
    // A peer that pinned "api" to its address still reaches it by name.
    const later = await c.call('message.send', { ...creds(alice), to: 'api', summary: 's', message: 'again' });
    expect(later.status, 'the pin still holds').toBe('queued');
  });

  it('keeps its name when its earlier process’s Claude Code registry entry, of the same name, is still listed', async () => {
    th = await startHub();
    const t = th;
    const c = await t.client();
    // The first process is a stock Claude Code session too, and Claude Code names it as we did ("api").
    const proc = agentProcess();
    const reg = await register(c, proc, { conversation: 'conv-stale', name: 'api' });
    const first = await stockPeer(
      path.join(t.dirs.root, 'claude'),
      path.join(t.dirs.root, 'cc-socks'),
      { name: 'api' },
      { proc },
    );
    stocks.push(first);
    // One row while our session runs in that process; its adapter ends while discovery still lists the file (on a
    // loaded machine discovery sees the process gone after the conversation came back).
    await until(() => t.hub.table.stock.some((st) => st.entry.pid === first.pid));
    expect(t.hub.table.named('api').map((r) => r.session?.id)).toEqual([reg.sessionId]);
    // Its adapter ends while discovery still lists the file (on a loaded machine it sees the process gone later).
    await c.call('session.unregister', creds(reg));
    expect(t.hub.table.named('api').map((r) => r.stock?.entry.pid)).toEqual([first.pid]);
    const again = await register(c, agentProcess(), { conversation: 'conv-stale', name: 'api-new' });
    expect(again).toMatchObject({ sessionId: reg.sessionId, name: 'api', resumed: true });
  });

  it('named by the first hook after the adapter registered: the adapter’s credentials act as the old session', async () => {
    th = await startHub();
    const c = await th.client();
    const alice = await c.call('session.register', { cwd: th.dirs.root, name: 'alice', permissionMode: 'default' });
    const { reg } = await endedWithMail(c, alice, 'conv-2', 'web');
    const adapter = await register(c, agentProcess()); // no conversation known yet
    expect(adapter.sessionId).not.toBe(reg.sessionId);
    const listener = await th.client(); // the adapter listens for pushes as itself
    const pushed: string[] = [];
    listener.on('inbox.item', (p) => void pushed.push((p as { sessionId: string }).sessionId));
    await listener.call('inbox.subscribe', creds(adapter));
    await c.call('session.state', { ...creds(adapter), state: 'busy', hook: true, agentSessionId: 'conv-2' });
    const mail = await items(c, adapter);
    expect(mail.map((i) => i.kind === 'message' && i.text)).toEqual([expect.stringContaining('for web')]);
    const rows = (await c.call('agents.list', {})).rows.filter((a) => a.name !== 'alice');
    expect(rows.map((a) => [a.name, a.address])).toEqual([['web', reg.address]]);
    await c.call('message.send', { ...creds(alice), to: 'web', summary: 's', message: 'pushed' });
    await until(() => pushed.includes(reg.sessionId));
  });

  it('a new conversation in the same folder is a new session; another agent’s is never taken over', async () => {
    th = await startHub();
    const c = await th.client();
    const alice = await c.call('session.register', { cwd: th.dirs.root, name: 'alice', permissionMode: 'default' });
    const { reg } = await endedWithMail(c, alice, 'conv-3', 'docs');
    const other = await register(c, agentProcess(), { conversation: 'conv-4' });
    expect(other.sessionId).not.toBe(reg.sessionId);
    const codex = await register(c, agentProcess(), { conversation: 'conv-3', agent: 'codex' });
    expect(codex.sessionId).not.toBe(reg.sessionId);
    expect(th.hub.table.dormant.has(reg.sessionId)).toBe(true);
    // Resumed from another folder (Claude Code allows it): it comes back, in that folder.
    const elsewhere = tempDirs().root;
    const back = await register(c, agentProcess(), { conversation: 'conv-3', cwd: elsewhere });
    expect(back.sessionId).toBe(reg.sessionId);
    expect(th.hub.table.live.get(reg.sessionId)!.cwd).toBe(elsewhere);
  });

  it('waits across a hub restart, and comes back after it', async () => {
    th = await startHub();
    const dirs = th.dirs;
    let c = await th.client();
    const alice = await c.call('session.register', {
      cwd: dirs.root,
      name: 'alice',
      permissionMode: 'default',
      liveness: 'pid',
      pid: agentProcess().pid!,
    });
    const { reg } = await endedWithMail(c, alice, 'conv-5', 'ops');
    await th.close();
    th = await startHub({}, dirs);
    c = await th.client();
    expect(th.hub.table.dormant.has(reg.sessionId)).toBe(true);
    const again = await register(c, agentProcess(), { conversation: 'conv-5' });
    expect(again).toMatchObject({ sessionId: reg.sessionId, name: 'ops' });
    expect((await items(c, again)).some((i) => i.kind === 'message' && i.text.includes('for ops'))).toBe(true);
  });
});
