// Journal compaction by live bytes: large live messages never cause a
// rewrite, dead bytes do, once; after it a restart finds every pending
// message and receipt. A compaction yields to the event loop, keeps every
// record appended while it runs, and never leaves a temp file behind. The
// hub tests wait on the busy tick's own calls, not on time.
import { afterEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { applyRecord, emptyState, Journal, type JournalRecord, type JournalState } from '../../core/journal/journal.js';
import type { HubClient } from '../../core/client/client.js';
import type { InboxItem, Registration } from '../../core/protocol/methods.js';
import { memoryLogger, startHub, tempDirs, until, type TestHub } from '../helpers/hub.js';

let th: TestHub | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await th?.close();
  th = undefined;
});

const OPTS = { syncMs: 10, compactBytes: 1, lineBytes: 1 << 20 };
const LIMITS = { journalCompactBytes: 256 * 1024, livenessSweepMs: 30 };
const big = (i: number) => `${i}`.padEnd(200 * 1024, 'x');
const temps = (dir: string) => fs.readdirSync(dir).filter((n) => n.includes('.tmp'));
const item = (id: string, text = 't') => ({ kind: 'notice' as const, id, text, at: 1 });

function snapshot(state: JournalState): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [id, items] of state.items) if (items.size > 0) out[id] = [...items.keys()].sort();
  return out;
}

/** A hub holding 20 live messages of 200 KiB from a to b: 4 MiB live, almost nothing dead. */
async function hubWithLargeMail() {
  const dirs = tempDirs();
  fs.mkdirSync(dirs.home, { recursive: true, mode: 0o700 });
  fs.writeFileSync(
    path.join(dirs.home, 'settings.json'),
    JSON.stringify({ throttle: { bucketSize: 1000, queueFullAt: 1000 } }),
  );
  th = await startHub({ limits: LIMITS }, dirs);
  const c = await th.client();
  const a = await th.register(c, { name: 'a' });
  const b = await th.register(c, { name: 'b' });
  const ids: string[] = [];
  for (let i = 0; i < 20; i++)
    ids.push(
      (await c.call('message.send', { sessionId: a.sessionId, token: a.token, to: 'b', summary: 's', message: big(i) }))
        .msg_id,
    );
  return { dirs, c, a, b, ids, hub: th, file: th.hub.journal.file };
}

/**
 * The hub's busy tick (core/host/sweep.ts, each second after activity) is compaction's only trigger: counting its
 * questions is the event a test waits on to say "ticks passed", instead of a span of time.
 */
function watchTicks(hub: TestHub) {
  return { asked: vi.spyOn(hub.hub.journal, 'wantsCompaction'), compacted: vi.spyOn(hub.hub.journal, 'compact') };
}

/** Fetches and acknowledges until the inbox is empty (one answer holds about half a frame of items). */
async function drain(c: HubClient, s: Registration): Promise<InboxItem[]> {
  const all: InboxItem[] = [];
  for (let round = 0; round < 20; round++) {
    const got = (await c.call('inbox.fetch', { sessionId: s.sessionId, token: s.token, limit: 100 })).items;
    if (got.length === 0) break;
    all.push(...got);
    await c.call('inbox.ack', { sessionId: s.sessionId, token: s.token, ids: got.map((i) => i.id) });
  }
  return all;
}

describe('compaction through the hub', () => {
  it('large live messages are never compacted: the busy tick asks and leaves the journal as it is', async () => {
    const { hub, file } = await hubWithLargeMail();
    const ino = fs.statSync(file).ino;
    const ticks = watchTicks(hub);
    await until(() => ticks.asked.mock.calls.length >= 2);
    // The old "512 bytes per record" guess rewrote this every tick.
    expect(ticks.compacted).not.toHaveBeenCalled();
    expect(fs.statSync(file).ino).toBe(ino);
  });

  it('acknowledging most messages rewrites the journal once, smaller', async () => {
    const { hub, dirs, c, b, ids, file } = await hubWithLargeMail();
    const before = fs.statSync(file);
    expect(before.size).toBeGreaterThan(20 * 200 * 1024);
    const ticks = watchTicks(hub);
    await c.call('inbox.ack', { sessionId: b.sessionId, token: b.token, ids: ids.slice(0, 15) });
    await until(() => fs.statSync(file).ino !== before.ino);
    await until(() => !hub.hub.journal.compacting);
    const after = fs.statSync(file);
    expect(after.size).toBeLessThan(6 * 210 * 1024);
    const asked = ticks.asked.mock.calls.length;
    await until(() => ticks.asked.mock.calls.length >= asked + 2);
    expect(ticks.compacted).toHaveBeenCalledTimes(1); // once, not every tick
    expect(fs.statSync(file).ino).toBe(after.ino);
    expect(temps(dirs.home)).toEqual([]);
  });

  it('after compaction a restart keeps every pending message and every receipt', async () => {
    const { hub, dirs, c, a, b, ids, file } = await hubWithLargeMail();
    const ino = fs.statSync(file).ino;
    const ticks = watchTicks(hub);
    await c.call('inbox.ack', { sessionId: b.sessionId, token: b.token, ids: ids.slice(0, 15) });
    await until(() => ticks.compacted.mock.calls.length === 1 && !hub.hub.journal.compacting);
    expect(fs.statSync(file).ino).not.toBe(ino);
    await hub.close();

    th = await startHub({ limits: LIMITS }, dirs);
    const c2 = await th.client();
    await th.register(c2, { resume: { sessionId: a.sessionId, token: a.token } });
    await th.register(c2, { resume: { sessionId: b.sessionId, token: b.token } });
    // The sender's first: acknowledging b's messages below adds receipts of its own.
    const receipts = await drain(c2, a);
    expect(receipts.map((r) => (r.kind === 'receipt' ? `${r.origMsgId} ${r.status}` : r.kind)).sort()).toEqual(
      ids
        .slice(0, 15)
        .map((id) => `${id} delivered`)
        .sort(),
    );
    const messages = await drain(c2, b);
    expect(messages.map((m) => m.id).sort()).toEqual(ids.slice(15).sort());
    for (const m of messages) {
      if (m.kind !== 'message') throw new Error(`not a message: ${m.kind}`);
      expect(m.text).toContain(big(ids.indexOf(m.id)));
    }
  });
});

describe('Journal.compact', () => {
  it('yields to the event loop and keeps every record appended or acknowledged while it runs', async () => {
    const dir = tempDirs().home;
    const { journal } = await Journal.open(dir, OPTS);
    const expected: JournalState = emptyState();
    const put = async (rec: JournalRecord) => {
      applyRecord(expected, rec);
      await journal.append(rec);
    };
    // ~8 MiB live, ~8 MiB dead, in many records: several chunks to copy.
    const text = 'y'.repeat(2000);
    for (let i = 0; i < 4000; i++) await put({ t: 'i', id: `s${i % 7}`, item: item(`k${i}`, text) });
    for (let i = 0; i < 4000; i += 2) await put({ t: 'a', id: `s${i % 7}`, ids: [`k${i}`] });
    expect(journal.wantsCompaction()).toBe(true);

    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const done = journal.compact();
    const during: Promise<void>[] = [];
    // While it runs: acknowledge records it may already have copied, add new ones.
    for (let round = 0; journal.compacting && round < 200; round++) {
      await new Promise((r) => setImmediate(r));
      during.push(put({ t: 'a', id: `s${(round * 2 + 1) % 7}`, ids: [`k${round * 2 + 1}`] }));
      during.push(put({ t: 'i', id: 'late', item: item(`n${round}`) }));
    }
    expect(await done).toBe(true);
    clearInterval(timer);
    await Promise.all(during);
    expect(during.length).toBeGreaterThan(2); // it really ran across turns of the loop
    expect(ticks).toBeGreaterThan(0);
    await journal.append({ t: 'i', id: 'after', item: item('z') });
    applyRecord(expected, { t: 'i', id: 'after', item: item('z') });
    expect(journal.size).toBe(fs.statSync(journal.file).size);
    journal.close();

    const reopened = await Journal.open(dir, OPTS);
    reopened.journal.close();
    expect(snapshot(reopened.state)).toEqual(snapshot(expected));
    expect(reopened.journal.size).toBeLessThan(10 * 1024 * 1024);
    expect(temps(dir)).toEqual([]);
  });

  it('a record that cannot be serialized is refused and logged, and the journal goes on without it', async () => {
    const dir = tempDirs().home;
    const log = memoryLogger();
    const { journal } = await Journal.open(dir, { ...OPTS, log });
    await journal.append({ t: 'i', id: 's', item: item('a') });
    await journal.append({ t: 'i', id: 's', item: item('b') });
    const bad = { t: 'i', id: 's', item: { ...item('c'), at: 1n } } as unknown as JournalRecord;
    await expect(journal.append(bad), 'refused').rejects.toThrow('not serializable');
    expect(log.lines, 'logged').toContainEqual(
      expect.objectContaining({ level: 'error', msg: 'journal: record not serializable, not written' }),
    );
    await journal.append({ t: 'a', id: 's', ids: ['a'] });
    expect(await journal.compact(), 'a compaction still runs').toBe(true);
    journal.close();
    expect(temps(dir)).toEqual([]);
    const reopened = await Journal.open(dir, OPTS);
    reopened.journal.close();
    expect(snapshot(reopened.state), 'never written').toEqual({ s: ['b'] });
  });

  it('a record over the line limit is refused at append (replay would drop it)', async () => {
    const dir = tempDirs().home;
    const { journal } = await Journal.open(dir, { ...OPTS, lineBytes: 1024 });
    await expect(journal.append({ t: 'i', id: 's', item: item('a', 'x'.repeat(2000)) })).rejects.toThrow('line limit');
    journal.close();
    expect(fs.readFileSync(path.join(dir, 'journal.ndjson'), 'utf8')).toBe('{"t":"v","v":1,"by":"switchboard"}\n');
  });

  it('closing the journal mid-compaction removes the temp file and loses nothing', async () => {
    const dir = tempDirs().home;
    const { journal } = await Journal.open(dir, OPTS);
    const text = 'y'.repeat(4000);
    for (let i = 0; i < 2000; i++) await journal.append({ t: 'i', id: 's', item: item(`k${i}`, text) });
    await journal.append({ t: 'a', id: 's', ids: Array.from({ length: 1000 }, (_, i) => `k${i}`) });
    const done = journal.compact();
    await new Promise((r) => setImmediate(r));
    expect(journal.compacting).toBe(true);
    journal.close();
    expect(await done).toBe(false);
    expect(temps(dir)).toEqual([]);
    const reopened = await Journal.open(dir, OPTS);
    reopened.journal.close();
    expect(reopened.state.items.get('s')!.size).toBe(1000);
  });

  it('a compaction that fails on I/O leaves the journal as it was and backs off', async () => {
    const dir = tempDirs().home;
    const log = memoryLogger();
    const { journal } = await Journal.open(dir, { ...OPTS, log });
    const text = 'y'.repeat(4000);
    for (let i = 0; i < 2000; i++) await journal.append({ t: 'i', id: 's', item: item(`k${i}`, text) });
    await journal.append({ t: 'a', id: 's', ids: Array.from({ length: 1000 }, (_, i) => `k${i}`) });
    const done = journal.compact();
    await new Promise((r) => setImmediate(r));
    fs.truncateSync(journal.file, 0); // the file is suddenly shorter than what the index knows: reads come back short
    expect(await done).toBe(false);
    expect(temps(dir), 'its temp file is removed').toEqual([]);
    expect(log.lines, 'logged').toContainEqual(
      expect.objectContaining({ level: 'error', msg: 'journal: compaction failed, the journal is unchanged' }),
    );
    expect(journal.wantsCompaction(), 'backs off instead of retrying every sweep').toBe(false);
    await journal.append({ t: 'i', id: 's', item: item('still-works') });
    journal.close();
  });

  it('temp files left by a compaction that died are removed at open', async () => {
    const dir = tempDirs().home;
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(dir, 'journal.ndjson.tmp-123-abcdef'), 'partial', { mode: 0o600 });
    const { journal } = await Journal.open(dir, OPTS);
    journal.close();
    expect(temps(dir)).toEqual([]);
  });
});
