// teams.show's inbox depths by file version (found by a red-team pass): the
// UI asks again on every teams.changed, and each time every inbox of the
// team was parsed again, up to 64 MiB each; 21 hard links to one 60 MiB file
// stalled the hub for seconds. Now an unchanged file (hard links included)
// is parsed once, concurrent askers share the reading, and a changed file is
// read again, never answered stale.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InboxCountCache } from '../../../core/teams/inbox-counts.js';
import { LOCK_DEFAULTS } from '../../../core/teams/lock.js';
import { Mailbox, newEntry, type ReadResult } from '../../../core/teams/mailbox.js';
import { tempDir } from '../../helpers/temp.js';

const LOCK = LOCK_DEFAULTS;

function counting(): { cache: InboxCountCache; reads: () => number } {
  let reads = 0;
  const peek = (m: Mailbox): Promise<ReadResult> => {
    reads++;
    return m.peek();
  };
  return { cache: new InboxCountCache(256, peek), reads: () => reads };
}

describe('inbox depths for teams.show', () => {
  it('three hard links to one inbox are read once, and again only after a change', async () => {
    const dir = tempDir('sb-counts-');
    const first = new Mailbox(path.join(dir, 'a.json'), LOCK);
    for (let i = 0; i < 3; i++) await first.append(newEntry({ from: 'lead', text: `t${i}` }));
    for (const name of ['b.json', 'c.json']) fs.linkSync(first.file, path.join(dir, name));
    const boxes = ['a.json', 'b.json', 'c.json'].map((n) => new Mailbox(path.join(dir, n), LOCK));
    const { cache, reads } = counting();
    const counts = await Promise.all(boxes.map((b) => cache.of(b)));
    expect(counts).toEqual([0, 1, 2].map(() => ({ depth: 3, unread: 3 })));
    expect(reads()).toBe(1);
    await cache.of(boxes[1]!);
    expect(reads()).toBe(1);
    await first.append(newEntry({ from: 'lead', text: 'fourth' })); // replaced: a.json is a new file
    expect(await cache.of(boxes[0]!)).toEqual({ depth: 4, unread: 4 });
    // Still the old file, read again once: losing a link changed its ctime.
    expect(await cache.of(boxes[2]!)).toEqual({ depth: 3, unread: 3 });
    expect(reads()).toBe(3);
    await Promise.all([cache.of(boxes[1]!), cache.of(boxes[2]!), cache.of(boxes[0]!)]);
    expect(reads()).toBe(3);
  });

  function inboxA() {
    const dir = tempDir('sb-counts-');
    return { box: new Mailbox(path.join(dir, 'a.json'), LOCK), cache: counting().cache };
  }

  it('a missing inbox counts as empty', async () => {
    const { box, cache } = inboxA();
    expect(await cache.of(box)).toEqual({ depth: 0, unread: 0 });
  });

  it('an inbox rewritten in place is read again', async () => {
    const { box, cache } = inboxA();
    await cache.of(box);
    fs.writeFileSync(box.file, JSON.stringify([newEntry({ from: 'x', text: 'y' })]));
    expect(await cache.of(box)).toEqual({ depth: 1, unread: 1 });
  });

  it('an inbox that is not valid JSON counts as empty, with its problem', async () => {
    const { box, cache } = inboxA();
    fs.writeFileSync(box.file, JSON.stringify([newEntry({ from: 'x', text: 'y' })]));
    await cache.of(box);
    fs.writeFileSync(box.file, '{not json');
    expect(await cache.of(box)).toEqual({ depth: 0, unread: 0, problem: 'not valid JSON' });
  });

  it('keeps at most max versions', async () => {
    const dir = tempDir('sb-counts-');
    let reads = 0;
    const cache = new InboxCountCache(2, (m) => (reads++, m.peek()));
    const boxes = ['a', 'b', 'c'].map((n) => new Mailbox(path.join(dir, `${n}.json`), LOCK));
    for (const b of boxes) fs.writeFileSync(b.file, '[]');
    for (const b of boxes) await cache.of(b);
    await cache.of(boxes[2]!);
    expect(reads).toBe(3);
    await cache.of(boxes[0]!); // evicted
    expect(reads).toBe(4);
  });
});
