// What the relay keeps across faults, on fake stores: outstanding sends come
// back from the journal within their time (the expired ones end), and
// waiting receipts go out in order per machine, one that is away holding
// back only its own machine's later receipts.
import { describe, expect, it } from 'vitest';
import { OutstandingSends } from '../../../core/relay/outstanding.js';
import { PendingReceipts } from '../../../core/relay/pending-receipts.js';
import type { RelayReceipt } from '../../../core/protocol/relay-wire.js';

const receipt = (origMsgId: string, machine: string): RelayReceipt => ({
  v: 1,
  origMsgId,
  senderSessionId: 'alice',
  status: 'delivered',
  reason: '',
  receiver: { machine, sessionId: 'bob', name: 'bob' },
});

describe('OutstandingSends.restore', () => {
  it('brings back the sends still within their time; the expired ones end in the store', () => {
    const ended: string[] = [];
    const out = new OutstandingSends(
      () => 0,
      () => 10_000,
      { added: () => Promise.resolve(), ended: (ids) => void ended.push(...ids) },
    );
    out.restore([
      { msgId: 'live', senderId: 'alice', machine: 'far', untilAt: 20_000 },
      { msgId: 'old', senderId: 'alice', machine: 'far', untilAt: 9_000 },
    ]);
    expect(ended).toEqual(['old']);
    expect(out.accept(receipt('old', 'far'))).toBe(false);
    expect(out.accept(receipt('live', 'far'))).toBe(true);
    expect(ended).toEqual(['old', 'live']); // delivered is final: its entry ends
  });
});

describe('PendingReceipts.flush', () => {
  it("receipts for a machine that is away wait in order without holding back the others'", async () => {
    const ended: string[] = [];
    const added: string[] = [];
    const pending = new PendingReceipts({
      added: (rr) => void added.push(rr.id),
      ended: (ids) => void ended.push(...ids),
      gaveUp: () => undefined,
    });
    pending.add('away', receipt('a1', 'x'));
    pending.add('here', receipt('h1', 'x'));
    pending.add('away', receipt('a2', 'x'));
    pending.add('here', receipt('h2', 'x'));
    const tried: string[] = [];
    await pending.flush(async (machine, r) => (tried.push(r.origMsgId), machine === 'here'));
    expect(tried, 'a2 waits behind a1; the others go').toEqual(['a1', 'h1', 'h2']);
    expect(ended, 'the sent ones end').toEqual([added[1], added[3]]);
    tried.length = 0;
    await pending.flush(async (_m, r) => (tried.push(r.origMsgId), true));
    expect(tried, 'back: in order').toEqual(['a1', 'a2']);
    expect(pending.size).toBe(0);
  });
});
