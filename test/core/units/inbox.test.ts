// One inbox (core/delivery/inbox.ts) around the journal write: an item is
// not offered until written (a failed write abandons it and frees its id);
// once written a message is read back from the journal; receipts stay in
// memory.

import { describe, expect, it } from 'vitest';
import { Inbox } from '../../../core/delivery/inbox.js';
import type { InboxItem, InboxMessage } from '../../../core/protocol/results.js';

const from = Object.freeze({ address: 'sb:a', name: 'alice', sessionId: 's-a' });
const message = (id: string): InboxMessage => ({
  kind: 'message',
  id,
  from,
  summary: 's',
  text: `text of ${id}`,
  at: 1,
  approvedAfterHold: false,
});

function inbox(cap = 10): { box: Inbox; loads: string[] } {
  const loads: string[] = [];
  const box = new Inbox(cap, (id) => {
    loads.push(id);
    return { ...message(id), text: `read back ${id}` };
  });
  return { box, loads };
}

describe('inbox', () => {
  it('offers a message only once written, then reads it back', () => {
    const { box, loads } = inbox();
    const m = message('m1');
    expect(box.add(m)).toBe('added');
    expect(box.fetch(10), 'not durable yet: nobody is offered it').toEqual([]);
    expect(box.claim('m1')).toBe(false);
    expect(box.ack(['m1'])).toEqual([]);
    expect(box.add(m), 'its id is taken meanwhile').toBe('duplicate');
    box.written(m);
    expect(box.fetch(10)[0]!.text).toBe('read back m1');
    expect(loads).toEqual(['m1']);
    expect(box.sender('m1')).toBe(from);
    expect([...box.senders()]).toEqual([from]);
  });

  it('a write that failed abandons the item: never offered, its id free again', () => {
    const { box } = inbox();
    const m = message('m1');
    box.add(m);
    box.abandon(m);
    expect(box.fetch(10)).toEqual([]);
    expect(box.unreadMessages).toBe(0);
    expect(box.add(m)).toBe('added');
    box.written(m);
    expect(box.fetch(10).map((i) => i.id)).toEqual(['m1']);
  });

  it('keeps messages and receipts in one bounded inbox without duplicates', () => {
    const { box, loads } = inbox(3);
    const receipt: InboxItem = {
      kind: 'receipt',
      id: 'r1',
      origMsgId: 'm1',
      status: 'delivered',
      to: { name: 'bob', address: 'sb:b' },
      reason: 'handed to the agent',
      text: 'delivered',
      at: 2,
      count: 1,
    };
    expect(box.add(message('m1'))).toBe('added');
    expect(box.add(message('m1')), 'the same id again').toBe('duplicate');
    expect(box.add(receipt), 'a receipt takes a place like a message').toBe('added');
    expect(box.add(message('m2'))).toBe('added');
    expect(box.add(message('m3')), 'the cap (3) counts the receipt').toBe('full');
    expect(box.unreadMessages, 'unread counts messages only').toBe(2);
    box.written(receipt);
    expect(
      box.fetch(10).map((i) => i.id),
      'only what is written is offered',
    ).toEqual(['r1']);
    box.written(message('m1')); // another object with the same id: its header stays whole in memory
    box.written(message('m2'));
    expect(
      box.fetch(10, true).map((i) => i.id),
      'messages only',
    ).toEqual(['m1', 'm2']);
    expect(
      box.fetch(10).map((i) => i.id),
      'in the order they came',
    ).toEqual(['m1', 'r1', 'm2']);
    expect(box.sender('r1'), 'a receipt has no sender').toBeUndefined();
    expect(box.ack(['r1', 'm2', 'nope'])).toEqual([
      { kind: 'receipt', id: 'r1' },
      { kind: 'message', id: 'm2', from },
    ]);
    expect(box.unreadMessages).toBe(1);
    expect(loads, 'receipts stay in memory: nothing read back').toEqual([]);
  });
});
