// The journal's record lines (core/journal/record-line.ts): a queued
// message's line, built from its parts, is JSON.stringify's bytes; any other
// shape is JSON.stringify's own line, so nothing a record holds is lost.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { recordLine } from '../../../core/journal/record-line.js';
import { frameMessage } from '../../../core/delivery/enqueue.js';
import type { JournalRecord } from '../../../core/journal/records.js';

const text = fc.string({ unit: 'binary', maxLength: 200 }); // lone surrogates, quotes, controls, any code point

const message = fc.record({
  kind: fc.constant('message' as const),
  id: text,
  from: fc.record({ address: text, name: fc.option(text), sessionId: fc.option(text) }).map((f) => Object.freeze(f)),
  summary: fc.option(text),
  text,
  at: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
  approvedAfterHold: fc.boolean(),
});

describe('journal record lines', () => {
  it('writes a queued message as the bytes JSON.stringify gives', () => {
    fc.assert(
      fc.property(text, message, (id, item) => {
        const rec: JournalRecord = { t: 'i', id, item };
        expect(recordLine(rec)).toBe(JSON.stringify(rec));
      }),
      { numRuns: 3000 },
    );
  });

  it('writes a framed message as JSON.stringify does', () => {
    const item = frameMessage(
      {
        msgId: 'm-1',
        fromAddress: 'sb:a',
        fromName: 'ré "x"',
        fromSessionId: 's-1',
        fromClass: 'prompting',
        ownChild: false,
        summary: 'hi',
        body: 'a\n</cross-session-message> "b" \u2028',
        at: 1764640000123,
      },
      true,
    );
    const rec: JournalRecord = { t: 'i', id: 's-2', item };
    expect(recordLine(rec)).toBe(JSON.stringify(rec));
  });

  it('writes what JSON.stringify would for a shape it does not cache', () => {
    fc.assert(
      fc.property(text, message, fc.boolean(), (id, item, reversed) => {
        const shuffled = Object.fromEntries(reversed ? Object.entries(item).reverse() : Object.entries(item));
        const rec = { t: 'i', id, item: shuffled } as unknown as JournalRecord;
        expect(JSON.parse(recordLine(rec)), 'any key order').toEqual(JSON.parse(JSON.stringify(rec)));
      }),
    );
    const item = { kind: 'message', id: 'm', from: { address: 'a', name: null, sessionId: null } } as const;
    const full = { ...item, summary: null, text: 't', at: 1, approvedAfterHold: false };
    const extra = { t: 'i', id: 's', item: { ...full, note: 'kept' } } as unknown as JournalRecord;
    expect(recordLine(extra), 'an extra key').toBe(JSON.stringify(extra));
    const open = { t: 'i', id: 's', item: full } as JournalRecord; // `from` not frozen: never cached
    expect(recordLine(open), 'a sender that is not frozen').toBe(JSON.stringify(open));
    (full.from as { name: string | null }).name = 'changed';
    expect(recordLine(open), 'its change is written').toContain('"name":"changed"');
    const badAt = { t: 'i', id: 's', item: { ...full, at: Number.NaN } } as JournalRecord;
    expect(recordLine(badAt), 'an at that is not a number').toBe(JSON.stringify(badAt));
    const ack: JournalRecord = { t: 'a', id: 's', ids: ['x', 'y'] };
    expect(recordLine(ack), 'not a message').toBe(JSON.stringify(ack));
  });
});
