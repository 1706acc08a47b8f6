// Discovery of stock Claude Code sessions: the registry rules (bare pid
// names, 256 KiB, pid inside = name, pid alive, start time, a socket that
// answers) against real files, processes and sockets; rows appear and
// vanish with the directory.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probeSocket } from '../../../core/transport/endpoint.js';
import { isRegistryFileName, readEntry, readPeerToken } from '../../../core/stock/entry.js';
import { startHub, until, type TestHub } from '../../helpers/hub.js';
import { sessionsDir, stockPeer, type StockPeer } from './helpers.js';
import { stopProcess } from '../../helpers/processes.js';
import { tempDir } from '../../helpers/temp.js';

const FIXTURES = new URL('../../fixtures/claude-code/sessions/', import.meta.url).pathname;

describe('registry files', () => {
  it('reads the fixture and its key file', () => {
    const r = readEntry(path.join(FIXTURES, '48213.json'));
    expect(r).toMatchObject({
      ok: true,
      entry: {
        pid: 48213,
        name: 'myapp-3f',
        messagingSocketPath: '/run/user/1000/cc-socks/48213.sock',
        status: 'idle',
        nameSource: 'derived',
      },
    });
    if (!r.ok) throw new Error('unreachable');
    expect(readPeerToken(FIXTURES, r.entry)).toBe('9f8e7d6c5b4a39281706f5e4d3c2b1a0');
    expect(readPeerToken(FIXTURES, { ...r.entry, procStart: 'other' })).toBeUndefined();
  });

  it('reads only bare pid names', () => {
    for (const ok of ['1.json', '48213.json']) expect(isRegistryFileName(ok)).toBe(true);
    for (const bad of [
      'abc.json',
      '0.json',
      '-1.json',
      '12.json.tmp',
      '12.key',
      '48213.7d9d.key',
      '12345678901.json',
      '.json',
    ])
      expect(isRegistryFileName(bad)).toBe(false);
  });

  it('refuses a registry entry it cannot trust, with a reason saying why', () => {
    const dir = tempDir('sb-reg-');
    try {
      const good = fs.readFileSync(path.join(FIXTURES, '48213.json'), 'utf8');
      fs.writeFileSync(path.join(dir, '48213.json'), good.replace('}', `,"pad":"${'x'.repeat(300 * 1024)}"}`));
      expect(readEntry(path.join(dir, '48213.json')), 'oversized').toEqual({ ok: false, why: 'over 262144 bytes' });
      fs.writeFileSync(path.join(dir, '7.json'), good);
      expect(readEntry(path.join(dir, '7.json')), 'another pid').toEqual({
        ok: false,
        why: 'the pid inside does not match the file name',
      });
      fs.writeFileSync(path.join(dir, '8.json'), '{"pid":8,');
      expect(readEntry(path.join(dir, '8.json')), 'not JSON').toEqual({ ok: false, why: 'not JSON' });
      fs.writeFileSync(path.join(dir, '9.json'), '{"pid":9,"sessionId":"s"}');
      expect(readEntry(path.join(dir, '9.json')), 'no socket').toMatchObject({
        ok: false,
        why: expect.stringContaining('messagingSocketPath'),
      });
      fs.mkdirSync(path.join(dir, '10.json'));
      expect(readEntry(path.join(dir, '10.json')), 'a directory').toEqual({ ok: false, why: 'not a regular file' });
      fs.symlinkSync(path.join(FIXTURES, '48213.json'), path.join(dir, '11.json'));
      expect(readEntry(path.join(dir, '11.json')), 'a symlink').toMatchObject({
        ok: false,
        why: expect.stringContaining('unreadable'),
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a probe of a socket nobody listens on fails fast', async () => {
    const LONG = 30_000;
    const t0 = Date.now();
    expect(await probeSocket('/nonexistent/cc-socks/1.sock', LONG)).toBe(false);
    expect(Date.now() - t0, 'failed on the missing socket, not by its timeout').toBeLessThan(LONG);
  });
});

describe('discovery in the hub', () => {
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

  it('lists a live Claude Code session with its status until its registry file goes', async () => {
    const p = await stockPeer(claude(), socks(), { status: 'busy' });
    peers.push(p);
    await until(async () => (await rows()).length === 1);
    const [row] = await rows();
    expect(row).toMatchObject({
      name: `myapp-${p.pid}`,
      kind: 'claude-code',
      agent: 'claude',
      state: 'busy',
      cwd: '/home/dev/myapp',
      address: `uds:${p.socketPath}`,
    });
    expect(row!.ref).toMatch(/^[0-9a-f]{6}$/);
    fs.rmSync(p.registry);
    await until(async () => (await rows()).length === 0); // a hang here: the row outlived its file
  });

  it('lists only the live session among dead, reused, silent and broken entries', async () => {
    const dead = await stockPeer(claude(), socks());
    await stopProcess(dead.proc);
    const reused = await stockPeer(claude(), socks(), { procStart: '1' });
    const silent = await stockPeer(claude(), socks(), {}, { listen: false });
    peers.push(dead, reused, silent);
    const dir = sessionsDir(claude());
    fs.writeFileSync(path.join(dir, 'notes.json'), '{}');
    fs.writeFileSync(path.join(dir, `${process.pid}.json`), '{ broken');
    const live = await stockPeer(claude(), socks());
    peers.push(live);
    await until(async () => (await rows()).length === 1);
    await t.hub.stock.sweep();
    expect((await rows()).map((r) => r.name)).toEqual([`myapp-${live.pid}`]);
  });

  it("moving the config root (claudeConfigDir) drops the old root's rows and watches the new one", async () => {
    const p = await stockPeer(claude(), socks());
    peers.push(p);
    await until(async () => (await rows()).length === 1);
    const other = path.join(t.dirs.root, 'other-claude');
    fs.writeFileSync(path.join(t.dirs.home, 'settings.json'), JSON.stringify({ claudeConfigDir: other }));
    await until(async () => {
      await t.hub.settingsChanged();
      return (await rows()).length === 0;
    });
    const q = await stockPeer(other, socks());
    peers.push(q);
    await until(async () => (await rows()).map((r) => r.name).join() === `myapp-${q.pid}`);
  });

  it('a session that dies without removing its file vanishes at the next sweep', async () => {
    const p = await stockPeer(claude(), socks());
    peers.push(p);
    await until(async () => (await rows()).length === 1);
    await stopProcess(p.proc);
    await t.hub.stock.sweep();
    expect(await rows()).toEqual([]);
  });
});

describe('one agent process is one row', () => {
  let t: TestHub;
  const peers: StockPeer[] = [];
  beforeEach(async () => {
    t = await startHub();
  });
  afterEach(async () => {
    for (const p of peers.splice(0)) await p.stop();
    await t.close();
  });

  it("Claude Code's own registry entry of a Switchboard session's agent process is folded into that row, which is `self` and cannot be messaged by itself", async () => {
    const claude = path.join(t.dirs.root, 'claude');
    // Claude Code 2.1.332 registers itself (its messaging is on by default) …
    const p = await stockPeer(claude, path.join(t.dirs.root, 'cc-socks'), { version: '2.1.332' });
    peers.push(p);
    const c = await t.client();
    await until(async () => (await c.call('agents.list', {})).rows.length === 1);
    // … and the same process runs Switchboard's MCP server and hooks.
    const me = await t.register(c, { name: 'api', pid: p.pid, liveness: 'pid', agent: 'claude' });
    const other = await t.register(c, { name: 'web' });
    await t.hub.stock.sweep();

    const mine = (await c.call('agents.list', { sessionId: me.sessionId, token: me.token })).rows;
    expect(mine.map((r) => [r.name, r.kind, r.self])).toEqual([
      ['api', 'switchboard', true],
      ['web', 'switchboard', false],
    ]);
    const theirs = (await c.call('agents.list', { sessionId: other.sessionId, token: other.token })).rows;
    expect(
      theirs
        .filter((r) => r.cwd === t.dirs.root || r.kind === 'claude-code')
        .map((r) => r.name)
        .sort(),
    ).toEqual(['api', 'web']);

    // Its Claude Code address is the same row: a send to it from itself is to_self, and nothing reaches the socket.
    await expect(
      c.call('message.send', {
        sessionId: me.sessionId,
        token: me.token,
        to: `uds:${p.socketPath}`,
        summary: 's',
        message: 'me?',
      }),
    ).rejects.toMatchObject({ reason: 'to_self' });
    // From another session, that address reaches the Switchboard session (one row, reachable both ways).
    const sent = await c.call('message.send', {
      sessionId: other.sessionId,
      token: other.token,
      to: `uds:${p.socketPath}`,
      summary: 's',
      message: 'hi',
    });
    expect(sent).toMatchObject({ status: 'queued', to: { name: 'api', address: me.address } });
    expect(p.peer.lines).toEqual([]);
  });

  it('a stock entry of another process stays its own row', async () => {
    const q = await stockPeer(path.join(t.dirs.root, 'claude'), path.join(t.dirs.root, 'cc-socks'));
    peers.push(q);
    const c = await t.client();
    const me = await t.register(c, { name: 'api', pid: process.pid, liveness: 'pid' });
    await until(async () => (await c.call('agents.list', {})).rows.length === 2);
    const rows = (await c.call('agents.list', { sessionId: me.sessionId, token: me.token })).rows;
    expect(rows.map((r) => [r.name, r.kind, r.self])).toEqual([
      ['api', 'switchboard', true],
      [`myapp-${q.pid}`, 'claude-code', false],
    ]);
  });
});
