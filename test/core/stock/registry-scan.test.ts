// A registry directory of many large files (found by a red-team pass):
// every sweep (once a second) read and parsed every <pid>.json again, all
// in one event-loop turn, so 4 000 files of 250 KB stalled `hub.info` for
// minutes. Now an unchanged file is not parsed again (its problem is logged
// once, not every sweep), and at most 16 files are read per turn.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StockDiscovery } from '../../../core/stock/discovery.js';
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
