// Qwen Code sessions in a real hub: a scripted Qwen Code session (this test
// process's own pid, as Qwen Code writes its record, and a socket that
// records what it is sent and answers with delivery_status frames on the
// sender's `from`) is listed, messaged with Qwen Code's frames, and its
// statuses become receipts only with our token. Bad records never break it.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HubClient } from '../../../core/client/client.js';
import type { AgentRow, InboxItem, Registration } from '../../../core/protocol/methods.js';
import { processStartTime } from '../../../core/registry/proc.js';
import { hostIdentity } from '../../../core/stock/qwen-record.js';
import { fakePeer, writeSocket, type FakePeer } from '../../helpers/peer.js';
import { startHub, until, type TestHub } from '../../helpers/hub.js';

const TOKEN = 'ab'.repeat(32);
let t: TestHub;
let c: HubClient;
let alice: Registration;
let peer: FakePeer | undefined;
const auth = () => ({ sessionId: alice.sessionId, token: alice.token });
const sessions = (): string => path.join(t.dirs.root, 'qwen', 'sessions');
const rows = async (): Promise<AgentRow[]> => (await c.call('agents.list', {})).rows;
const inbox = async (): Promise<InboxItem[]> => (await c.call('inbox.fetch', { ...auth(), limit: 50 })).items;

function record(over: Record<string, unknown> = {}): Record<string, unknown> {
  const host = hostIdentity();
  return {
    schemaVersion: 1,
    pid: process.pid,
    procStart: `${host.bootId}:${processStartTime(process.pid)}`,
    pidNs: host.pidNs,
    sessionId: 'qwen-session-1',
    cwd: '/home/dev/proj',
    name: 'proj-67',
    startedAt: Date.now(),
    qwenVersion: '0.24.4',
    kind: 'tui',
    ipcPath: path.join(t.dirs.root, 'qs', `${process.pid}.sock`),
    ipcToken: TOKEN,
    ...over,
  };
}

function writeRecord(name: string, value: unknown): void {
  fs.mkdirSync(sessions(), { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(sessions(), name), typeof value === 'string' ? value : JSON.stringify(value));
}

async function startQwen(over: Record<string, unknown> = {}): Promise<void> {
  fs.mkdirSync(path.join(t.dirs.root, 'qs'), { recursive: true, mode: 0o700 });
  peer = await fakePeer(path.join(t.dirs.root, 'qs', `${process.pid}.sock`));
  writeRecord(`${process.pid}.json`, record(over));
  await until(async () => (await rows()).some((r) => r.kind === 'qwen-code'));
}

/** Answers as Qwen Code does: a new connection to `from`, the auth line with `token`, the status frame. */
function answer(from: string, token: string, status: string, origMsgId: string, extra = {}): Promise<void> {
  const frame = { msgV: 1, msgId: `r-${status}`, type: 'control', action: 'delivery_status', status, origMsgId };
  return writeSocket(
    from,
    [
      { msgV: 1, type: 'auth', token },
      { ...frame, from: peer!.path, ...extra },
    ]
      .map((l) => JSON.stringify(l) + '\n')
      .join(''),
  );
}

/** Writes `data` in one connection and resolves when the connection closed (the server read what it will). */
function sendAndClose(socketPath: string, data: string): Promise<void> {
  return new Promise((resolve) => {
    const s = net.connect(socketPath, () => s.end(data));
    s.on('error', () => undefined);
    s.on('close', () => resolve());
  });
}

beforeEach(async () => {
  t = await startHub();
  c = await t.client();
  alice = await t.register(c, { name: 'alice' });
});
afterEach(async () => {
  await peer?.close();
  peer = undefined;
  await t.close();
});

describe('listing Qwen Code sessions', () => {
  it('lists an interactive session under its record name as a Qwen Code row', async () => {
    await startQwen();
    const row = (await rows()).find((r) => r.kind === 'qwen-code');
    expect(row).toMatchObject({
      name: 'proj-67',
      agent: 'qwen',
      cwd: '/home/dev/proj',
      address: `uds:${peer!.path}`,
      self: false,
    });
  });

  it('lists only the live interactive session of this pid namespace among records it must skip', async () => {
    const dead = 2 ** 22 + 12345;
    // Records of this very process with answering sockets: only the kind or the namespace can exclude them.
    const extra = await Promise.all(['k', 'n'].map((x) => fakePeer(path.join(t.dirs.root, `q${x}.sock`))));
    try {
      const ipcPath = (i: number): string => extra[i]!.path;
      writeRecord(`${process.pid}-0000000a.json`, record({ kind: 'serve', name: 'acp', ipcPath: ipcPath(0) }));
      writeRecord(`${process.pid}-0000000b.json`, record({ pidNs: 1, name: 'elsewhere', ipcPath: ipcPath(1) }));
      writeRecord(`${dead}.json`, record({ pid: dead, name: 'dead' }));
      writeRecord('3.json', '{"schemaVersion":1,');
      writeRecord('4.json', JSON.stringify(record({ pid: 4, pad: 'x'.repeat(70 * 1024) })));
      writeRecord('5.json', record({ pid: 6 }));
      fs.mkdirSync(path.join(sessions(), '7.json'));
      await startQwen();
      expect((await rows()).filter((r) => r.kind === 'qwen-code').map((r) => r.name)).toEqual(['proj-67']);
    } finally {
      for (const p of extra) await p.close();
    }
  });

  it('drops the row when its record goes (Qwen Code removes it at exit)', async () => {
    await startQwen();
    fs.rmSync(path.join(sessions(), `${process.pid}.json`));
    await until(async () => !(await rows()).some((r) => r.kind === 'qwen-code'));
  });
});

describe('sending to a Qwen Code session', () => {
  it('writes the auth line, then the exact user frame Qwen Code reads', async () => {
    await startQwen();
    const r = await c.call('message.send', { ...auth(), to: 'proj-67', summary: 'hi', message: 'run the tests' });
    expect(r).toMatchObject({ status: 'sent', to: { name: 'proj-67' } });
    await until(() => peer!.lines.length === 2);
    expect(peer!.lines[0], 'the auth line with its token').toEqual({ msgV: 1, type: 'auth', token: TOKEN });
    const frame = peer!.lines[1]!;
    expect(frame, 'the user frame with its reply route').toEqual({
      msgV: 1,
      msgId: r.msg_id,
      type: 'user',
      from: expect.stringMatching(/\/qw-[0-9a-f]{16}\.sock$/),
      replyToken: expect.stringMatching(/^[0-9a-f]{64}$/),
      fromName: 'alice',
      fromMode: 'prompting',
      toSessionId: 'qwen-session-1',
      priority: 'next',
      message: { role: 'user', content: 'run the tests' },
    });
  });

  it('leaves fromMode out for a sender whose mode is unknown', async () => {
    const bob = await t.register(c, { name: 'bob', modeKnown: false });
    await startQwen();
    await c.call('message.send', {
      sessionId: bob.sessionId,
      token: bob.token,
      to: 'proj-67',
      summary: 's',
      message: 'x',
    });
    await until(() => peer!.lines.length === 2);
    expect(peer!.lines[1]).not.toHaveProperty('fromMode');
  });

  it('turns held and then delivered into receipts, delivered saying queued for its model', async () => {
    await startQwen();
    const r = await c.call('message.send', { ...auth(), to: 'proj-67', summary: 's', message: 'x' });
    await until(() => peer!.lines.length === 2);
    const { from, replyToken } = peer!.lines[1] as { from: string; replyToken: string };
    await answer(from, replyToken, 'held', r.msg_id, { reason: 'held for review' });
    await answer(from, replyToken, 'delivered', r.msg_id);
    await until(async () => (await inbox()).length === 2);
    const items = await inbox();
    expect(items.map((i) => (i.kind === 'receipt' ? [i.status, i.origMsgId] : i.kind))).toEqual([
      ['held', r.msg_id],
      ['delivered', r.msg_id],
    ]);
    expect(items[1]!.kind === 'receipt' && items[1]!.text).toContain('was queued for its model by Qwen Code');
  });

  it('maps misaddressed to undelivered', async () => {
    await startQwen();
    const r = await c.call('message.send', { ...auth(), to: 'proj-67', summary: 's', message: 'x' });
    await until(() => peer!.lines.length === 2);
    const { from, replyToken } = peer!.lines[1] as { from: string; replyToken: string };
    await answer(from, replyToken, 'misaddressed', r.msg_id);
    await until(async () => (await inbox()).length === 1);
    expect((await inbox())[0]).toMatchObject({ kind: 'receipt', status: 'undelivered' });
  });

  it('a status without our token, or for a message never sent, is no receipt', async () => {
    await startQwen();
    const r = await c.call('message.send', { ...auth(), to: 'proj-67', summary: 's', message: 'x' });
    await until(() => peer!.lines.length === 2);
    const { from, replyToken } = peer!.lines[1] as { from: string; replyToken: string };
    const closed = new Promise<void>((resolve) => {
      const s = net.connect(from, () =>
        s.write(JSON.stringify({ msgV: 1, type: 'auth', token: 'f'.repeat(64) }) + '\n'),
      );
      s.on('close', () => resolve());
      s.on('error', () => undefined);
    });
    await closed; // a wrong token: the socket closes the connection
    await answer(from, replyToken, 'denied', 'never-sent');
    await answer(from, replyToken, 'refused', r.msg_id, { from: '/elsewhere/1.sock' });
    await answer(from, replyToken, 'expired', r.msg_id);
    await until(async () => (await inbox()).length > 0);
    expect((await inbox()).map((i) => (i.kind === 'receipt' ? i.status : i.kind))).toEqual(['expired']);
  });

  it('one Qwen Code session cannot answer for a message sent to another', async () => {
    await startQwen();
    const other = await fakePeer(path.join(t.dirs.root, 'qs', 'other.sock'));
    try {
      writeRecord(
        `${process.pid}-0000abcd.json`,
        record({ sessionId: 'qwen-session-2', name: 'proj-68', ipcPath: other.path }),
      );
      await until(async () => (await rows()).filter((r) => r.kind === 'qwen-code').length === 2);
      const toA = await c.call('message.send', { ...auth(), to: 'proj-67', summary: 's', message: 'x' });
      const toB = await c.call('message.send', { ...auth(), to: 'proj-68', summary: 's', message: 'y' });
      await until(() => peer!.lines.length === 2 && other.lines.length === 2);
      const a = peer!.lines[1] as { from: string; replyToken: string };
      const b = other.lines[1] as { from: string; replyToken: string };
      expect(b.from).toBe(a.from); // one reply socket per sender, one token per receiver
      expect(b.replyToken).not.toBe(a.replyToken);
      const status = (origMsgId: string, st: string, from?: string) =>
        JSON.stringify({
          msgV: 1,
          msgId: `r-${st}`,
          type: 'control',
          action: 'delivery_status',
          status: st,
          origMsgId,
          ...(from ? { from } : {}),
        }) + '\n';
      const authLine = JSON.stringify({ msgV: 1, type: 'auth', token: b.replyToken }) + '\n';
      // B, with its own token, denies A's message (no `from`, or A's), then answers its own.
      await writeSocket(b.from, authLine + status(toA.msg_id, 'denied'));
      await writeSocket(b.from, authLine + status(toA.msg_id, 'refused', peer!.path));
      await writeSocket(b.from, authLine + status(toB.msg_id, 'expired', other.path));
      await until(async () => (await inbox()).length > 0);
      expect((await inbox()).map((i) => (i.kind === 'receipt' ? [i.status, i.origMsgId] : i.kind))).toEqual([
        ['expired', toB.msg_id],
      ]);
    } finally {
      await other.close();
    }
  });

  it('a connection stops at a line over 64 KiB or past 8 lines: what follows is never read', async () => {
    await startQwen();
    const r = await c.call('message.send', { ...auth(), to: 'proj-67', summary: 's', message: 'x' });
    await until(() => peer!.lines.length === 2);
    const { from, replyToken } = peer!.lines[1] as { from: string; replyToken: string };
    const line = (v: unknown): string => JSON.stringify(v) + '\n';
    const status = (st: string) => ({
      msgV: 1,
      type: 'control',
      action: 'delivery_status',
      status: st,
      origMsgId: r.msg_id,
      from: peer!.path,
    });
    const authLine = line({ msgV: 1, type: 'auth', token: replyToken });
    // Each connection is written whole and closed; once it is closed on both ends, the socket read all it will.
    await sendAndClose(from, authLine + line({ pad: 'x'.repeat(65 * 1024) }) + line(status('denied')));
    await sendAndClose(from, authLine + line({}).repeat(7) + line(status('refused')));
    await answer(from, replyToken, 'held', r.msg_id);
    await until(async () => (await inbox()).length > 0);
    expect((await inbox()).map((i) => (i.kind === 'receipt' ? i.status : i.kind))).toEqual(['held']);
  });
});
