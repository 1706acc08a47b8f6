// Sessions under hostile input: unbounded free-form
// objects, ghost registrations, unbounded retention, stranded messages,
// unverified writers flooding a receiver, and renames by strangers. Where the
// point is that the hub survives, against a real `switchboard serve`.

import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { HubClient, RpcError } from '../../core/client/client.js';
import { Journal } from '../../core/journal/journal.js';
import { socketPathOf, udsAddress } from '../../core/protocol/cc-wire.js';
import { LIMITS } from '../../core/protocol/limits.js';
import type { InboxItem, InboxReceipt, Registration } from '../../core/protocol/methods.js';
import { cliEnv, serveCli, type Served } from '../helpers/cli.js';
import { fakeClock, rawConnect, startHub, tempDirs, until, type TestHub } from '../helpers/hub.js';
import { fakePeer, writeSocket } from '../helpers/peer.js';
import { stopProcess } from '../helpers/processes.js';

let th: TestHub | undefined;
let served: Served | undefined;
const clients: HubClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await th?.close();
  th = undefined;
  await served?.stop('SIGKILL');
  served = undefined;
});

const auth = (r: Registration) => ({ sessionId: r.sessionId, token: r.token });
const reasonOf = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'resolved',
    (e: unknown) => (e instanceof RpcError ? e.reason : String(e)),
  );
/** `{"a":{"a":…1…}}`, `depth` objects deep, as raw JSON text (the client never has to stringify it). */
const deepJson = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

async function serve(): Promise<{ dirs: ReturnType<typeof tempDirs>; client: () => Promise<HubClient> }> {
  const dirs = tempDirs();
  served = await serveCli(cliEnv(dirs));
  const socket = served.ready.socket;
  return {
    dirs,
    client: async () => {
      const c = await HubClient.connect(socket);
      clients.push(c);
      return c;
    },
  };
}

async function receipts(c: HubClient, r: Registration): Promise<InboxReceipt[]> {
  const { items } = await c.call('inbox.fetch', { ...auth(r), limit: 1000 });
  return items.filter((i: InboxItem): i is InboxReceipt => i.kind === 'receipt');
}

describe('free-form objects are bounded (real serve process)', () => {
  it('session.register with settings nested 5000 deep is refused and leaves no trace', async () => {
    const hub = await serve();
    const raw = await rawConnect(served!.ready.socket);
    raw.write(
      `{"jsonrpc":"2.0","id":1,"method":"session.register","params":{"cwd":"/x","name":"ghost","settings":${deepJson(5000)}}}\n`,
    );
    const answer = await raw.next();
    expect(answer.error).toMatchObject({ data: { reason: 'invalid_params' } });
    expect(JSON.stringify(answer.error)).toContain('nested deeper than 32 levels');
    const c = await hub.client();
    expect((await c.call('agents.list', {})).rows, 'nothing is listed').toEqual([]);
    // Just within the bounds is fine, and the hub is whole.
    let ok: unknown = 1;
    for (let i = 0; i < LIMITS.jsonDepth; i++) ok = { a: ok };
    const r = await c.call('session.register', { cwd: '/y', name: 'fine', settings: ok as Record<string, unknown> });
    expect(
      (await c.call('agents.list', {})).rows.map((row) => row.name),
      'the hub serves everyone else',
    ).toEqual(['fine']);
    expect(
      await reasonOf(c.call('session.register', { cwd: '/y', settings: { big: 'x'.repeat(LIMITS.jsonBytes) } })),
    ).toBe('invalid_params');
    // Nothing of the refused ones reached the journal.
    const journal = fs.readFileSync(path.join(hub.dirs.home, 'journal.ndjson'), 'utf8');
    expect(journal, 'the journal never names it').not.toContain('ghost');
    expect(journal.split('\n').filter((l) => l.includes(r.sessionId)).length).toBe(1);
    raw.destroy();
  });

  it('tasks.create and tasks.update with deep or oversized metadata are refused and write no task file', async () => {
    const hub = await serve();
    const c = await hub.client();
    const raw = await rawConnect(served!.ready.socket);
    // An 18 KiB request that used to write a 17 MiB task file.
    raw.write(
      `{"jsonrpc":"2.0","id":1,"method":"tasks.create","params":{"list":"evil","subject":"s","metadata":${deepJson(3000)}}}\n`,
    );
    expect((await raw.next()).error).toMatchObject({ data: { reason: 'invalid_params' } });
    expect(
      await reasonOf(
        c.call('tasks.create', { list: 'evil', subject: 's', metadata: { blob: 'x'.repeat(LIMITS.jsonBytes + 1) } }),
      ),
    ).toBe('invalid_params');
    const tasksDir = path.join(hub.dirs.root, 'claude', 'tasks', 'evil');
    const files = fs.existsSync(tasksDir) ? fs.readdirSync(tasksDir).filter((f) => f.endsWith('.json')) : [];
    expect(files).toEqual([]);
    const { task } = await c.call('tasks.create', { list: 'evil', subject: 's', metadata: { note: 'small' } });
    raw.write(
      `{"jsonrpc":"2.0","id":2,"method":"tasks.update","params":{"list":"evil","id":"${task.id}","metadata":${deepJson(3000)}}}\n`,
    );
    expect((await raw.next()).error).toMatchObject({ data: { reason: 'invalid_params' } });
    expect((await c.call('tasks.get', { list: 'evil', id: task.id })).task.metadata).toEqual({ note: 'small' });
    raw.destroy();
  });

  it('settings.set with a deep value is refused', async () => {
    const hub = await serve();
    const raw = await rawConnect(served!.ready.socket);
    raw.write(
      `{"jsonrpc":"2.0","id":1,"method":"settings.set","params":{"uiToken":"${served!.ready.uiToken}","key":"throttle","value":${deepJson(5000)}}}\n`,
    );
    expect((await raw.next()).error).toMatchObject({ data: { reason: 'invalid_params' } });
    expect((await (await hub.client()).call('hub.info', undefined)).sessions).toBe(0);
    raw.destroy();
  });
});

describe('registration is atomic', () => {
  it('a journal write that fails leaves no session behind', async () => {
    th = await startHub();
    const c = await th.client();
    const journal = th.hub.journal;
    const real = journal.append.bind(journal);
    let failed = false;
    journal.append = (rec) => {
      if (!failed && rec.t === 's') {
        failed = true;
        return Promise.reject(new Error('disk full'));
      }
      return real(rec);
    };
    expect(await reasonOf(th.register(c, { name: 'ghost' }))).toBe('internal');
    expect((await c.call('agents.list', {})).rows, 'nothing listed').toEqual([]);
    expect(th.hub.servers.size, 'no server').toBe(0);
    expect(
      fs.readdirSync(th.hub.paths.socketDir).filter((f) => f.startsWith('s-')),
      'no socket',
    ).toEqual([]);
    // The name is free and the next registration works.
    expect((await th.register(c, { name: 'ghost' })).name).toBe('ghost');
  });

  it('a socket that cannot be bound leaves nothing listed and the journal without the session', async () => {
    th = await startHub();
    const c = await th.client();
    // The socket directory vanishes for a moment (works as root too, unlike a chmod); the open connection stays.
    // The hub's socket keeper would make it again as soon as its watch fires (on a loaded machine, before the
    // registration or before the directory is put back): it waits until the directory is back.
    const dir = th.hub.paths.socketDir;
    const hub = th.hub;
    const keep = hub.keepSockets.bind(hub);
    hub.keepSockets = () => Promise.resolve();
    fs.renameSync(dir, `${dir}.away`);
    try {
      expect(await reasonOf(th.register(c, { name: 'ghost' }))).toBe('internal');
    } finally {
      fs.renameSync(`${dir}.away`, dir);
      hub.keepSockets = keep;
    }
    expect(th.hub.servers.size).toBe(0);
    expect((await c.call('agents.list', {})).rows).toEqual([]);
    const home = th.dirs.home;
    await th.close();
    th = undefined;
    const { journal, state } = await Journal.open(home, {
      syncMs: 10,
      compactBytes: LIMITS.journalCompactBytes,
      lineBytes: LIMITS.journalLineBytes,
    });
    journal.close();
    expect([...state.sessions.values()].map((s) => s.name)).toEqual([]);
  });
});

describe('retention of ended sessions', () => {
  it('an ended session with nothing to resume is forgotten at once', async () => {
    th = await startHub();
    const c = await th.client();
    await th.register(c, { name: 'gone' });
    c.close();
    await until(() => th!.hub.table.size === 0);
    expect(th.hub.table.dormant.size).toBe(0); // in the same turn it left
    expect(th.hub.mailboxes.totalItems).toBe(0);
  });

  it('keeps at most dormantSessions resumable ones; the oldest goes and its senders hear `undelivered`', async () => {
    th = await startHub({ limits: { dormantSessions: 2 } });
    const sc = await th.client();
    const sender = await th.register(sc, { name: 'sender' });
    const receivers: Registration[] = [];
    for (const name of ['r1', 'r2', 'r3']) {
      const rc = await th.client();
      const r = await th.register(rc, { name });
      receivers.push(r);
      expect(
        (await sc.call('message.send', { ...auth(sender), to: name, summary: 's', message: `for ${name}` })).status,
      ).toBe('queued');
      rc.close();
      await until(() => th!.hub.table.live.get(r.sessionId) === undefined);
    }
    await until(async () => (await receipts(sc, sender)).some((x) => x.status === 'undelivered'));
    expect(th.hub.table.dormant.size).toBe(2);
    expect([...th.hub.table.dormant.keys()]).toEqual([receivers[1]!.sessionId, receivers[2]!.sessionId]);
    const [undelivered] = (await receipts(sc, sender)).filter((x) => x.status === 'undelivered');
    expect(undelivered).toMatchObject({ to: { name: 'r1' }, reason: 'the session ended and was not resumed in time' });
    expect(undelivered!.text).toMatch(
      /^\[Cross-session delivery notice\] Your message to r1 will not be read: that session ended and cannot resume\. Do not wait for a reply\./,
    );
    // The forgotten one cannot resume; a kept one can.
    const again = await th.client();
    expect(await reasonOf(again.call('session.register', { cwd: '/x', resume: auth(receivers[0]!) }))).toBe(
      'unauthorized',
    );
    expect((await again.call('session.register', { cwd: '/x', resume: auth(receivers[2]!) })).resumed).toBe(true);
  });

  it('a dormant session past its age is forgotten, and its senders are told', async () => {
    const clock = fakeClock();
    th = await startHub({ clock, limits: { dormantRetentionMs: 60_000, livenessSweepMs: 30 } });
    const sc = await th.client();
    const sender = await th.register(sc, { name: 'sender' });
    const rc = await th.client();
    const r = await th.register(rc, { name: 'sleepy' });
    await sc.call('message.send', { ...auth(sender), to: 'sleepy', summary: 's', message: 'wake up' });
    rc.close();
    await until(() => th!.hub.table.dormant.size === 1);
    clock.advance(60_001);
    await until(() => th!.hub.table.dormant.size === 0);
    await until(async () => (await receipts(sc, sender)).some((x) => x.status === 'undelivered'));
    expect(th.hub.mailboxes.depth(r.sessionId)).toBe(0);
  });
});

describe('messages stranded when an agent exits', () => {
  it('each sender of a queued, held or socket-written message hears `undelivered`, and the journal drops them', async () => {
    th = await startHub();
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    const rc = await th.client();
    // A bypass receiver holds messages from prompting senders and takes those from bypass senders.
    const receiver = await th.register(rc, {
      name: 'agent',
      pid: child.pid!,
      liveness: 'pid',
      permissionMode: 'bypassPermissions',
    });
    const pc = await th.client();
    const prompting = await th.register(pc, { name: 'prompting' });
    const bc = await th.client();
    const bypass = await th.register(bc, { name: 'bypass', permissionMode: 'bypassPermissions' });
    const held = await pc.call('message.send', { ...auth(prompting), to: 'agent', summary: 's', message: 'held one' });
    const queued = await bc.call('message.send', { ...auth(bypass), to: 'agent', summary: 's', message: 'queued one' });
    expect([held.status, queued.status]).toEqual(['held', 'queued']);
    const peer = await fakePeer(path.join(path.dirname(socketPathOf(receiver.address)!), 'writer.sock'));
    try {
      await writeSocket(
        socketPathOf(receiver.address)!,
        JSON.stringify({
          type: 'user',
          msg_id: 'w-1',
          message: { role: 'user', content: 'from a script' },
          from: udsAddress(peer.path),
        }) + '\n',
      );
      await until(() => peer.lines.length === 1); // held: an unclassed writer to a bypass receiver
      await stopProcess(child, 'SIGKILL');
      await until(async () => (await receipts(pc, prompting)).some((x) => x.status === 'undelivered'));
      await until(async () => (await receipts(bc, bypass)).some((x) => x.status === 'undelivered'));
      await until(() => peer.lines.length === 2);
      expect(peer.lines[1]).toMatchObject({
        type: 'control',
        action: 'peer_message_status',
        status: 'dropped',
        orig_msg_id: 'w-1',
        reason: 'the session ended and cannot resume',
      });
    } finally {
      await peer.close();
    }
    expect((await receipts(pc, prompting)).find((x) => x.status === 'undelivered')).toMatchObject({
      origMsgId: held.msg_id,
      reason: 'the session ended and cannot resume',
    });
    expect((await receipts(bc, bypass)).find((x) => x.status === 'undelivered')).toMatchObject({
      origMsgId: queued.msg_id,
    });
    expect(th.hub.admission.held.size).toBe(0);
    expect(th.hub.table.dormant.size).toBe(0);
    const home = th.dirs.home;
    await th.close();
    th = undefined;
    const { journal, state } = await Journal.open(home, {
      syncMs: 10,
      compactBytes: LIMITS.journalCompactBytes,
      lineBytes: LIMITS.journalLineBytes,
    });
    journal.close();
    expect(state.sessions.has(receiver.sessionId)).toBe(false);
    expect(state.items.has(receiver.sessionId)).toBe(false);
    expect(state.held.has(receiver.sessionId)).toBe(false);
  });

  it('session.unregister is an end for good: unread messages get `undelivered` receipts', async () => {
    th = await startHub();
    const sc = await th.client();
    const sender = await th.register(sc, { name: 'sender' });
    const rc = await th.client();
    const r = await th.register(rc, { name: 'leaver' });
    const sent = await sc.call('message.send', { ...auth(sender), to: 'leaver', summary: 's', message: 'bye?' });
    await rc.call('session.unregister', auth(r));
    await until(async () =>
      (await receipts(sc, sender)).some((x) => x.status === 'undelivered' && x.origMsgId === sent.msg_id),
    );
    expect(th.hub.table.dormant.size).toBe(0);
  });
});

describe('unverified writers share one budget (real serve process)', () => {
  it('a writer flooding with a new `from` per line never makes a verified send queue-full', async () => {
    const hub = await serve();
    const rc = await hub.client();
    const receiver = await rc.call('session.register', { cwd: '/r', name: 'receiver' });
    const vc = await hub.client();
    const verified = await vc.call('session.register', { cwd: '/v', name: 'verified' });
    const sock = socketPathOf(receiver.address)!;
    const line = (i: number): string =>
      JSON.stringify({
        type: 'user',
        msg_id: `flood-${i}`,
        message: { role: 'user', content: `flood ${i}` },
        from: udsAddress(`/tmp/nowhere/${i}-${Math.random()}.sock`),
      });
    for (let batch = 0; batch < 4; batch++)
      await writeSocket(sock, Array.from({ length: 50 }, (_, i) => line(batch * 50 + i)).join('\n') + '\n');
    const unread = async (): Promise<number> =>
      (await rc.call('inbox.fetch', { ...auth(receiver), limit: 1000 })).items.length;
    await until(async () => (await unread()) >= 25);
    // One more unverified line, from a writer beside the receiver's socket (so it hears back), sent after the
    // flood's bytes were all taken: its drop report comes once the flood before it was handled.
    const beside = await fakePeer(path.join(path.dirname(sock), 'barrier.sock'));
    try {
      await writeSocket(sock, JSON.stringify({ ...JSON.parse(line(999)), from: udsAddress(beside.path) }) + '\n');
      await until(() => beside.lines.some((l) => l.orig_msg_id === 'flood-999'));
      expect(beside.lines[0]).toMatchObject({ status: 'dropped' });
    } finally {
      await beside.close();
    }
    expect(await unread()).toBe(25); // half of the 50-message queue, shared by every unverified writer
    const sent = await vc.call('message.send', {
      ...auth(verified),
      to: 'receiver',
      summary: 's',
      message: 'I am verified',
    });
    expect(sent.status).toBe('queued');
    expect((await vc.call('hub.info', undefined)).sessions).toBe(2);
  });
});

describe('renames', () => {
  it('an unauthenticated rename line on the session socket is refused (the next line on it is still read)', async () => {
    th = await startHub();
    const c = await th.client();
    const r = await th.register(c, { name: 'victim' });
    const rename = JSON.stringify({ type: 'control', action: 'rename', name: 'renamed-by-a-stranger' });
    const after = JSON.stringify({ type: 'user', msg_id: 'after-rename', message: { role: 'user', content: 'x' } });
    await writeSocket(socketPathOf(r.address)!, `${rename}\n${after}\n`);
    await until(async () => (await c.call('inbox.fetch', { ...auth(r), limit: 10 })).items.length === 1);
    expect((await c.call('agents.list', {})).rows.map((row) => row.name)).toEqual(['victim']);
  });

  it('a name another live session holds is refused on every rename path', async () => {
    th = await startHub();
    const ac = await th.client();
    const a = await th.register(ac, { name: 'alice' });
    const bc = await th.client();
    const b = await th.register(bc, { name: 'bob' });
    expect(await reasonOf(bc.call('session.rename', { ...auth(b), name: 'Alice' }))).toBe('name_taken');
    // Its own child, with the token, on the session socket.
    const rename = JSON.stringify({ type: 'control', action: 'rename', name: 'alice' });
    const after = JSON.stringify({ type: 'user', msg_id: 'after-rename', message: { role: 'user', content: 'x' } });
    await writeSocket(
      socketPathOf(b.address)!,
      `${JSON.stringify({ type: 'auth', token: b.token })}\n${rename}\n${after}\n`,
    );
    await until(async () => (await bc.call('inbox.fetch', { ...auth(b), limit: 10 })).items.length === 1);
    // A resume that asks for the name.
    await bc.call('inbox.ack', { ...auth(b), ids: ['after-rename'] });
    await ac.call('message.send', { ...auth(a), to: 'bob', summary: 's', message: 'keep bob resumable' });
    bc.close();
    await until(() => th!.hub.table.dormant.size === 1);
    const again = await th.client();
    expect(await reasonOf(again.call('session.register', { cwd: '/x', name: 'alice', resume: auth(b) }))).toBe(
      'name_taken',
    );
    expect((await again.call('session.register', { cwd: '/x', resume: auth(b) })).name).toBe('bob');
    const names = (await again.call('agents.list', {})).rows.map((row) => row.name).sort();
    expect(names).toEqual(['alice', 'bob']);
    // Renaming to one's own name, or a free one, still works.
    expect((await again.call('session.rename', { ...auth(b), name: 'bob' })).name).toBe('bob');
    expect((await again.call('session.rename', { ...auth(b), name: 'robert' })).name).toBe('robert');
  });
});
