// The journal says which format it is in: a new file starts with a header
// naming its writer, a file from before headers gets one, a file of a newer
// format is refused (byte-identical, the writer named) and a record of a
// type this hub does not know survives replay and compaction as it was.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../core/journal/journal.js';
import { JournalError } from '../../core/journal/journal-file.js';
import { memoryLogger, startHub, tempDirs, type TestHub } from '../helpers/hub.js';

const OPTS = { syncMs: 10, compactBytes: 1, lineBytes: 1 << 20, writer: 'switchboard 1.2.3' };
const item = (id: string) => ({ kind: 'notice' as const, id, text: 't', at: 1 });
const lines = (dir: string): unknown[] =>
  fs
    .readFileSync(path.join(dir, 'journal.ndjson'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as unknown);

let th: TestHub | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});

describe('the journal format header', () => {
  it('a new journal starts with the header naming its writer; compaction keeps it first', async () => {
    const dir = tempDirs().home;
    const { journal } = await Journal.open(dir, OPTS);
    await journal.append({ t: 'i', id: 's', item: item('a') });
    await journal.append({ t: 'a', id: 's', ids: ['a'] });
    await journal.append({ t: 'i', id: 's', item: item('b') });
    expect(await journal.compact()).toBe(true);
    journal.close();
    expect(lines(dir)).toEqual([
      { t: 'v', v: 1, by: 'switchboard 1.2.3' },
      { t: 'i', id: 's', item: item('b') },
    ]);
  });

  it('a journal from before headers replays as format 1 and gets a header', async () => {
    const dir = tempDirs().home;
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(dir, 'journal.ndjson'), JSON.stringify({ t: 'i', id: 's', item: item('old') }) + '\n', {
      mode: 0o600,
    });
    const { journal, state } = await Journal.open(dir, OPTS);
    journal.close();
    expect([...state.items.get('s')!.keys()]).toEqual(['old']);
    expect(lines(dir)).toEqual([
      { t: 'i', id: 's', item: item('old') },
      { t: 'v', v: 1, by: 'switchboard 1.2.3' },
    ]);
  });

  it('a journal of a newer format is refused, naming who wrote it, and left byte-identical', async () => {
    const dir = tempDirs().home;
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, 'journal.ndjson');
    const text =
      JSON.stringify({ t: 'v', v: 2, by: 'switchboard 9.0.0' }) +
      '\n' +
      JSON.stringify({ t: 'i2', id: 's', parts: [] }) +
      '\n';
    fs.writeFileSync(file, text, { mode: 0o600 });
    const err = await Journal.open(dir, OPTS).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(JournalError);
    expect((err as JournalError).code).toBe('newer_format');
    expect((err as JournalError).message).toContain('format 2, written by switchboard 9.0.0');
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
    // The hub refuses to start on it, with the same words.
    const dirs = tempDirs();
    const stateDir = (th = await startHub({}, dirs)).hub.paths.stateDir;
    await th.close();
    th = undefined;
    fs.writeFileSync(path.join(stateDir, 'journal.ndjson'), text);
    await expect(startHub({}, dirs)).rejects.toThrow(
      /written by a newer Switchboard.*format 2, written by switchboard 9\.0\.0/,
    );
    expect(fs.readFileSync(path.join(stateDir, 'journal.ndjson'), 'utf8')).toBe(text);
  });

  it('a record of a type this hub does not know is kept through replay and compaction, with one warning', async () => {
    const dir = tempDirs().home;
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const unknown = { t: 'zz', id: 's', note: 'from a later version' };
    fs.writeFileSync(
      path.join(dir, 'journal.ndjson'),
      [{ t: 'v', v: 1, by: 'switchboard 1.0.0' }, unknown, { t: 'i', id: 's', item: item('a') }]
        .map((l) => JSON.stringify(l) + '\n')
        .join(''),
      { mode: 0o600 },
    );
    const log = memoryLogger();
    const { journal } = await Journal.open(dir, { ...OPTS, log });
    expect(log.lines.filter((l) => l.msg.includes('does not know'))).toHaveLength(1);
    await journal.append({ t: 'a', id: 's', ids: ['a'] }); // the item dies: compaction has work
    expect(await journal.compact()).toBe(true);
    journal.close();
    expect(lines(dir)).toEqual([{ t: 'v', v: 1, by: 'switchboard 1.0.0' }, unknown]);
  });
});
