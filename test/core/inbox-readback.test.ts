// Queued messages live in the journal, not in memory (it bounds the hub's heap): once a
// message is written, the inbox keeps its id and sender and every hand-over
// reads the text back from its journal record — exactly what was admitted,
// through compaction and restarts. A record that cannot be read back is an
// error (the hub answers `internal` and keeps serving), never an empty or
// a different message.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { Journal, JournalReadError } from '../../core/journal/journal.js';
import { Mailboxes } from '../../core/delivery/mailboxes.js';
import type { InboxMessage } from '../../core/protocol/methods.js';
import { memoryLogger, startHub, tempDirs, until, type TestHub } from '../helpers/hub.js';

let th: TestHub | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});

const OPTS = { syncMs: 10, compactBytes: 1, lineBytes: 1 << 20 };
const TEXTS = [
  'plain',
  'zwei Zeilen\nmit "Anführung" und \\ Rückstrich',
  '😀 naïve 日本語 \u2028 \u0000 end',
  'x'.repeat(70_000),
];

function message(id: string, text: string): InboxMessage {
  return {
    kind: 'message',
    id,
    from: { address: 'uds:/tmp/a.sock', name: 'a', sessionId: 'sa' },
    summary: `summary of ${id}`,
    text,
    at: 1_700_000_000_123,
    approvedAfterHold: false,
  };
}

/** Overwrites the bytes of the first line that contains `needle`, keeping its length (a damaged block). */
function damage(file: string, needle: string): void {
  const buf = fs.readFileSync(file);
  const at = buf.indexOf(needle);
  expect(at).toBeGreaterThanOrEqual(0);
  const start = buf.lastIndexOf(0x0a, at) + 1;
  buf.fill('#', start, buf.indexOf(0x0a, at));
  fs.writeFileSync(file, buf);
}

describe('queued messages are read back from the journal', () => {
  it('every hand-over is exactly what was admitted, after compaction and after a restart', async () => {
    const dir = tempDirs().home;
    const { journal } = await Journal.open(dir, OPTS);
    const boxes = new Mailboxes(journal, 1000, new Map());
    const admitted = TEXTS.map((t, i) => message(`m${i}`, t));
    for (const m of admitted) expect(await boxes.put('s1', structuredClone(m))).toBe('added');
    // Dead bytes before them: a compaction moves every live record.
    for (let i = 0; i < 50; i++) await boxes.put('s2', message(`d${i}`, 'dead'.repeat(1000)));
    await boxes.ack(
      's2',
      Array.from({ length: 50 }, (_, i) => `d${i}`),
    );
    expect(boxes.fetch('s1', 10)).toEqual(admitted);
    expect(journal.wantsCompaction()).toBe(true);
    expect(await journal.compact()).toBe(true);
    expect(boxes.fetch('s1', 10)).toEqual(admitted);
    expect(boxes.unclaimedMessages('s1', 2)).toEqual(admitted.slice(0, 2));
    journal.close();

    const again = await Journal.open(dir, OPTS);
    const restored = new Mailboxes(again.journal, 1000, again.state.items);
    expect(restored.fetch('s1', 10)).toEqual(admitted);
    expect(restored.fetch('s2', 10)).toEqual([]);
    again.journal.close();
  });

  it('a written message is no longer held in memory: its damaged record is an error, never an empty message', async () => {
    const dir = tempDirs().home;
    const { journal } = await Journal.open(dir, OPTS);
    const boxes = new Mailboxes(journal, 1000, new Map());
    await boxes.put('s1', message('keep', 'the first one'));
    await boxes.put('s1', message('lost', 'the second one'));
    damage(journal.file, '"lost"');
    expect(() => boxes.fetch('s1', 10)).toThrow(JournalReadError);
    expect(() => boxes.fetch('s1', 10)).toThrow(/item lost of session s1 cannot be read back/);
    // What needs no text still works: the sender of each message, acknowledging it.
    expect(boxes.unclaimedSenders('s1').map((m) => m.id)).toEqual(['keep', 'lost']);
    expect(await boxes.ack('s1', ['lost'])).toEqual([{ kind: 'message', id: 'lost', from: message('lost', '').from }]);
    expect(boxes.fetch('s1', 10)).toEqual([message('keep', 'the first one')]);
    // A journal cut short (a record whose bytes are gone) is the same error.
    fs.truncateSync(journal.file, fs.readFileSync(journal.file).indexOf('the first one'));
    expect(() => boxes.fetch('s1', 10)).toThrow(/the file ends before byte/);
    journal.close();
  });

  it('through the hub: a damaged record fails inbox.fetch with `internal` (logged); the hub serves on', async () => {
    const dirs = tempDirs();
    const log = memoryLogger();
    th = await startHub({ logger: log }, dirs);
    const c = await th.client();
    const a = await th.register(c, { name: 'a' });
    const b = await th.register(c, { name: 'b' });
    const send = (message: string) =>
      c.call('message.send', { sessionId: a.sessionId, token: a.token, to: 'b', summary: 's', message });
    await send('first message, intact');
    await send('second message, about to be damaged');
    const fetch = () => c.call('inbox.fetch', { sessionId: b.sessionId, token: b.token });
    const before = await fetch();
    expect(before.items.map((i) => (i.kind === 'message' ? i.text : ''))).toEqual([
      expect.stringContaining('first message, intact'),
      expect.stringContaining('second message, about to be damaged'),
    ]);
    damage(th.hub.journal.file, 'about to be damaged');
    await expect(fetch()).rejects.toThrow(/Internal error/);
    await until(() =>
      log.lines.some((l) => l.msg === 'request failed' && /cannot be read back/.test(String(l.fields?.error))),
    );
    expect((await c.call('hub.info', {})).pid).toBe(process.pid);
    // Once the damaged one is acknowledged, the rest is handed over again.
    await c.call('inbox.ack', { sessionId: b.sessionId, token: b.token, ids: [before.items[1]!.id] });
    expect((await fetch()).items).toEqual([before.items[0]]);
  });
});
