// A registry directory of many large files (found by a red-team pass):
// every sweep (once a second) read and parsed every <pid>.json again, all
// in one event-loop turn, so 4 000 files of 250 KB stalled `hub.info` for
// minutes. Now an unchanged file is not parsed again (its problem is logged
// once, not every sweep), and at most 16 files are read per turn. A listed
// socket is probed again after REPROBE_MS: one that closed while its process
// lived stayed listed for good.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPROBE_MS, StockDiscovery } from '../../../core/stock/discovery.js';
import { EntryReader } from '../../../core/stock/entry.js';
import { tempDir } from '../../helpers/temp.js';

const FIXTURES = new URL('../../fixtures/claude-code/sessions/', import.meta.url).pathname;

function discovery(dir: string, logged: string[]): StockDiscovery {
  return new StockDiscovery({
    sessionsDir: dir,
    isOurs: () => false,
    onChange: () => undefined,
    probe: () => Promise.resolve(true),
    log: (_m, fields) => logged.push(String(fields.file)),
  });
}

describe('registry scans', () => {
  it('an unchanged file is read once and its problem logged once; a changed one is read again', async () => {
    const dir = tempDir('sb-reg-');
    fs.writeFileSync(path.join(dir, '7.json'), '{"pid":7,');
    const logged: string[] = [];
    const d = discovery(dir, logged);
    for (let i = 0; i < 3; i++) await d.scan();
    expect(logged).toEqual([path.join(dir, '7.json')]); // old code: three times
    fs.writeFileSync(path.join(dir, '7.json'), '{"pid":7,"x"');
    await d.scan();
    expect(logged).toHaveLength(2);
    d.close();
  });

  it('EntryReader returns the last reading while the file is unchanged, and reads a replaced file', () => {
    const dir = tempDir('sb-reg-');
    const file = path.join(dir, '48213.json');
    fs.copyFileSync(path.join(FIXTURES, '48213.json'), file);
    const reader = new EntryReader();
    const first = reader.read(file);
    expect(first).toMatchObject({ changed: true, result: { ok: true, entry: { name: 'myapp-3f' } } });
    expect(reader.read(file)).toEqual({ changed: false, result: first.result });
    const text = fs.readFileSync(file, 'utf8').replace('myapp-3f', 'other-3f');
    fs.writeFileSync(`${file}.tmp`, text);
    fs.renameSync(`${file}.tmp`, file);
    expect(reader.read(file)).toMatchObject({ changed: true, result: { ok: true, entry: { name: 'other-3f' } } });
    fs.rmSync(file);
    expect(reader.read(file)).toMatchObject({ changed: true, result: { ok: false, why: 'unreadable (ENOENT)' } });
    expect(reader.read(file).changed).toBe(false);
  });

  it('reads at most 16 files before the event loop gets a turn', async () => {
    const dir = tempDir('sb-reg-');
    for (let pid = 1; pid <= 64; pid++)
      fs.writeFileSync(path.join(dir, `${pid}.json`), `{"pid":${pid},"pad":"${'x'.repeat(1000)}`);
    const logged: string[] = [];
    const d = discovery(dir, logged);
    let atFirstTurn = -1;
    setImmediate(() => (atFirstTurn = logged.length));
    await d.scan();
    expect(logged).toHaveLength(64);
    expect(atFirstTurn).toBeGreaterThan(0);
    expect(atFirstTurn).toBeLessThanOrEqual(16); // old code: all 64 in the first turn
    d.close();
  });
});

describe('probes', () => {
  // One that stopped answering leaves the list; one that began answering joins it.
  it('a listed socket is probed again after REPROBE_MS, its new answer deciding', async () => {
    const dir = tempDir('sb-reg-');
    const sock = path.join(dir, 'cc.sock');
    const server = net.createServer().listen(sock);
    await new Promise((resolve) => server.once('listening', resolve));
    const entry = JSON.parse(fs.readFileSync(path.join(FIXTURES, '48213.json'), 'utf8')) as Record<string, unknown>;
    const file = path.join(dir, `${process.pid}.json`);
    fs.writeFileSync(
      file,
      JSON.stringify({ ...entry, pid: process.pid, messagingSocketPath: sock, procStart: undefined }),
    );
    let answers = true;
    let now = 0;
    const listed: number[] = [];
    const d = new StockDiscovery({
      sessionsDir: dir,
      isOurs: () => false,
      onChange: (sessions) => listed.push(sessions.length),
      probe: () => Promise.resolve(answers),
      now: () => now,
    });
    try {
      await d.scan();
      expect(d.sessions).toHaveLength(1);
      answers = false;
      now = REPROBE_MS - 1;
      await d.scan();
      expect(d.sessions, 'within REPROBE_MS the last answer stands').toHaveLength(1);
      now = REPROBE_MS;
      await d.scan();
      expect(d.sessions, 'stopped answering: it leaves').toHaveLength(0); // old code: listed while the pid lives
      answers = true;
      now = 2 * REPROBE_MS;
      await d.scan();
      expect(d.sessions, 'began answering: it joins').toHaveLength(1);
      expect(listed, 'each change is told').toEqual([1, 0, 1]);
    } finally {
      d.close();
      server.close();
    }
  });
});
