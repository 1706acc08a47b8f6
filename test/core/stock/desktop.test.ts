// Claude Code sessions that Claude Desktop runs (docs/integrations.md#claude-desktop): their registry record
// says so in `entrypoint` and names the Desktop session (`hostSessionId`); they are listed as Claude Code's own
// sessions with `host: "Claude Desktop"`, and a send to one — by name, or by the Desktop session id a Desktop
// frame carries as `from` — writes Claude Code's own line to its socket (its Claude Code reads `from-name`;
// Desktop's own tool is not Switchboard's to call).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RpcError } from '../../../core/client/client.js';
import { UserEventLine } from '../../../core/protocol/cc-wire.js';
import { readEntry } from '../../../core/stock/entry.js';
import { startHub, until, type TestHub } from '../../helpers/hub.js';
import { tempDir } from '../../helpers/temp.js';
import { stockPeer, type StockPeer } from './helpers.js';

const DESKTOP = new URL('../../fixtures/claude-desktop/sessions/', import.meta.url).pathname;
const HOST_SESSION = 'local_132844a6-7d1e-4c2b-9f3a-5e6d7c8b9a01';

describe("a Desktop-run session's registry record", () => {
  it('reads the fixture: entrypoint claude-desktop and the Desktop session id', () => {
    expect(readEntry(path.join(DESKTOP, '61234.json'))).toMatchObject({
      ok: true,
      entry: { pid: 61234, entrypoint: 'claude-desktop', hostSessionId: HOST_SESSION, kind: 'interactive' },
    });
  });

  it('a malformed Desktop session id reads as absent; the record still counts', () => {
    const dir = tempDir('sb-desktop-');
    try {
      const record = JSON.parse(fs.readFileSync(path.join(DESKTOP, '61234.json'), 'utf8')) as Record<string, unknown>;
      for (const bad of ['local_../../etc', 'x'.repeat(500), 42]) {
        fs.writeFileSync(path.join(dir, '61234.json'), JSON.stringify({ ...record, hostSessionId: bad }));
        const r = readEntry(path.join(dir, '61234.json'));
        expect(r.ok, JSON.stringify(bad)).toBe(true);
        expect(r.ok && r.entry.hostSessionId).toBeUndefined();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('listed and messaged', () => {
  let t: TestHub;
  const peers: StockPeer[] = [];
  const claude = (): string => path.join(t.dirs.root, 'claude');
  const socks = (): string => path.join(t.dirs.root, 'cc-socks');
  const rows = async () => (await (await t.client()).call('agents.list', {})).rows;

  beforeEach(async () => {
    t = await startHub();
  });
  afterEach(async () => {
    for (const p of peers.splice(0)) await p.stop();
    await t.close();
  });

  it('a session Claude Desktop runs is listed with host "Claude Desktop"; a terminal one has no host', async () => {
    const desktop = await stockPeer(claude(), socks(), { entrypoint: 'claude-desktop', hostSessionId: HOST_SESSION });
    const thirdParty = await stockPeer(claude(), socks(), { entrypoint: 'claude-desktop-3p' });
    const terminal = await stockPeer(claude(), socks(), { entrypoint: 'cli' });
    peers.push(desktop, thirdParty, terminal);
    await until(async () => (await rows()).length === 3);
    const byPid = new Map((await rows()).map((r) => [r.name, r]));
    expect(byPid.get(`myapp-${desktop.pid}`)).toMatchObject({ kind: 'claude-code', host: 'Claude Desktop' });
    expect(byPid.get(`myapp-${thirdParty.pid}`)).toMatchObject({ kind: 'claude-code', host: 'Claude Desktop' });
    expect(byPid.get(`myapp-${terminal.pid}`)).toMatchObject({ kind: 'claude-code' });
    expect(byPid.get(`myapp-${terminal.pid}`)!.host).toBeUndefined();
  });

  it("a send to it writes Claude Code's own line to its socket, with a from-name its Claude Code reads", async () => {
    const desktop = await stockPeer(claude(), socks(), { entrypoint: 'claude-desktop', hostSessionId: HOST_SESSION });
    peers.push(desktop);
    const c = await t.client();
    const alice = await t.register(c, { name: 'alice' });
    await until(async () => (await rows()).some((r) => r.host === 'Claude Desktop'));
    const sent = await c.call('message.send', {
      sessionId: alice.sessionId,
      token: alice.token,
      to: `myapp-${desktop.pid}`,
      summary: 'hi',
      message: 'a & b < c',
    });
    expect(sent.status).toBe('sent');
    await until(() => desktop.peer.lines.length === 1);
    const line = UserEventLine.parse(desktop.peer.lines[0]);
    expect(line.message.content).toMatch(
      /^<cross-session-message from="uds:[^"]+" from-session="[^"]+" from-name="alice"/,
    );
    expect(line.message.content).toContain('\na & b < c\n');
    expect(line.message.content).not.toContain('encoded=');
  });

  it("a reply to a Desktop frame's `from` (its local_… id) reaches the session Desktop runs under that id", async () => {
    const desktop = await stockPeer(claude(), socks(), { entrypoint: 'claude-desktop', hostSessionId: HOST_SESSION });
    const other = await stockPeer(claude(), socks(), { entrypoint: 'cli' });
    peers.push(desktop, other);
    const c = await t.client();
    const alice = await t.register(c, { name: 'alice' });
    await until(async () => (await rows()).length === 3);
    const send = (to: string) =>
      c.call('message.send', { sessionId: alice.sessionId, token: alice.token, to, summary: 're', message: 'answer' });
    expect((await send(HOST_SESSION)).status).toBe('sent');
    await until(() => desktop.peer.lines.length === 1);
    expect(UserEventLine.parse(desktop.peer.lines[0]).message.content).toContain('\nanswer\n');
    // An id no listed session runs under is not found, and nothing is written anywhere.
    const missing = await send('local_00000000-0000-4000-8000-000000000000').catch((err: unknown) => err);
    expect(missing instanceof RpcError && missing.reason).toBe('target_not_found');
    expect(other.peer.lines).toHaveLength(0);
    expect(desktop.peer.lines).toHaveLength(1);
  });
});
