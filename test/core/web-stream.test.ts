// A UI event stream whose page stopped reading (found by a red-team pass):
// every event was written into its response with no bound, so the hub
// held 65 MiB for one stuck client and grew with the traffic. Now the
// stream is closed past STREAM_UNSENT_BYTES (8 MiB; this test makes ~12);
// a page resyncs on reconnect.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { socketPathOf } from '../../core/protocol/cc-wire.js';
import { startWebServer, type WebServer } from '../../core/host/ui/web.js';
import { memoryLogger, startHub, until, type TestHub } from '../helpers/hub.js';
import { writeSocket } from '../helpers/peer.js';

let th: TestHub | undefined;
let web: WebServer | undefined;
afterEach(async () => {
  await web?.close();
  await th?.close();
  web = th = undefined;
});

describe('the UI event stream', () => {
  it('is closed once a page that stopped reading has more than its bound unsent', async () => {
    th = await startHub();
    const log = memoryLogger();
    web = await startWebServer(th.hub, { port: 0, rendererDir: '/nonexistent', logger: log });
    const stuck = net.connect(web.port, '127.0.0.1');
    let closed = false;
    let received = 0;
    stuck.on('error', () => undefined);
    stuck.on('close', () => (closed = true));
    await new Promise<void>((r) => stuck.once('connect', () => r()));
    stuck.write(
      `GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\nAuthorization: Bearer ${th.hub.uiToken}\r\n\r\n`,
    );
    await new Promise<void>((r) => stuck.once('data', () => r())); // the stream is open (its first event came)
    stuck.pause(); // never reads again
    const c = await th.client();
    const from = 'uds:/' + 'x'.repeat(4000) + '.sock'; // each event carries it: ~4 KB
    let generated = 0;
    for (let r = 0; r < 60 && generated < 24 * 1024 * 1024; r++) {
      const reg = await th.register(c, { name: `r${r}` });
      let lines = '';
      for (let j = 0; j < 50; j++)
        lines +=
          JSON.stringify({
            type: 'user',
            msg_id: `${r}-${j}`,
            message: { role: 'user', content: `hi ${j}` },
            from: `${from}${j}`,
          }) + '\n';
      await writeSocket(socketPathOf(reg.address)!, lines);
      generated += 50 * 4100;
    }
    await until(() => log.lines.some((l) => l.msg.startsWith('ui event stream: the page stopped reading')));
    stuck.on('data', (d: Buffer) => void (received += d.length));
    stuck.resume();
    await until(() => closed); // the old code kept it open (and growing) for good
    expect(received).toBeLessThan(generated);
  }, 60_000);
});
