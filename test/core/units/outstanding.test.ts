// Which relay receipts count (core/relay/outstanding.ts): only for a message
// we sent, from its sender, from the machine it went to; a final one ends
// the entry; entries end after OUTSTANDING_MS and past OUTSTANDING_MAX. A
// send the relay's store keeps is journaled with where, and is due after its time.
import { describe, expect, it } from 'vitest';
import { OUTSTANDING_MAX, OUTSTANDING_MS, OutstandingSends } from '../../../core/relay/outstanding.js';
import type { RelayReceipt } from '../../../core/protocol/relay-wire.js';
import type { RelayOutRecord } from '../../../core/journal/records.js';

const receipt = (over: Partial<RelayReceipt> = {}): RelayReceipt => ({
  v: 1,
  origMsgId: 'm1',
  senderSessionId: 'alice',
  status: 'held',
  reason: 'r',
  receiver: { machine: 'buildbox', sessionId: 'bob', name: 'bob' },
  ...over,
});

describe('OutstandingSends', () => {
  it('takes receipts of our sends only, until the final one', async () => {
    const o = new OutstandingSends(() => 0);
    await o.add('m1', 'alice', 'buildbox');
    expect(o.accept(receipt({ origMsgId: 'other' }))).toBe(false);
    expect(o.accept(receipt({ senderSessionId: 'mallory' }))).toBe(false);
    expect(o.accept(receipt({ receiver: { machine: 'evil', sessionId: 'bob', name: 'bob' } }))).toBe(false);
    expect(o.accept(receipt({ status: 'held' }))).toBe(true);
    expect(o.accept(receipt({ status: 'approved' }))).toBe(true);
    expect(o.accept(receipt({ status: 'delivered' }))).toBe(true);
    expect(o.accept(receipt({ status: 'delivered' }))).toBe(false); // final: nothing more comes
  });

  it('forgets a send that failed', async () => {
    const o = new OutstandingSends(() => 0);
    await o.add('m1', 'alice', 'buildbox');
    o.forget('m1');
    expect(o.accept(receipt())).toBe(false);
  });

  it('forgets a send past its time', async () => {
    const clock = { t: 0 };
    const o = new OutstandingSends(() => clock.t);
    await o.add('m1', 'alice', 'buildbox');
    clock.t += OUTSTANDING_MS;
    expect(o.accept(receipt())).toBe(false);
  });

  it('forgets the oldest send past the cap', async () => {
    const o = new OutstandingSends(() => 0);
    for (let i = 0; i <= OUTSTANDING_MAX; i++) await o.add(`n${i}`, 'alice', 'buildbox');
    expect(o.size).toBe(OUTSTANDING_MAX);
    expect(o.accept(receipt({ origMsgId: 'n0' }))).toBe(false);
    expect(o.accept(receipt({ origMsgId: `n${OUTSTANDING_MAX}` }))).toBe(true);
  });
});

describe('stored sends', () => {
  it('come back after a restart from the journal, and are due once past their time', async () => {
    const wall = { t: 1_000 };
    const journal: RelayOutRecord[] = [];
    const store = { added: (r: RelayOutRecord) => (journal.push(r), Promise.resolve()), ended: () => undefined };
    const o = new OutstandingSends(
      () => 0,
      () => wall.t,
      store,
    );
    await o.add('m1', 'alice', 'buildbox');
    await o.stored('m1', { seq: 7, expiresAt: 5_000, session: 'bob-id', to: 'bob on buildbox' });
    const again = new OutstandingSends(
      () => 0,
      () => wall.t,
      store,
    );
    again.restore([journal.at(-1)!]);
    expect(again.storedDue(100), 'restored, not due yet').toEqual([]);
    wall.t = 5_100;
    expect(
      again.storedDue(100).map((d) => [d.msgId, d.stored.seq]),
      'due past its time, with where the store keeps it',
    ).toEqual([['m1', 7]]);
    await again.stored('m1', undefined); // a hub took it: its receipt will come
    expect(again.storedDue(100), 'taken: no longer due').toEqual([]);
    expect(again.accept(receipt({ status: 'delivered' })), 'its receipt is still accepted').toBe(true);
  });
});
