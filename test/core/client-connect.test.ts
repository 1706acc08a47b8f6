// Connecting to the hub tells "not running" only when the hub did not take
// the connection: not when this process was too starved to see its own
// finished connect before its timer, and not when the hub's listen backlog
// was momentarily full (EAGAIN: busy, not gone). A fresh machine under load
// showed a CLI command exit "no hub running" right after the hub was ready.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HubClient } from '../../core/client/client.js';
import { sendSignal, stopProcess } from '../helpers/processes.js';
import { until } from '../helpers/hub.js';
import { tempDir } from '../helpers/temp.js';

const servers: net.Server[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) {
    sendSignal(c, 'SIGCONT');
    await stopProcess(c);
  }
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

describe('HubClient.connect', () => {
  it('a connect that finished while this process was blocked past its timeout still connects', async () => {
    const sock = path.join(tempDir('sbc-'), 'hub.sock');
    const server = net.createServer((c) => c.on('error', () => undefined));
    servers.push(server);
    await new Promise<void>((r) => server.listen(sock, r));
    const connecting = HubClient.connect(sock, { timeoutMs: 50 });
    const until = Date.now() + 300;
    while (Date.now() < until); // this process is starved: the timer and the connect are both due at once
    const client = await connecting;
    client.close();
  });

  it('a short connect bound is not its calls bound: a busy hub that answers late is answered', async () => {
    const sock = path.join(tempDir('sbc-'), 'hub.sock');
    // A hub that answers each request 400 ms late (past the 50 ms connect bound, well within a call's).
    const server = net.createServer((c) => {
      c.on('error', () => undefined);
      c.on('data', (d: Buffer) => {
        const { id } = JSON.parse(d.toString().split('\n')[0]!) as { id: number };
        setTimeout(() => c.write(JSON.stringify({ jsonrpc: '2.0', id, result: { ok: true } }) + '\n'), 400);
      });
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(sock, r));
    const client = await HubClient.connect(sock, { timeoutMs: 50 });
    try {
      expect(await client.call('hub.info', {})).toEqual({ ok: true });
    } finally {
      client.close();
    }
  });

  it('a full listen backlog (the hub busy, not gone) is tried again until the hub takes the connection', async () => {
    const sock = path.join(tempDir('sbc-'), 'hub.sock');
    const child = spawn(process.execPath, [
      '-e',
      `require('net').createServer((c) => c.on('error', () => {})).listen({ path: ${JSON.stringify(sock)}, backlog: 1 }, () => console.log('up'))`,
    ]);
    children.push(child);
    await new Promise<void>((r) => child.stdout.once('data', () => r()));
    sendSignal(child, 'SIGSTOP'); // it stops accepting: the kernel's backlog fills
    const filler: net.Socket[] = [];
    let full = false;
    for (let i = 0; i < 64 && !full; i++) {
      full = await new Promise<boolean>((resolve) => {
        const s = net.connect(sock);
        filler.push(s);
        s.once('connect', () => resolve(false));
        s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'EAGAIN'));
      });
    }
    expect(full, 'the backlog never filled').toBe(true);
    const connects = vi.spyOn(net, 'connect');
    const tries = (): number => connects.mock.calls.filter((args) => args[0] === sock).length;
    const connecting = HubClient.connect(sock, { timeoutMs: 30_000 });
    let settled = false;
    void connecting.then(
      () => (settled = true),
      () => (settled = true),
    );
    await until(() => settled || tries() >= 3); // it keeps trying while the hub is stopped
    connects.mockRestore();
    expect(settled).toBe(false);
    for (const s of filler) s.destroy();
    sendSignal(child, 'SIGCONT');
    const client = await connecting;
    client.close();
  });
});
