// Unfinished lines share one budget per hub (found by a red-team pass): each
// connection could hold a line of up to frameBytes for partialLineMs, so
// 16 sessions × 64 writers × 1 MiB took a `serve` to 1 GB of RSS, and 512
// hub-socket clients could hold 512 MiB. Now, past LIMITS.partialBytesTotal,
// the connection holding the largest unfinished line is closed (hub socket:
// with `overloaded`); the rest, and writers that finish their lines, go on.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { socketPathOf } from '../../core/protocol/cc-wire.js';
import { LIMITS } from '../../core/protocol/limits.js';
import { cliEnv, serveCli, type Served } from '../helpers/cli.js';
import { startHub, tempDirs, until, type RawConn, type TestHub } from '../helpers/hub.js';
import { writeSocket } from '../helpers/peer.js';

let th: TestHub | undefined;
let served: Served | undefined;
const opened: Array<{ destroy(): void }> = [];
afterEach(async () => {
  for (const s of opened.splice(0)) s.destroy();
  await th?.close();
  await served?.stop();
  th = served = undefined;
});

const KB = 1000;
const reason = (msg: Record<string, unknown>): unknown =>
  (msg.error as { data?: { reason?: string } } | undefined)?.data?.reason;
const info = (id: number): string => `{"jsonrpc":"2.0","id":${id},"method":"hub.info"}\n`;
/** The first `bytes` of a hub.info request that is never finished. */
const begunRequest = (bytes: number): string =>
  `{"jsonrpc":"2.0","id":2,"method":"hub.info","params":{"x":"`.padEnd(bytes, 'a');

/** A hub-socket client that made a valid request (so it is not evicted as pending). */
async function established(socketPath: string): Promise<Client> {
  const c = await client(socketPath);
  opened.push(c);
  c.write(info(1));
  expect((await c.next()).id).toBe(1);
  return c;
}

/** A raw NDJSON client whose writes can be awaited until the kernel has all of their bytes. */
interface Client extends RawConn {
  writeAll(data: string): Promise<void>;
}

async function client(socketPath: string): Promise<Client> {
  const sock = net.connect(socketPath);
  await new Promise<void>((resolve, reject) => sock.once('connect', resolve).once('error', reject));
  sock.on('error', () => undefined);
  const lines: string[] = [];
  let buf = '';
  let wake: (() => void) | undefined;
  sock.on('data', (d: Buffer) => {
    buf += d.toString('utf8');
    const parts = buf.split('\n');
    buf = parts.pop()!;
    lines.push(...parts);
    if (parts.length > 0) wake?.();
  });
  return {
    write: (data) => void sock.write(data),
    writeAll: (data) => new Promise<void>((resolve) => sock.write(data, () => resolve())),
    async next() {
      while (lines.length === 0) await new Promise<void>((r) => (wake = r));
      return JSON.parse(lines.shift()!) as Record<string, unknown>;
    },
    closed: new Promise<void>((r) => sock.once('close', () => r())),
    destroy: () => sock.destroy(),
  };
}

function settledState(c: RawConn): { closed: boolean } {
  const state = { closed: false };
  void c.closed.then(() => (state.closed = true));
  return state;
}

describe('unfinished lines share one budget per hub', () => {
  it('hub socket: past the budget the largest unfinished line is closed overloaded, the others go on', async () => {
    th = await startHub({ limits: { partialBytesTotal: 300 * KB, partialLineMs: 60_000 } });
    const sock = th.hub.paths.hubSocket;
    const [big, a, b] = [await established(sock), await established(sock), await established(sock)];
    const states = [big, a, b].map(settledState);
    await Promise.all([big.writeAll(begunRequest(120 * KB)), a.writeAll(begunRequest(100 * KB))]);
    // Both lines are with the kernel (or read). A request on another connection now: the hub reads every socket
    // that is ready in the turn it reads this one, so by its answer it has read both lines (and would have closed
    // one past the budget).
    const probe = await established(sock);
    probe.write(info(9));
    expect((await probe.next()).id).toBe(9);
    expect(states.some((s) => s.closed)).toBe(false); // 220 KB: within the budget
    b.write(begunRequest(100 * KB)); // 320 KB
    expect(reason(await big.next())).toBe('overloaded');
    await big.closed;
    a.write('"}}\n');
    expect((await a.next()).id).toBe(2);
    expect(states[2]!.closed).toBe(false);
    const c = await th.client();
    expect((await c.call('hub.info', {})).pid).toBe(process.pid);
  });

  it("session socket: a writer's line is delivered while hogs hold the budget; the largest hog is closed", async () => {
    th = await startHub({ limits: { partialBytesTotal: 400 * KB, partialLineMs: 60_000 } });
    const c = await th.client();
    const r = await th.register(c, { name: 'receiver' });
    const path = socketPathOf(r.address)!;
    // What the hub's side of the session socket has read (our listener runs after its reader's).
    let read = 0;
    th.hub.servers
      .get(r.sessionId)!
      .on('connection', (s: net.Socket) => s.on('data', (d: Buffer) => (read += d.length)));
    const hogs = await Promise.all(
      [120, 130, 120].map(async (kb) => {
        const s = net.connect(path);
        s.on('error', () => undefined);
        opened.push(s);
        await new Promise((resolve) => s.once('connect', resolve));
        s.write(`{"type":"user","msg_id":"hog","message":{"role":"user","content":"`.padEnd(kb * KB, 'h'));
        return { s, gone: new Promise<boolean>((resolve) => s.once('close', () => resolve(true))) };
      }),
    );
    await until(() => read >= 370 * KB); // every hog's bytes are held before the writer comes
    const line = { type: 'user', msg_id: 'm1', message: { role: 'user', content: 'w'.repeat(100 * KB) } };
    await writeSocket(path, JSON.stringify(line) + '\n');
    await hogs[1]!.gone; // the 130 KB one
    await until(async () => {
      const items = (await c.call('inbox.fetch', { sessionId: r.sessionId, token: r.token })).items;
      return items.length === 1;
    });
    expect(hogs[0]!.s.destroyed || hogs[2]!.s.destroyed).toBe(false);
  });

  it('a real serve: of 120 clients each holding a 1 MiB line, those past partialBytesTotal are closed', async () => {
    served = await serveCli(cliEnv(tempDirs()));
    const clients: RawConn[] = [];
    for (let i = 0; i < 120; i++) clients.push(await established(served.ready.socket));
    const states = clients.map(settledState);
    for (const client of clients) client.write(begunRequest(LIMITS.frameBytes - 100));
    // Old code: every line is held (120 MiB, 1 GB with session sockets) until partialLineMs (10 s) ends it.
    const over = 120 - LIMITS.partialBytesTotal / LIMITS.frameBytes;
    await until(() => states.filter((s) => s.closed).length >= over);
    // The others finish their lines: once each is answered (or told overloaded), the hub has read all it will.
    const open = clients.filter((_c, i) => !states[i]!.closed);
    const closedBefore = clients.length - open.length;
    for (const client of open) client.write('"}}\n');
    const answers = await Promise.all(open.map((client) => client.next()));
    const closedAfter = answers.filter((a) => reason(a) === 'overloaded').length;
    expect(closedBefore + closedAfter).toBeLessThanOrEqual(over + 1);
    const last = await established(served.ready.socket);
    last.write(info(3));
    expect((await last.next()).id).toBe(3);
  });
});
