// A fetch answer always fits a line the client can read (found by a red-team
// pass): nine messages of the largest allowed size made one inbox.fetch
// answer over the client's 2 MiB line limit, so `switchboard inbox`, the MCP
// tool and the hooks timed out, the messages could never be acknowledged,
// and the inbox stayed wedged. Now an answer stops adding items past half a
// frame (the first always goes), and a client that gets a line it cannot
// read fails its calls at once, saying so.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HubClient } from '../../core/client/client.js';
import { LIMITS } from '../../core/protocol/limits.js';
import { startHub, tempDirs, type TestHub } from '../helpers/hub.js';

let th: TestHub;
afterEach(async () => th?.close());

describe('inbox.fetch within a line', () => {
  it('nine messages of the largest size are fetched in answers a client can read, and all arrive once', async () => {
    th = await startHub();
    const sc = await th.client();
    const sender = await th.register(sc, { name: 'sender' });
    const rc = await th.client();
    const receiver = await th.register(rc, { name: 'receiver' });
    const auth = { sessionId: receiver.sessionId, token: receiver.token };
    const body = (i: number): string => `${i} `.padEnd(LIMITS.messageBytes - 16, 'x');
    for (let i = 0; i < 9; i++) {
      const r = await sc.call('message.send', {
        sessionId: sender.sessionId,
        token: sender.token,
        to: 'receiver',
        summary: `m${i}`,
        message: body(i),
      });
      expect(r.status).toBe('queued');
    }
    const seen: string[] = [];
    for (let round = 0; round < 9 && seen.length < 9; round++) {
      const { items } = await rc.call('inbox.fetch', { ...auth, limit: 20 });
      expect(items.length).toBeGreaterThan(0);
      expect(items.length).toBeLessThan(9); // the old code answered all nine in one 2.3 MB line
      seen.push(...items.map((i) => i.id));
      await rc.call('inbox.ack', { ...auth, ids: items.map((i) => i.id) });
    }
    expect(new Set(seen).size).toBe(9);
    expect((await rc.call('inbox.fetch', auth)).items).toEqual([]);
  });

  it('a client fails its pending call at once when an answer line is over its limit', async () => {
    const sock = `${tempDirs().root}/big.sock`;
    const server = net.createServer((s) =>
      s.once('data', () => s.write(`{"jsonrpc":"2.0","id":1,"result":"${'x'.repeat(LIMITS.frameBytes * 2 + 10)}"}\n`)),
    );
    await new Promise<void>((r) => server.listen(sock, r));
    try {
      const c = await HubClient.connect(sock, { timeoutMs: 60_000 });
      // The over-limit error, not the call's timeout (which would say so, and only after 60 s).
      await expect(c.call('hub.info', {})).rejects.toThrow(/over 2097152 bytes/);
      c.close();
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
