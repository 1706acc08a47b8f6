// Claude Code registry entries that name sockets they should not (found by
// a red-team pass): an entry naming the hub's own hub.sock was listed as a
// Claude Code session and written into; one naming a link to a hosted
// session's socket listed that session twice; two entries naming one socket
// were two rows with one ref, and neither could be messaged. Now only a
// socket this user owns, that is not one of the hub's, is listed, once.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HubClient } from '../../../core/client/client.js';
import { socketPathOf } from '../../../core/protocol/cc-wire.js';
import type { Registration } from '../../../core/protocol/methods.js';
import { startHub, until, type TestHub } from '../../helpers/hub.js';
import { stockPeer, type StockPeer } from './helpers.js';

let t: TestHub;
let c: HubClient;
let alice: Registration;
const peers: StockPeer[] = [];
const claude = (): string => path.join(t.dirs.root, 'claude');
const socks = (): string => path.join(t.dirs.root, 'cc-socks');
const stockRows = async () => (await c.call('agents.list', {})).rows.filter((r) => r.kind === 'claude-code');

beforeEach(async () => {
  t = await startHub();
  c = await t.client();
  alice = await t.register(c, { name: 'alice' });
});
afterEach(async () => {
  for (const p of peers.splice(0)) await p.stop();
  await t.close();
});

describe('registry entries naming the wrong socket', () => {
  it("are not listed when they name hub.sock or a link to a hosted session's socket; one socket is one row", async () => {
    const real = await stockPeer(claude(), socks());
    peers.push(real);
    fs.symlinkSync(socketPathOf(alice.address)!, path.join(socks(), 'link.sock'));
    peers.push(await stockPeer(claude(), socks(), { messagingSocketPath: t.hub.paths.hubSocket }, { listen: false }));
    peers.push(
      await stockPeer(claude(), socks(), { messagingSocketPath: path.join(socks(), 'link.sock') }, { listen: false }),
    );
    peers.push(
      await stockPeer(claude(), socks(), { messagingSocketPath: real.socketPath, name: 'dupe' }, { listen: false }),
    );
    // A proper entry written after the others: a scan that lists it read the folder with all of them in it.
    const marker = await stockPeer(claude(), socks());
    peers.push(marker);
    await until(async () => (await stockRows()).some((r) => r.address === `uds:${marker.socketPath}`));
    const rows = (await stockRows()).filter((r) => r.address !== `uds:${marker.socketPath}`);
    expect(rows.map((r) => r.address)).toEqual([`uds:${real.socketPath}`]);
    const sent = await c.call('message.send', {
      sessionId: alice.sessionId,
      token: alice.token,
      to: rows[0]!.label,
      summary: 's',
      message: 'hello',
    });
    expect(sent.status).toBe('sent');
    await until(() => real.peer.lines.some((l) => l.type === 'user'));
  });
});
