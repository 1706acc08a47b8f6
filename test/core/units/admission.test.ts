// Admission built on fake ports (no hub): throttle, policy, pause, the held
// queue and its decisions, and the shared budget of unverified writers.
import { describe, expect, it } from 'vitest';
import { enqueue } from '../../../core/delivery/enqueue.js';
import type { Envelope } from '../../../core/delivery/envelope.js';
import { WRITER_HELD_CAP } from '../../../core/policy/writers.js';
import type { InboxItem, InboxReceipt } from '../../../core/protocol/methods.js';
import { senderClass, type SessionRecord } from '../../../core/registry/session.js';
import { THROTTLE_DEFAULTS } from '../../../core/settings/effective.js';
import { admissionHarness, effectiveWith, session, settle, type AdmissionHarness } from './fakes.js';

function fromSession(s: SessionRecord, body: string, msgId = `m-${body}`): Envelope {
  return {
    msgId,
    fromAddress: s.address,
    fromName: s.name,
    fromSessionId: s.id,
    fromClass: senderClass(s),
    ownChild: false,
    summary: 's',
    body,
    at: 0,
  };
}

function fromWriter(address: string, body: string, msgId = `w-${address}-${body}`): Envelope {
  return {
    msgId,
    fromAddress: address,
    fromName: null,
    fromSessionId: null,
    fromClass: null,
    ownChild: false,
    summary: null,
    body,
    at: 0,
  };
}

const receipts = (h: AdmissionHarness, s: SessionRecord): InboxReceipt[] =>
  h.mailboxes.fetch(s.id, 1000).filter((i: InboxItem): i is InboxReceipt => i.kind === 'receipt');
const messages = (h: AdmissionHarness, s: SessionRecord): InboxItem[] =>
  h.mailboxes.fetch(s.id, 1000).filter((i) => i.kind === 'message');

/** A harness with a prompting sender and a receiver of the given mode, both live. */
function pair(
  receiverMode: SessionRecord['permissionMode'] = 'default',
  inbound: Parameters<typeof admissionHarness>[0] = {},
) {
  const h = admissionHarness(inbound);
  const sender = session('sender');
  const receiver = session('receiver', { permissionMode: receiverMode });
  h.table.add(sender);
  h.table.add(receiver);
  return { h, sender, receiver };
}

describe('admission: throttle', () => {
  /** "same" sent as a (queued), then again as b (a duplicate). */
  async function repeated() {
    const { h, sender, receiver } = pair();
    const first = await h.admission.route(fromSession(sender, 'same', 'a'), receiver);
    const repeat = await h.admission.route(fromSession(sender, 'same', 'b'), receiver);
    await settle(); // a receipt is offered once it is journaled
    return { h, sender, receiver, first, repeat };
  }

  it('drops a repeat as a duplicate and tells the sender at once', async () => {
    const { h, sender, receiver, first, repeat } = await repeated();
    expect(first).toEqual({ status: 'queued' });
    expect(h.pokes).toEqual([receiver.id]);
    expect(repeat).toEqual({
      status: 'dropped',
      reason: 'duplicate',
    });
    expect(receipts(h, sender)).toMatchObject([{ status: 'dropped', origMsgId: 'b', count: 1, reason: 'duplicate' }]);
    expect(receipts(h, sender)[0]!.text).toContain('was dropped and not delivered. Reason: duplicate.');
  });

  it('folds the drops that follow into one receipt with their count, after the window', async () => {
    const { h, sender, receiver } = await repeated();
    expect(await h.admission.route(fromSession(sender, 'same', 'c'), receiver)).toMatchObject({ status: 'dropped' });
    expect(await h.admission.route(fromSession(sender, 'same', 'd'), receiver)).toMatchObject({ status: 'dropped' });
    expect(receipts(h, sender), 'folded, not one receipt per drop').toHaveLength(1);
    h.admission.flushDrops();
    expect(receipts(h, sender), 'the window has not passed').toHaveLength(1);
    h.clock.advance(THROTTLE_DEFAULTS.foldWindowMs);
    h.admission.flushDrops();
    await settle();
    const folded = receipts(h, sender)[1]!;
    expect(folded).toMatchObject({ status: 'dropped', count: 2, reason: 'duplicate' });
    expect(folded.text).toContain('(2 messages)');
    expect(messages(h, receiver)).toHaveLength(1);
    expect(h.pokes, 'nothing dropped wakes the receiver').toEqual([receiver.id]);
  });
});

describe('admission: held messages', () => {
  describe('a message the policy holds', () => {
    async function held() {
      const { h, sender, receiver } = pair('default', { inbound: 'hold' });
      const r = await h.admission.route(fromSession(sender, 'please', 'm1'), receiver);
      return { h, sender, receiver, r };
    }

    it("is answered held, with the policy's reason", async () => {
      const { r } = await held();
      expect(r).toEqual({ status: 'held', reason: 'crossSessionInbound is "hold" in user settings' });
    });

    it('is journaled as an h record', async () => {
      const { h, receiver } = await held();
      expect(h.journal.records.filter((x) => x.t === 'h')).toMatchObject([
        { t: 'h', id: receiver.id, held: { id: 'm1', env: { body: 'please' } } },
      ]);
    });

    it('raises the held count the UI shows', async () => {
      const { h } = await held();
      expect(h.events).toEqual([{ type: 'held.changed', count: 1 }]);
    });

    it('earns the sender a held receipt', async () => {
      const { h, sender } = await held();
      expect(receipts(h, sender)).toMatchObject([{ status: 'held', origMsgId: 'm1' }]);
    });

    it('is neither queued nor wakes the receiver', async () => {
      const { h, receiver } = await held();
      expect(messages(h, receiver)).toEqual([]);
      expect(h.pokes).toEqual([]);
    });
  });

  describe('approving a held message', () => {
    async function approved() {
      const { h, sender, receiver } = pair('default', { inbound: 'hold' });
      await h.admission.route(fromSession(sender, 'please', 'm1'), receiver);
      const before = h.journal.records.length;
      const result = await h.admission.approve('m1');
      return { h, sender, receiver, result, after: h.journal.records.slice(before) };
    }

    it('journals hx, then queues it marked approved after hold', async () => {
      const { h, receiver, result, after } = await approved();
      expect(result).toEqual({ status: 'queued' });
      expect(after[0]).toEqual({ t: 'hx', id: receiver.id, ids: ['m1'] });
      expect(after[1]).toMatchObject({
        t: 'i',
        id: receiver.id,
        item: { kind: 'message', id: 'm1', approvedAfterHold: true },
      });
      expect(messages(h, receiver)).toMatchObject([{ id: 'm1', approvedAfterHold: true }]);
    });

    it('earns the sender an approved receipt after its held one', async () => {
      const { h, sender } = await approved();
      expect(receipts(h, sender).map((x) => x.status)).toEqual(['held', 'approved']);
    });

    it('wakes the receiver', async () => {
      const { h, receiver } = await approved();
      expect(h.pokes).toEqual([receiver.id]);
    });

    it('lowers the held count the UI shows', async () => {
      const { h } = await approved();
      expect(h.events.at(-1)).toEqual({ type: 'held.changed', count: 0 });
    });

    it('is done once: a second approval finds nothing', async () => {
      const { h } = await approved();
      await expect(h.admission.approve('m1')).rejects.toMatchObject({ name: 'HubError', reason: 'item_not_found' });
    });
  });

  it('an approved message that cannot be queued (its id already in the inbox) earns "dropped", not silence', async () => {
    const { h, sender, receiver } = pair('default', { inbound: 'hold' });
    const held = fromSession(sender, 'please', 'm1');
    await h.admission.route(held, receiver);
    await enqueue(h.mailboxes, receiver.id, held); // the same msg_id reached the inbox another way meanwhile
    expect(await h.admission.approve('m1')).toEqual({ status: 'dropped' });
    expect(receipts(h, sender).map((x) => [x.status, x.reason])).toEqual([
      ['held', 'crossSessionInbound is "hold" in user settings'],
      ['dropped', 'duplicate'],
    ]);
    expect(h.pokes).toEqual([]);
  });

  it('a held message the policy releases but cannot queue earns "dropped" too', async () => {
    const { h, sender, receiver } = pair('default', { inbound: 'hold' });
    const held = fromSession(sender, 'please', 'm1');
    await h.admission.route(held, receiver);
    await enqueue(h.mailboxes, receiver.id, held);
    h.settings.eff = effectiveWith('accept');
    await h.admission.reevaluate(receiver);
    expect(receipts(h, sender).map((x) => x.status)).toEqual(['held', 'dropped']);
    expect(h.admission.held.size).toBe(0);
  });

  it('deny journals hx and sends "denied"; nothing reaches the receiver', async () => {
    const { h, sender, receiver } = pair('default', { inbound: 'hold' });
    await h.admission.route(fromSession(sender, 'no', 'm2'), receiver);
    await h.admission.deny('m2');
    expect(h.journal.records.at(-2)).toEqual({ t: 'hx', id: receiver.id, ids: ['m2'] });
    const denied = receipts(h, sender)[1]!;
    expect(denied).toMatchObject({ status: 'denied', origMsgId: 'm2', reason: 'its user denied it' });
    expect(denied.text).toContain('was denied by its user and not delivered');
    expect(messages(h, receiver)).toEqual([]);
    expect(h.admission.held.size).toBe(0);
    expect(h.pokes).toEqual([]);
  });
});

describe('admission: refusals', () => {
  it('while paused, a message is refused with the pause reason and nothing is kept', async () => {
    const { h, sender, receiver } = pair();
    h.admission.paused = true;
    expect(await h.admission.route(fromSession(sender, 'hi'), receiver)).toEqual({
      status: 'refused',
      reason: 'paused by its user',
    });
    expect(h.journal.records, 'nothing journaled').toEqual([]);
    expect(h.mailboxes.fetch(receiver.id, 10), 'nothing queued').toEqual([]);
    expect(receipts(h, sender), 'no receipt: the answer is the refusal').toEqual([]);
    expect(h.activity, 'the decision is in the activity log').toMatchObject([
      { kind: 'decision', status: 'refuse', reason: 'paused by its user' },
    ]);
  });

  it('a policy refusal is "refused", never "denied", also when a held message is re-evaluated', async () => {
    const { h, sender, receiver } = pair('default', { inbound: 'refuse' });
    expect(await h.admission.route(fromSession(sender, 'one', 'r1'), receiver)).toEqual({
      status: 'refused',
      reason: 'crossSessionInbound is "refuse" in user settings',
    });
    h.settings.eff = effectiveWith('hold');
    await h.admission.route(fromSession(sender, 'two', 'r2'), receiver);
    h.settings.eff = effectiveWith('refuse');
    await h.admission.reevaluate(receiver);
    const got = receipts(h, sender);
    expect(got.map((x) => x.status)).toEqual(['held', 'refused']);
    expect(got[1]!.text).toContain('was refused by its inbound policy');
    expect(got.some((x) => x.status === 'denied' || /denied/.test(x.text))).toBe(false);
    expect(h.activity.some((a) => a.status === 'denied')).toBe(false);
    expect(h.admission.held.size).toBe(0);
  });
});

describe('admission: unverified writers share one budget per receiver', () => {
  const tight = effectiveWith(null, {
    throttle: { value: { ...THROTTLE_DEFAULTS, bucketSize: 2, refillPerSecond: 0 }, source: 'user' },
  });

  it('two invented senders draw on one bucket; two verified senders each have their own', async () => {
    const { h, sender, receiver } = pair();
    h.settings.eff = tight;
    const other = session('other');
    h.table.add(other);
    expect((await h.admission.route(fromWriter('uds:/w/a.sock', 'a1'), receiver)).status).toBe('queued');
    expect((await h.admission.route(fromWriter('uds:/w/a.sock', 'a2'), receiver)).status).toBe('queued');
    expect(await h.admission.route(fromWriter('uds:/w/b.sock', 'b1'), receiver)).toEqual({
      status: 'dropped',
      reason: 'rate-limited',
    });
    // Verified senders are not charged to the writers' bucket, nor to each other's.
    for (const s of [sender, other]) {
      expect((await h.admission.route(fromSession(s, `${s.name}-1`), receiver)).status).toBe('queued');
      expect((await h.admission.route(fromSession(s, `${s.name}-2`), receiver)).status).toBe('queued');
      expect((await h.admission.route(fromSession(s, `${s.name}-3`), receiver)).status).toBe('dropped');
    }
  });

  it('writers together keep at most half of the held queue; a verified sender is still held after it is full', async () => {
    const { h, receiver } = pair('bypassPermissions');
    h.settings.eff = effectiveWith(null, {
      throttle: { value: { ...THROTTLE_DEFAULTS, bucketSize: 1000 }, source: 'user' },
    });
    for (let i = 0; i < WRITER_HELD_CAP; i++) {
      expect((await h.admission.route(fromWriter(`uds:/w/${i}.sock`, `x${i}`), receiver)).status).toBe('held');
    }
    expect(await h.admission.route(fromWriter('uds:/w/late.sock', 'late'), receiver)).toEqual({
      status: 'dropped',
      reason: 'queue-full',
    });
    const verified = session('verified');
    h.table.add(verified);
    expect((await h.admission.route(fromSession(verified, 'v'), receiver)).status).toBe('held');
    expect(h.admission.held.size).toBe(WRITER_HELD_CAP + 1);
  });
});

describe('admission: a journal write that fails leaves no trace', () => {
  it('a message whose inbox record could not be written is never in the inbox (and cannot be read or acknowledged)', async () => {
    const { h, sender, receiver } = pair();
    h.journal.failWhen = (r) => r.t === 'i' && r.item.kind === 'message';
    await expect(h.admission.route(fromSession(sender, 'lost to a full disk'), receiver)).rejects.toThrow('disk full');
    expect(messages(h, receiver)).toEqual([]);
    expect(h.mailboxes.depth(receiver.id)).toBe(0);
    h.journal.failWhen = () => false;
    // Its id is free again: the sender may send it once more (same msg_id), and then it is there.
    const again = fromSession(sender, 'sent again once there was room', 'm-lost to a full disk');
    expect(await h.admission.route(again, receiver)).toEqual({ status: 'queued' });
    expect(messages(h, receiver)).toHaveLength(1);
  });

  it('a held message whose record could not be written is never listed for approval', async () => {
    const { h, sender, receiver } = pair('bypassPermissions');
    h.journal.failWhen = (r) => r.t === 'h';
    await expect(h.admission.route(fromSession(sender, 'hold me'), receiver)).rejects.toThrow('disk full');
    expect(h.admission.held.all()).toEqual([]);
  });

  it('an item is not offered while its record is being written', async () => {
    const { h, sender, receiver } = pair();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const append = h.journal.append.bind(h.journal);
    h.journal.append = async (r) => {
      if (r.t === 'i') await gate;
      return append(r);
    };
    const routed = h.admission.route(fromSession(sender, 'in flight'), receiver);
    await new Promise((r) => setImmediate(r));
    expect(messages(h, receiver), 'not yet durable: not offered').toEqual([]);
    release();
    expect(await routed).toEqual({ status: 'queued' });
    expect(messages(h, receiver)).toHaveLength(1);
  });
});
