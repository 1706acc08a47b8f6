// Where a sender hears what became of its message: a receipt in its inbox
// when it is one of our sessions (live or dormant), a receipt over the relay
// when it is on another machine, and otherwise a peer_message_status line to
// the socket it wrote from (Claude Code's wire; `undelivered` is `dropped`
// there). Every receipt and policy decision also goes to the activity log.

import { randomUUID } from 'node:crypto';
import type { InboxReceipt, ReceiptStatus } from '../protocol/methods.js';
import { PEER_STATUSES, type PeerStatus } from '../protocol/cc-wire.js';
import { receiptText } from '../delivery/receipts.js';
import { label } from '../registry/names.js';
import type { Envelope } from '../delivery/envelope.js';
import type { ActivitySink, ReceiptReceiver } from '../delivery/ports.js';
import type { Mailboxes } from '../delivery/mailboxes.js';
import type { Clock } from '../kit/clock.js';
import type { Logger } from '../kit/logger.js';
import type { SessionTable } from '../registry/table.js';
import { sendPeerStatus, type StatusPorts } from './inbound-socket.js';

/** Receipts for senders on other machines (relay/remote-machines.ts). */
export interface RemoteReceipts {
  sendReceipt(
    env: Pick<Envelope, 'msgId' | 'fromAddress'>,
    receiver: { id: string; name: string },
    status: ReceiptStatus,
    reason: string,
  ): void;
}

/** What telling a sender needs from the hub. */
export interface NotifyPorts extends StatusPorts, ActivitySink {
  readonly table: SessionTable;
  readonly mailboxes: Pick<Mailboxes, 'put'>;
  readonly clock: Clock;
  readonly log: Logger;
  readonly remote: RemoteReceipts;
}

export function notifySender(
  hub: NotifyPorts,
  env: Pick<Envelope, 'msgId' | 'fromAddress' | 'fromSessionId' | 'statusVia'>,
  receiver: ReceiptReceiver,
  status: ReceiptStatus,
  reason: string,
  count = 1,
): void {
  recordMessageActivity(hub, 'receipt', status, env, receiver, reason);
  if (env.fromSessionId !== null) {
    if (!hub.table.live.has(env.fromSessionId) && !hub.table.dormant.has(env.fromSessionId)) return;
    const ref = hub.table.refOf(receiver.id);
    const receipt: InboxReceipt = {
      kind: 'receipt',
      id: randomUUID(),
      origMsgId: env.msgId,
      status,
      to: { name: receiver.name, address: receiver.address },
      reason,
      text: receiptText(status, ref ? label(receiver.name, ref) : receiver.name, reason, count),
      at: hub.clock.now(),
      count,
    };
    hub.mailboxes
      .put(env.fromSessionId, receipt)
      .catch((err: unknown) => hub.log.error('receipt not stored', { error: String(err) }));
  } else if (env.fromAddress.startsWith('peer:')) {
    hub.remote.sendReceipt(env, receiver, status, reason);
  } else {
    // Claude Code's wire has no `undelivered`: a socket writer hears `dropped`, with the reason.
    const peer = status === 'undelivered' ? 'dropped' : status;
    if ((PEER_STATUSES as readonly string[]).includes(peer) && receiver.socketPath !== '') {
      sendPeerStatus(
        hub,
        env.statusVia ?? receiver,
        env.fromAddress,
        env.msgId,
        peer as PeerStatus,
        count > 1 ? `${reason} (${count} messages)` : reason,
      );
    }
  }
}

/** One line of the activity log for a message: a receipt or a policy decision. */
export function recordMessageActivity(
  hub: ActivitySink & { readonly clock: Clock },
  kind: 'receipt' | 'decision',
  status: string,
  env: Pick<Envelope, 'msgId' | 'fromAddress'> & { fromName?: string | null },
  receiver: ReceiptReceiver,
  reason: string,
): void {
  hub.recordActivity({
    at: hub.clock.now(),
    kind,
    status,
    sender: env.fromName ?? env.fromAddress,
    receiver: receiver.name,
    msgId: env.msgId,
    reason,
  });
}
