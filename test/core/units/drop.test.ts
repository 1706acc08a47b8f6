// drop(): a promise nobody awaits has its failure logged under the name it
// was given, and nothing at all when it settles well.
import { describe, expect, it } from 'vitest';
import { drop } from '../../../core/kit/drop.js';

describe('drop', () => {
  it('logs a rejection with what was dropped, and nothing for a fulfilled promise', async () => {
    const told: Array<[string, Record<string, unknown>]> = [];
    const log = (m: string, f: Record<string, unknown>) => void told.push([m, f]);
    const failing = Promise.reject(new Error('disk gone'));
    drop(failing, 'journal compaction', log);
    drop(Promise.resolve(1), 'a scan', log);
    await failing.catch(() => undefined);
    await new Promise((r) => setImmediate(r));
    expect(told).toEqual([['journal compaction failed', { error: 'disk gone' }]]);
  });
});
