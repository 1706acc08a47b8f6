// Receipt texts, and the receipts module's fan-out on fake ports (no hub):
// the sender's inbox, a relay receipt, a Claude Code status line to a real
// socket in a temp directory.
import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { receiptText, sendNote } from '../../../core/receipts/texts.js';
import { udsAddress } from '../../../core/protocol/cc-wire.js';
import { RECEIPT_STATUSES, type InboxReceipt } from '../../../core/protocol/methods.js';
import { label } from '../../../core/registry/names.js';
import { fakePeer, type FakePeer } from '../../helpers/peer.js';
import { until } from '../../helpers/hub.js';
import { tempDir } from '../../helpers/temp.js';
import { admissionHarness, session, settle } from './fakes.js';

const PREFIX = '[Cross-session delivery notice] Your message to bob [a1]';
const SENTENCE: Record<(typeof RECEIPT_STATUSES)[number], string> = {
  held: " was held for its user's approval. Not delivered yet; do not wait for a reply.",
  delivered: ' was handed to its agent. That is not a reply.',
  approved: ' was approved by its user and is in its inbox; not read yet (a delivered notice follows).',
  denied: ' was denied by its user and not delivered. Do not resend it.',
  refused: ' was refused by its inbound policy and not delivered.',
  expired: " expired without its user's approval and was not delivered.",
  dropped: ' was dropped and not delivered.',
  undelivered: ' will not be read: that session ended and cannot resume. Do not wait for a reply.',
  waiting:
    ' is in its inbox, but that session is idle and cannot be woken; its user has been told. It reads it at its next turn. That is not a reply.',
  kept: ' is kept unread: its agent exited, and the message is handed over only if that conversation is resumed (you are then told it was delivered, else undelivered). Do not wait for a reply.',
};

const NO_REASON = new Set(['delivered', 'approved']);

describe('receiptText', () => {
  it.each(RECEIPT_STATUSES)('"%s" says what happened, with the count and the reason when given', (status) => {
    expect(receiptText(status, 'bob [a1]', null)).toBe(PREFIX + SENTENCE[status]);
    expect(receiptText(status, 'bob [a1]', '', 1)).toBe(PREFIX + SENTENCE[status]);
    const why = NO_REASON.has(status) ? '' : ' Reason: queue-full.'; // an accepted message needs no reason
    expect(receiptText(status, 'bob [a1]', 'queue-full', 3)).toBe(`${PREFIX} (3 messages)${SENTENCE[status]}${why}`);
  });

  it('gives every status its own text; only "denied" says denied', () => {
    const texts = RECEIPT_STATUSES.map((s) => receiptText(s, 'x', null));
    expect(new Set(texts).size).toBe(RECEIPT_STATUSES.length);
    expect(RECEIPT_STATUSES.filter((s) => /denied/.test(receiptText(s, 'x', 'r')))).toEqual(['denied']);
    // an approval only queues the message: only the ack's receipt may say the agent has it
    expect(RECEIPT_STATUSES.filter((s) => /handed to its agent/.test(receiptText(s, 'x', 'r')))).toEqual(['delivered']);
  });

  it('send notes never claim delivery for a socket write', () => {
    expect(sendNote('sent', 'bob [a1]')).toBe(
      "Written to bob [a1]'s socket. Whether its session accepts it is not known yet.",
    );
    expect(sendNote('dropped', 'bob', 'duplicate')).toBe('Dropped (duplicate). Nothing was delivered.');
  });
});

describe('receipts.tell: a session of ours', () => {
  it('puts exactly one receipt in the sender inbox, journaled, naming the receiver by label', async () => {
    const h = admissionHarness();
    const sender = session('alice');
    const receiver = session('bob');
    h.table.add(sender);
    h.table.add(receiver);
    h.clock.advance(42);
    h.receipts.tell(
      { msgId: 'orig', fromAddress: sender.address, fromSessionId: sender.id },
      receiver,
      'expired',
      'too slow',
    );
    await settle(); // offered once journaled
    const items = h.mailboxes.fetch(sender.id, 10);
    expect(items).toHaveLength(1);
    const r = items[0] as InboxReceipt;
    const shown = label('bob', h.table.refOf(receiver.id));
    expect(r).toMatchObject({
      kind: 'receipt',
      origMsgId: 'orig',
      status: 'expired',
      reason: 'too slow',
      count: 1,
      at: h.clock.now(),
      to: { name: 'bob', address: receiver.address },
    });
    expect(r.text).toBe(receiptText('expired', shown, 'too slow'));
    expect(h.journal.records).toEqual([{ t: 'i', id: sender.id, item: r }]);
    expect(h.mailboxes.depth(receiver.id)).toBe(0);
    expect(h.remoteReceipts).toEqual([]);
    expect(h.activity).toMatchObject([
      { kind: 'receipt', status: 'expired', sender: sender.address, receiver: 'bob', msgId: 'orig' },
    ]);
  });

  /** sleeper sent to bob and is now dormant. */
  function dormantSender() {
    const h = admissionHarness();
    const sleeper = session('sleeper');
    const receiver = session('bob');
    h.table.add(sleeper);
    h.table.add(receiver);
    h.table.retire(sleeper.id, 0);
    return { h, sleeper, receiver };
  }

  it('reaches a dormant sender', () => {
    const { h, sleeper, receiver } = dormantSender();
    h.receipts.tell({ msgId: 'a', fromAddress: sleeper.address, fromSessionId: sleeper.id }, receiver, 'held', 'r');
    expect(h.mailboxes.depth(sleeper.id)).toBe(1);
  });

  it('a sender that is gone gets nothing, and nothing is journaled', () => {
    const { h, sleeper, receiver } = dormantSender();
    h.receipts.tell({ msgId: 'a', fromAddress: sleeper.address, fromSessionId: sleeper.id }, receiver, 'held', 'r');
    h.table.dormant.delete(sleeper.id);
    h.receipts.tell({ msgId: 'b', fromAddress: sleeper.address, fromSessionId: sleeper.id }, receiver, 'denied', 'r');
    expect(h.mailboxes.depth(sleeper.id), 'only the receipt from before').toBe(1);
    expect(h.journal.records, 'only the receipt from before').toHaveLength(1);
  });
});

describe('receipts.tell: other machines and socket writers', () => {
  let peers: FakePeer[] = [];
  afterEach(async () => {
    for (const p of peers) await p.close();
    peers = [];
  });

  it('routes a peer: sender to remote.sendReceipt and stores nothing', () => {
    const h = admissionHarness();
    const receiver = session('bob');
    h.table.add(receiver);
    h.receipts.tell(
      { msgId: 'p1', fromAddress: 'peer:laptop/abc', fromSessionId: null },
      receiver,
      'approved',
      'approved by its user',
    );
    expect(h.remoteReceipts).toEqual([
      {
        msgId: 'p1',
        fromAddress: 'peer:laptop/abc',
        receiverId: receiver.id,
        status: 'approved',
        reason: 'approved by its user',
      },
    ]);
    expect(h.journal.records).toEqual([]);
  });

  /** bob, and a socket writer in bob's directory. */
  async function writerBeside() {
    const dir = tempDir('sb-units-');
    const h = admissionHarness();
    const receiver = session('bob', {}, dir);
    const writer = await fakePeer(path.join(dir, 'writer.sock'));
    peers.push(writer);
    return { h, receiver, writer };
  }

  it('writes a status line, and journals nothing, for a writer beside the receiver', async () => {
    const { h, receiver, writer } = await writerBeside();
    h.receipts.tell(
      { msgId: 'w1', fromAddress: udsAddress(writer.path), fromSessionId: null },
      receiver,
      'held',
      'parity',
    );
    await until(() => writer.lines.length === 1);
    expect(writer.lines[0]).toMatchObject({
      type: 'control',
      action: 'peer_message_status',
      status: 'held',
      reason: 'parity',
      from: receiver.address,
    });
    expect(h.journal.records).toEqual([]);
  });

  it('tells a writer "undelivered" as dropped, with the count', async () => {
    const { h, receiver, writer } = await writerBeside();
    h.receipts.tell(
      { msgId: 'w2', fromAddress: udsAddress(writer.path), fromSessionId: null },
      receiver,
      'undelivered',
      'ended',
      4,
    );
    await until(() => writer.lines.length === 1);
    expect(writer.lines[0]).toMatchObject({
      orig_msg_id: 'w2',
      status: 'dropped',
      reason: 'ended (4 messages)',
      from: receiver.address,
    });
  });

  it('answers from the reply socket (statusVia) to a writer beside it, and never to one outside that directory', async () => {
    const near = tempDir('sb-units-');
    const far = tempDir('sb-units-');
    const h = admissionHarness();
    const receiver = session('bob', {}, far); // its own socket is elsewhere
    const writer = await fakePeer(path.join(near, 'cc.sock'));
    peers.push(writer);
    const via = { socketPath: path.join(near, 'reply.sock'), address: udsAddress(path.join(near, 'reply.sock')) };
    h.receipts.tell(
      { msgId: 'no-via', fromAddress: udsAddress(writer.path), fromSessionId: null },
      receiver,
      'refused',
      'r',
    );
    h.receipts.tell(
      { msgId: 'approved', fromAddress: udsAddress(writer.path), fromSessionId: null, statusVia: via },
      receiver,
      'approved',
      'r',
    );
    h.receipts.tell(
      { msgId: 'via', fromAddress: udsAddress(writer.path), fromSessionId: null, statusVia: via },
      receiver,
      'denied',
      'no',
    );
    // The wrong reports would be told first, on connections this process opened and wrote to before the right
    // one: by the time the last report is read, any earlier one has been read too.
    await until(() => writer.lines.some((l) => l.orig_msg_id === 'via'));
    // Claude Code's wire has no "approved"; the writer outside the receiver's directory hears nothing without statusVia.
    expect(writer.lines).toMatchObject([{ status: 'denied', orig_msg_id: 'via', from: via.address, reason: 'no' }]);
  });
});
