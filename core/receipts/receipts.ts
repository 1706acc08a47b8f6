// Every receipt a sender gets is built and routed here, and nowhere else. A
// receipt says what became of one message — held, delivered, approved,
// denied, refused, expired, dropped, waiting, undelivered, each distinct —
// and goes where its sender can hear it:
// - one of our sessions (live or dormant): a receipt item in its inbox;
// - a sender on another machine (a `peer:` address): the relay;
// - anyone else wrote to a session's socket: a peer_message_status line back
//   to its socket, when that socket sits beside the receiver's (Claude Code's
//   wire; it has no `approved` or `waiting`, and `undelivered` is `dropped`).
// Each receipt, each policy decision and each socket write whose fate is not
// known yet (`sent`) is also one line of the activity log. The texts an
// agent reads are receipts/texts.ts. Callers name ReceiptPort, not the class.

import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { PEER_STATUSES, peerStatusLine, socketPathOf, type PeerStatus } from '../protocol/cc-wire.js';
import type { InboxReceipt, ReceiptStatus } from '../protocol/methods.js';
import type { Limits } from '../protocol/limits.js';
import { label } from '../registry/names.js';
import type { PersistedSession } from '../registry/session.js';
import type { SessionTable } from '../registry/table.js';
import type { Envelope } from '../delivery/envelope.js';
import type { Mailboxes } from '../delivery/mailboxes.js';
import type { ActivitySink } from '../delivery/ports.js';
import type { Clock } from '../kit/clock.js';
import type { Logger } from '../kit/logger.js';
import { writeLinesQuietly } from '../transport/outbound.js';
import { receiptText } from './texts.js';

/** The message a receipt is about, and where its sender can be reached. */
export type ReceiptOrigin = Pick<Envelope, 'msgId' | 'fromAddress' | 'fromSessionId' | 'statusVia'> & {
  fromName?: string | null;
};

/** The receiver as a receipt names it. */
export type ReceiptReceiver = Pick<PersistedSession, 'id' | 'name' | 'address' | 'socketPath'>;

/** Receipts for senders on other machines (relay/remote-machines.ts). */
export interface RemoteReceipts {
  sendReceipt(
    origin: Pick<Envelope, 'msgId' | 'fromAddress'>,
    receiver: { id: string; name: string },
    status: ReceiptStatus,
    reason: string,
  ): void;
}

/** What building and routing receipts needs from the hub. */
export interface ReceiptPorts extends ActivitySink {
  readonly table: Pick<SessionTable, 'live' | 'dormant' | 'refOf'>;
  readonly mailboxes: Pick<Mailboxes, 'put'>;
  readonly clock: Clock;
  readonly log: Logger;
  readonly limits: Limits;
  readonly remote: RemoteReceipts;
}

/** Receipts as every other module sees them. */
export interface ReceiptPort {
  /** Tells the sender what became of its message (and logs it). */
  tell(origin: ReceiptOrigin, receiver: ReceiptReceiver, status: ReceiptStatus, reason: string, count?: number): void;
  /**
   * Answers a socket writer whose message was refused at admission (our sessions and relay peers read a refusal
   * in their send's own answer, so they get no receipt for it). Not logged: the decision was.
   */
  answerWriter(origin: ReceiptOrigin, receiver: ReceiptReceiver, status: PeerStatus, reason: string): void;
  /** Logs a policy decision for a message (deliver, hold, refuse). */
  decided(origin: ReceiptOrigin, receiver: ReceiptReceiver, action: string, reason: string): void;
  /** Logs a write to a Claude Code session's own socket: sent, its fate not known yet. */
  sent(msgId: string, sender: string, receiver: string, reason: string): void;
}

/** The socket a status line for `fromAddress` may go to: a socket in the answering socket's own directory. */
function replySocket(fromAddress: string, answering: Pick<PersistedSession, 'socketPath'>): string | undefined {
  const target = socketPathOf(fromAddress);
  if (target === undefined || !target.endsWith('.sock')) return undefined;
  return path.dirname(target) === path.dirname(answering.socketPath) ? target : undefined;
}

export class Receipts implements ReceiptPort {
  readonly #hub: ReceiptPorts;

  constructor(hub: ReceiptPorts) {
    this.#hub = hub;
  }

  tell(origin: ReceiptOrigin, receiver: ReceiptReceiver, status: ReceiptStatus, reason: string, count = 1): void {
    this.#log('receipt', status, origin, receiver.name, reason);
    if (origin.fromSessionId !== null) this.#toInbox(origin.fromSessionId, origin, receiver, status, reason, count);
    else if (origin.fromAddress.startsWith('peer:')) this.#hub.remote.sendReceipt(origin, receiver, status, reason);
    else {
      // Claude Code's wire has no `undelivered`: a socket writer hears `dropped`, with the reason.
      const peer = status === 'undelivered' ? 'dropped' : status;
      if ((PEER_STATUSES as readonly string[]).includes(peer))
        this.#toSocket(origin, receiver, peer as PeerStatus, count > 1 ? `${reason} (${count} messages)` : reason);
    }
  }

  answerWriter(origin: ReceiptOrigin, receiver: ReceiptReceiver, status: PeerStatus, reason: string): void {
    this.#toSocket(origin, receiver, status, reason);
  }

  decided(origin: ReceiptOrigin, receiver: ReceiptReceiver, action: string, reason: string): void {
    this.#log('decision', action, origin, receiver.name, reason);
  }

  sent(msgId: string, sender: string, receiver: string, reason: string): void {
    this.#hub.recordActivity({
      at: this.#hub.clock.now(),
      kind: 'receipt',
      status: 'sent',
      sender,
      receiver,
      msgId,
      reason,
    });
  }

  #toInbox(
    senderId: string,
    origin: ReceiptOrigin,
    receiver: ReceiptReceiver,
    status: ReceiptStatus,
    reason: string,
    count: number,
  ): void {
    const hub = this.#hub;
    if (!hub.table.live.has(senderId) && !hub.table.dormant.has(senderId)) return; // gone: no one to tell
    const ref = hub.table.refOf(receiver.id);
    const receipt: InboxReceipt = {
      kind: 'receipt',
      id: randomUUID(),
      origMsgId: origin.msgId,
      status,
      to: { name: receiver.name, address: receiver.address },
      reason,
      text: receiptText(status, ref ? label(receiver.name, ref) : receiver.name, reason, count),
      at: hub.clock.now(),
      count,
    };
    hub.mailboxes
      .put(senderId, receipt)
      .catch((err: unknown) => hub.log.error('receipt not stored', { error: String(err) }));
  }

  /** A status line to the writer's socket, from the receiver's socket (or the reply socket it wrote to). */
  #toSocket(origin: ReceiptOrigin, receiver: ReceiptReceiver, status: PeerStatus, reason: string): void {
    if (receiver.socketPath === '') return; // a receiver with no socket of its own has no directory to answer from
    const from = origin.statusVia ?? receiver;
    const target = replySocket(origin.fromAddress, from);
    if (target === undefined) return;
    const line = peerStatusLine({ status, reason, from: from.address, origMsgId: origin.msgId, msgId: randomUUID() });
    writeLinesQuietly(target, [line], this.#hub.limits.outboundTimeoutMs, (err) =>
      this.#hub.log.warn('status report not written', { error: String(err) }),
    );
  }

  #log(kind: 'receipt' | 'decision', status: string, origin: ReceiptOrigin, receiver: string, reason: string): void {
    this.#hub.recordActivity({
      at: this.#hub.clock.now(),
      kind,
      status,
      sender: origin.fromName ?? origin.fromAddress,
      receiver,
      msgId: origin.msgId,
      reason,
    });
  }
}
