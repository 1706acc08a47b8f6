// One inbox (core/delivery/inbox.ts) around the journal write: a message is
// whole in memory until written, then read back; an acknowledgement in
// between is final; receipts stay in memory.

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
  it('hands over a message whole until it is written, then reads it back', () => {
    const { box, loads } = inbox();
    const m = message('m1');
    expect(box.add(m)).toBe('added');
    expect(box.fetch(10)).toEqual([m]);
    expect(loads).toEqual([]);
    box.written(m);
    expect(box.fetch(10)[0]!.text).toBe('read back m1');
    expect(loads).toEqual(['m1']);
    expect(box.sender('m1')).toBe(from);
    expect([...box.senders()]).toEqual([from]);
  });

  it('an acknowledgement before the write is final: the write does not bring the message back', () => {
    const { box } = inbox();
    const m = message('m1');
    box.add(m);
    expect(box.ack(['m1'])).toEqual([{ kind: 'message', id: 'm1', from }]);
    box.written(m);
    expect(box.fetch(10)).toEqual([]);
    expect(box.add(m)).toBe('added'); // the id is free again
    expect(box.fetch(10)).toEqual([m]);
  });

  it('counts, deduplicates and bounds messages and receipts alike; receipts stay in memory', () => {
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
    expect(box.add(message('m1'))).toBe('duplicate');
    expect(box.add(receipt)).toBe('added');
    expect(box.add(message('m2'))).toBe('added');
    expect(box.add(message('m3'))).toBe('full');
    expect(box.unreadMessages).toBe(2);
    box.written(receipt);
    expect(box.fetch(10, true).map((i) => i.id)).toEqual(['m1', 'm2']);
    expect(box.fetch(10).map((i) => i.id)).toEqual(['m1', 'r1', 'm2']);
    expect(box.sender('r1')).toBeUndefined();
    expect(box.ack(['r1', 'm2', 'nope'])).toEqual([
      { kind: 'receipt', id: 'r1' },
      { kind: 'message', id: 'm2', from },
    ]);
    expect(box.unreadMessages).toBe(1);
    expect(loads).toEqual([]);
  });
});
