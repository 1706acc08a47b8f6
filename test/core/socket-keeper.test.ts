// Socket files removed while the hub listens (a temp cleaner, a logout that
// removes the runtime directory, an rm): the hub binds them again at its
// next sweep, so the CLI and writers reach it again; connections opened
// before go on; a path that holds something else is left as it is. On the
// code before, the hub listened on and nobody could connect to it.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HubClient } from '../../core/client/client.js';
import { socketPathOf } from '../../core/protocol/cc-wire.js';
import type { InboxItem, Registration } from '../../core/protocol/methods.js';
import { memoryLogger, startHub, until, type TestHub } from '../helpers/hub.js';
import { FIXTURES, writeSocket } from '../helpers/peer.js';

let th: TestHub;
afterEach(async () => th?.close());

const SWEEP = { livenessSweepMs: 50 };
const line = (): string => fs.readFileSync(path.join(FIXTURES, 'uds', 'user-message.ndjson'), 'utf8');

async function items(c: HubClient, r: Registration): Promise<InboxItem[]> {
  return (await c.call('inbox.fetch', { sessionId: r.sessionId, token: r.token })).items;
}

async function reachable(socket: string): Promise<boolean> {
  try {
    const c = await HubClient.connect(socket, { timeoutMs: 10_000 }); // a bound on a hang: a loaded machine answers late, not never
    try {
      return typeof (await c.call('hub.info', {})).pid === 'number';
    } finally {
      c.close();
    }
  } catch {
    return false;
  }
}

describe('socket files removed while the hub runs', () => {
  it('binds the hub socket and a session socket again; an open connection goes on', async () => {
    const log = memoryLogger();
    th = await startHub({ limits: SWEEP, logger: log });
    const c = await th.client();
    const r = await th.register(c, { name: 'receiver' });
    const sessionSocket = socketPathOf(r.address)!;
    fs.rmSync(th.hub.paths.hubSocket);
    fs.rmSync(sessionSocket);
    await until(() => fs.existsSync(th.hub.paths.hubSocket) && fs.existsSync(sessionSocket));
    expect(await reachable(th.hub.paths.hubSocket)).toBe(true);
    expect(fs.statSync(th.hub.paths.hubSocket).mode & 0o777).toBe(0o600);
    await writeSocket(sessionSocket, line());
    await until(async () => (await items(c, r)).length === 1); // `c` was opened before the rebind
    expect(log.lines.filter((l) => l.msg.startsWith('socket files were removed'))).toHaveLength(1);
  });

  it('makes the removed runtime directory again, private, with its sockets', async () => {
    th = await startHub({ limits: SWEEP });
    const c = await th.client();
    const r = await th.register(c, { name: 'receiver' });
    fs.rmSync(th.hub.paths.socketDir, { recursive: true, force: true });
    await until(() => fs.existsSync(th.hub.paths.hubSocket));
    expect(fs.statSync(th.hub.paths.socketDir).mode & 0o777).toBe(0o700);
    expect(await reachable(th.hub.paths.hubSocket)).toBe(true);
    await until(() => fs.existsSync(socketPathOf(r.address)!));
  });

  it('leaves a path that holds something else alone', async () => {
    th = await startHub({ limits: SWEEP });
    const c = await th.client();
    const r = await th.register(c, { name: 'receiver' });
    const sessionSocket = socketPathOf(r.address)!;
    fs.rmSync(sessionSocket);
    fs.writeFileSync(sessionSocket, 'not ours to remove');
    fs.rmSync(th.hub.paths.hubSocket); // this one comes back: proof that a sweep ran
    await until(() => fs.existsSync(th.hub.paths.hubSocket));
    expect(fs.readFileSync(sessionSocket, 'utf8')).toBe('not ours to remove');
    fs.rmSync(sessionSocket); // and once it is gone, the socket comes back
    await until(() => fs.existsSync(sessionSocket) && fs.lstatSync(sessionSocket).isSocket());
  });
});
