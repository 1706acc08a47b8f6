// The hub's "nothing pending" marks (core/delivery/quiet-marks.ts) on real
// files: written 0600 in a 0700 directory when a fetch found nothing,
// rewritten only when half expired, removed the moment an item becomes
// fetchable (added to the inbox, or released by a wake), and all of them at
// hub start (a previous hub's) and close.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Mailboxes } from '../../../core/delivery/mailboxes.js';
import { QuietMarks } from '../../../core/delivery/quiet-marks.js';
import type { InboxItem } from '../../../core/protocol/methods.js';
import { parseQuietMark } from '../../../core/protocol/quiet.js';
import { fakeClock, memoryLogger } from '../../helpers/hub.js';
import { tempDir } from '../../helpers/temp.js';
import { fakeJournal } from './fakes.js';

const ID = '0b0c2d5e-1f6a-4c3b-9d8e-7a6b5c4d3e2f';

function setup(enabled = true) {
  const runtimeDir = tempDir();
  const clock = fakeClock();
  const marks = new QuietMarks({ runtimeDir, hubPid: process.pid, clock, ttlMs: 60_000, log: memoryLogger(), enabled });
  marks.reset();
  const file = path.join(runtimeDir, 'quiet', ID);
  return { runtimeDir, clock, marks, file };
}

function item(id: string): InboxItem {
  return { kind: 'notice', id, text: 'x', at: 0 } as unknown as InboxItem;
}

describe('QuietMarks', () => {
  it('vouch writes `v1 <hub pid> <until>` 0600 in a 0700 directory, afresh each time (a removed mark comes back)', () => {
    const { clock, marks, file } = setup();
    marks.vouch(ID);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(parseQuietMark(fs.readFileSync(file, 'utf8'))).toEqual({ hubPid: process.pid, until: clock.now() + 60_000 });
    clock.advance(1000);
    fs.rmSync(file);
    marks.vouch(ID);
    expect(parseQuietMark(fs.readFileSync(file, 'utf8'))?.until).toBe(clock.now() + 60_000);
  });

  it('an item added to the inbox removes the mark before put() resolves; a duplicate or a full inbox does not', async () => {
    const { marks, file } = setup();
    const boxes = new Mailboxes(fakeJournal(), 2, new Map(), marks);
    marks.vouch(ID);
    const put = boxes.put(ID, item('a'));
    expect(fs.existsSync(file), 'gone in the same turn as the add').toBe(false);
    await put;
    marks.vouch(ID); // (the hub vouches only on an empty fetch; here only the file matters)
    expect(await boxes.put(ID, item('a'))).toBe('duplicate');
    expect(fs.existsSync(file)).toBe(true);
  });

  it('an item released by a wake (claim given back) removes the mark', async () => {
    const { marks, file } = setup();
    const boxes = new Mailboxes(fakeJournal(), 10, new Map(), marks);
    await boxes.put(ID, item('a'));
    expect(boxes.claim(ID, 'a')).toBe(true);
    expect(boxes.fetch(ID, 10)).toEqual([]);
    marks.vouch(ID); // nothing fetchable while claimed
    expect(fs.existsSync(file)).toBe(true);
    boxes.release(ID, 'a');
    expect(fs.existsSync(file)).toBe(false);
  });

  it("reset removes a previous hub's marks", () => {
    const { runtimeDir, marks, file } = setup();
    fs.writeFileSync(file, 'v1 1 99999999999999\n', { mode: 0o600 });
    marks.reset();
    expect(fs.readdirSync(path.join(runtimeDir, 'quiet'))).toEqual([]);
  });

  it('clear removes the marks directory', () => {
    const { runtimeDir, marks } = setup();
    marks.vouch(ID);
    marks.clear();
    expect(fs.existsSync(path.join(runtimeDir, 'quiet'))).toBe(false);
  });

  it('disabled, it writes nothing', () => {
    const off = setup(false);
    off.marks.vouch(ID);
    expect(fs.existsSync(path.join(off.runtimeDir, 'quiet'))).toBe(false);
  });

  it('an id that is not a plain file name gets no mark', () => {
    const { runtimeDir, marks } = setup();
    marks.vouch('../escape');
    expect(fs.readdirSync(path.join(runtimeDir, 'quiet'))).toEqual([]);
    expect(fs.existsSync(path.join(runtimeDir, 'escape'))).toBe(false);
  });
});
