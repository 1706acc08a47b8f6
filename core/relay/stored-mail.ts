// What a hub does with the relay's stored mail (mail-store.ts), both ends.
// Receiving: a message past its time is answered `expired`; else it is
// admitted as if it had come directly (journaled before takeStored
// resolves: only then is it acknowledged), and what a direct send would
// have read in its answer (refused, dropped, no such session) goes back as
// a receipt; a stored receipt is taken as a direct one. Sending: a stored
// send past its time, and a grace minute (for a hub that was taking it just
// then), is taken out of the stream; when it was still there nobody took
// it, and its sender is told `expired`; when it was not, a hub took it and
// its receipt will say. The broker unreachable: the next sweep tries again.

import type { ReceiptStatus } from '../protocol/methods.js';
import { AWAY_EXPIRED_REASON } from '../receipts/texts.js';
import {
  peerAddress,
  PROTOCOL_VERSION,
  type RelayAnswer,
  type RelayMessage,
  type RelayReceipt,
  type StoredMail,
} from '../protocol/relay-wire.js';
import type { MailStore } from './mail-store.js';
import type { OutstandingSends } from './outstanding.js';

export const EXPIRY_GRACE_MS = 60_000;

export interface TakeStoredPorts {
  /** Epoch ms. */
  now(): number;
  sessionName(id: string): string | undefined;
  admit(m: RelayMessage): Promise<RelayAnswer>;
  /** A receipt for one of our senders. */
  receipt(r: RelayReceipt): void;
  /** A receipt for a sender on another machine (remote-machines.ts sendReceipt). */
  sendReceipt(
    origin: { msgId: string; fromAddress: string },
    receiver: { id: string; name: string },
    status: ReceiptStatus,
    reason: string,
  ): void;
}

export async function takeStored(item: StoredMail, p: TakeStoredPorts): Promise<void> {
  if (item.type === 'receipt') return p.receipt(item.receipt);
  const m = item.message;
  const origin = { msgId: m.msgId, fromAddress: peerAddress(m.from.machine, m.from.sessionId) };
  const named = { id: m.to, name: p.sessionName(m.to) ?? m.to };
  if (item.expiresAt <= p.now()) return p.sendReceipt(origin, named, 'expired', AWAY_EXPIRED_REASON);
  const answer = await p.admit(m);
  if ('error' in answer) return p.sendReceipt(origin, named, 'dropped', `not delivered: ${answer.error}`);
  const receiver = { id: answer.to.sessionId, name: answer.to.name };
  if (answer.status === 'refused') p.sendReceipt(origin, receiver, 'refused', answer.reason ?? 'refused');
  else if (answer.status === 'dropped' && answer.reason !== 'duplicate')
    p.sendReceipt(origin, receiver, 'dropped', answer.reason ?? 'dropped');
}

/** `store`: the relay's, while connected in store mode (else nothing is done). */
export async function expireStored(
  store: Pick<MailStore, 'takeBack'> | undefined,
  outstanding: OutstandingSends,
  receipt: (r: RelayReceipt) => void,
): Promise<void> {
  if (store === undefined) return;
  for (const d of outstanding.storedDue(EXPIRY_GRACE_MS)) {
    if ((await store.takeBack(d.stored.seq)) === 'gone') {
      await outstanding.stored(d.msgId, undefined);
      continue;
    }
    receipt({
      v: PROTOCOL_VERSION,
      origMsgId: d.msgId,
      senderSessionId: d.senderId,
      status: 'expired',
      reason: AWAY_EXPIRED_REASON,
      receiver: { machine: d.machine, sessionId: d.stored.session, name: d.stored.to },
    });
  }
}
