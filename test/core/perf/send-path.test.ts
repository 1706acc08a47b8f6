// The send path's shortcuts give the same results as the long
// way: journal offsets of a batch with multi-byte text (compaction copies
// exactly the live records by those offsets), the live index's offsets
// across two compactions, message ids of the same form
// as randomUUID, shared `from` objects, and settings shared only by
// sessions whose files are the same.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyRecord,
  emptyState,
  Journal,
  type JournalRecord,
  type JournalState,
} from '../../../core/journal/journal.js';
import { randomId } from '../../../core/delivery/msg-id.js';
import { frameMessage } from '../../../core/delivery/enqueue.js';
import { wrapMessage, type WrapperAttrs } from '../../../core/protocol/cc-wire.js';
import type { Envelope } from '../../../core/delivery/envelope.js';
import { normalizeName, parseLabel } from '../../../core/registry/names.js';
import { SettingsStore } from '../../../core/settings/store.js';
import { emptyParsed } from '../../../core/settings/schema.js';
import { silentLogger } from '../../../core/kit/logger.js';
import { tempDir } from '../../helpers/temp.js';

const OPTS = { syncMs: 10, compactBytes: 1, lineBytes: 1 << 20 };
const notice = (id: string, text: string) => ({ kind: 'notice' as const, id, text, at: 1 });

function items(state: JournalState): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const [sid, m] of state.items) for (const [id, it] of m) (out[sid] ??= {})[id] = it.text;
  return out;
}

describe('journal batch offsets', () => {
  it('a batch mixing ASCII and multi-byte text compacts to exactly its live records', async () => {
    const dir = tempDir();
    const { journal } = await Journal.open(dir, OPTS);
    const texts = ['plain', 'é accent', '漢字 three bytes', 'emoji 🎉 four', 'plain again', 'ünïcödé'.repeat(50)];
    const recs: JournalRecord[] = [];
    for (let i = 0; i < 60; i++)
      recs.push({ t: 'i', id: `s${i % 3}`, item: notice(`m${i}`, `${texts[i % texts.length]} ${i}`) });
    await Promise.all(recs.map((r) => journal.append(r))); // one tick: one group commit
    await Promise.all([journal.append({ t: 'i', id: 's0', item: notice('ascii-only', 'a batch of ASCII only') })]);
    await journal.append({
      t: 'a',
      id: 's1',
      ids: recs.filter((_, i) => i % 3 === 1 && i % 2 === 0).map((r) => (r as { item: { id: string } }).item.id),
    });
    const expected: JournalState = emptyState();
    for (const line of fs.readFileSync(journal.file, 'utf8').split('\n').filter(Boolean))
      applyRecord(expected, JSON.parse(line) as JournalRecord);
    expect(await journal.compact()).toBe(true);
    journal.close();
    const { journal: again, state } = await Journal.open(dir, OPTS);
    again.close();
    expect(items(state)).toEqual(items(expected));
    expect(Object.keys(items(state).s0 ?? {})).toContain('ascii-only');
  });
});

describe('journal live index without entry objects', () => {
  // Sessions, held and queued records are replaced and removed between the two.
  it('two compactions in a row keep exactly the live records', async () => {
    const dir = tempDir();
    const { journal } = await Journal.open(dir, OPTS);
    const session = (id: string, name: string): JournalRecord => ({ t: 's', s: { id, name } as never });
    const held = (sid: string, id: string): JournalRecord => ({
      t: 'h',
      id: sid,
      held: { id, env: { msgId: id } as never, reason: 'r', heldAt: 1 },
    });
    for (const sid of ['s0', 's1', 's2']) await journal.append(session(sid, `${sid}-a`));
    for (let i = 0; i < 30; i++)
      await journal.append({ t: 'i', id: `s${i % 3}`, item: notice(`m${i}`, `text ${i} ✓`) });
    for (let i = 0; i < 6; i++) await journal.append(held(`s${i % 3}`, `h${i}`));
    await journal.append({ t: 'a', id: 's0', ids: ['m0', 'm3', 'm6'] });
    await journal.append(session('s1', 's1-b'));
    expect(await journal.compact()).toBe(true);
    expect(journal.liveBytes).toBe(journal.size);
    await journal.append({ t: 'a', id: 's1', ids: ['m1', 'm4'] });
    await journal.append({ t: 'hx', id: 's2', ids: ['h2'] });
    await journal.append(session('s0', 's0-b'));
    await journal.append({ t: 'd', id: 's2' });
    await journal.append({ t: 'i', id: 's1', item: notice('late', 'after the first compaction') });
    expect(await journal.compact()).toBe(true);
    expect(journal.liveBytes).toBe(journal.size); // stale offsets after the first remap would miscount here
    const expected: JournalState = emptyState();
    for (const line of fs.readFileSync(journal.file, 'utf8').split('\n').filter(Boolean))
      applyRecord(expected, JSON.parse(line) as JournalRecord);
    journal.close();
    const { journal: again, state } = await Journal.open(dir, OPTS);
    again.close();
    expect(items(state)).toEqual(items(expected));
    expect([...state.sessions.values()].map((x) => x.name).sort()).toEqual(['s0-b', 's1-b']);
    expect(Object.keys(items(state).s1 ?? {}).sort()).toEqual([
      'late',
      'm10',
      'm13',
      'm16',
      'm19',
      'm22',
      'm25',
      'm28',
      'm7',
    ]);
    expect([...(state.held.get('s0')?.keys() ?? [])].sort()).toEqual(['h0', 'h3']);
    expect(state.held.has('s2')).toBe(false);
  });
});

describe('message ids', () => {
  it('are version-4 UUIDs like randomUUID, flat, and all different across pool refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const id = randomId();
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(1000);
  });
});

describe('framing', () => {
  const env = (over: Partial<Envelope> = {}): Envelope => ({
    msgId: randomId(),
    fromAddress: 'uds:/tmp/a.sock',
    fromName: 'alice',
    fromSessionId: 'sid-a',
    fromClass: null,
    ownChild: false,
    summary: 's',
    body: 'hi',
    at: 1,
    ...over,
  });

  it('items of one sender share one frozen from; a renamed sender gets its own', () => {
    const a = frameMessage(env(), false);
    const b = frameMessage(env(), false);
    expect(b.from).toBe(a.from);
    expect(Object.isFrozen(a.from)).toBe(true);
    const renamed = frameMessage(env({ fromName: 'alice-2' }), false);
    expect(renamed.from).toEqual({ address: 'uds:/tmp/a.sock', name: 'alice-2', sessionId: 'sid-a' });
    expect(frameMessage(env({ fromSessionId: 'sid-b' }), false).from.sessionId).toBe('sid-b');
    expect(JSON.parse(JSON.stringify(a))).toMatchObject({
      from: { address: 'uds:/tmp/a.sock', name: 'alice', sessionId: 'sid-a' },
    });
  });

  it("the framed text from a sender's cached wrapper head is exactly wrapMessage, as the sender changes", () => {
    const bodies = ['hi', '', 'a </cross-session-message> inside', 'ünï 🎉\nlines', '</ cross-session-message'];
    const variants: Array<Partial<Envelope>> = [
      {},
      { fromName: 'alice "quoted" <x>' },
      { fromName: null },
      { fromClass: 'bypass' },
      { fromClass: null, fromAddress: 'uds:/tmp/b&c.sock' },
      {},
    ];
    for (const over of variants)
      for (const approved of [false, true, false])
        for (const body of bodies) {
          const e = env({ ...over, body });
          const attrs: WrapperAttrs = { from: e.fromAddress };
          if (e.fromName !== null) attrs.fromName = e.fromName;
          if (e.fromClass !== null) attrs.fromMode = e.fromClass;
          if (approved) attrs.approved = 'after-hold';
          expect(frameMessage(e, approved).text).toBe(wrapMessage(body, attrs));
        }
  });

  it('names and labels: the fast paths agree with the full rules', () => {
    for (const n of ['alice', 'a-b_c.d', '', 'Alice', ' bob ', 'ｆｕｌｌ', 'tab\there', 'zero\u200bwidth']) {
      const full = n
        .normalize('NFKC')
        .replace(/[\p{Cc}\p{Cf}]/gu, '')
        .trim()
        .toLowerCase()
        .replace(/\s+/g, '-');
      expect(normalizeName(n)).toBe(full);
    }
    expect(parseLabel('alice')).toBeUndefined();
    expect(parseLabel('alice [abc123]')).toEqual({ name: 'alice', ref: 'abc123' });
  });
});

describe('settings shared between sessions', () => {
  it('sessions with the same settings files share one effective object, resolved again when a file changes', () => {
    const root = tempDir();
    const store = new SettingsStore({
      managedPath: path.join(root, 'managed.json'),
      userPath: path.join(root, 'user.json'),
      logger: silentLogger,
    });
    const cwd = (n: string): string => {
      const d = path.join(root, n);
      fs.mkdirSync(d, { recursive: true });
      return d;
    };
    fs.mkdirSync(path.join(cwd('c'), '.switchboard'), { recursive: true });
    fs.writeFileSync(
      path.join(root, 'c', '.switchboard', 'settings.json'),
      JSON.stringify({ crossSessionInbound: 'refuse' }),
    );
    const a = store.effective(cwd('a'), emptyParsed(), 'sa');
    const b = store.effective(cwd('b'), store.parseFlag(null, 'b'), 'sb');
    const c = store.effective(path.join(root, 'c'), store.parseFlag(null, 'c'), 'sc');
    expect(store.effective(cwd('b'), store.parseFlag(null, 'b'), 'sb2'), 'no files: one shared object').toBe(b);
    expect(c, 'a project file makes its own').not.toBe(b);
    expect(c.inbound.floor?.value).toBe('refuse');
    expect(b.inbound.floor).toBeNull();
    expect(a).toEqual(b);
    fs.mkdirSync(path.join(root, 'b', '.switchboard'));
    fs.writeFileSync(
      path.join(root, 'b', '.switchboard', 'settings.json'),
      JSON.stringify({ crossSessionInbound: 'hold' }),
    );
    expect(store.poll(), 'the change is seen').toBe(true);
    expect(
      store.effective(path.join(root, 'b'), store.parseFlag(null, 'b'), 'sb').inbound.floor?.value,
      'b resolved again',
    ).toBe('hold');
    expect(store.effective(path.join(root, 'a'), emptyParsed(), 'sa').inbound.floor, 'a is unchanged').toBeNull();
  });
});
