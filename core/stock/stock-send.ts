// Sending from a Switchboard session to a stock Claude Code session with
// Claude Code's exact wire format (docs/claude-code-formats.md#5-cross-session-messaging): one connection, the auth
// line when a key file exists for that socket, the user event line, 5 s.
// `from` is the sender's reply socket beside the target's (so receipts
// come back), else its own socket. The status is `sent`: the socket took
// it, nothing more; held/delivered/denied arrive later as receipts.

import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { sendNote } from '../receipts/texts.js';
import { userEventLine, wrapMessage } from '../protocol/cc-wire.js';
import { HubError } from '../protocol/errors.js';
import type { SendResult } from '../protocol/methods.js';
import { label } from '../registry/names.js';
import { senderClass, type SessionRecord } from '../registry/session.js';
import type { ReceiptPort } from '../receipts/receipts.js';
import type { Limits } from '../protocol/limits.js';
import type { StockInterop } from './stock.js';
import { writeLines } from '../transport/outbound.js';
import type { StockSession } from './discovery.js';
import { readPeerToken } from './entry.js';

export interface StockTarget {
  name: string;
  ref: string;
  stock: StockSession;
}

/** What a send to a stock session needs from the hub. */
export interface StockSendPorts {
  readonly stock: Pick<StockInterop, 'supportsIdle' | 'replies' | 'subscribeIdle' | 'root'>;
  readonly limits: Limits;
  readonly receipts: Pick<ReceiptPort, 'sent'>;
}

export async function sendToStock(
  hub: StockSendPorts,
  sender: SessionRecord,
  target: StockTarget,
  message: string | null,
  notifyWhenIdle: boolean,
  msgId: string = randomUUID(),
): Promise<SendResult> {
  const shown = label(target.name, target.ref);
  const to = { name: target.name, ref: target.ref, address: target.stock.address };
  if (notifyWhenIdle && !hub.stock.supportsIdle(target.stock))
    throw new HubError('idle_not_local', {
      detail: `${shown} is a Claude Code session without idle notices (2.1.332 and later have them)`,
    });
  const from = (await hub.stock.replies.addressFor(sender, target.stock.socketPath)) ?? sender.address;
  if (message === null) {
    await hub.stock.subscribeIdle(sender, target.stock, from, shown);
    return { status: 'subscribed', msg_id: msgId, to, note: sendNote('subscribed', shown) };
  }
  const lines: string[] = [];
  const token = readPeerToken(path.join(hub.stock.root, 'sessions'), target.stock.entry);
  if (token !== undefined) lines.push(JSON.stringify({ type: 'auth', token }));
  const fromMode = senderClass(sender);
  const content = wrapMessage(message, {
    from,
    fromSession: sender.id,
    fromName: sender.name,
    ...(fromMode !== null ? { fromMode } : {}),
  });
  lines.push(userEventLine({ msgId, content, from }));
  hub.stock.replies.sent(msgId, sender.id, target.name, target.stock.address);
  await writeLines(target.stock.socketPath, lines, hub.limits.outboundTimeoutMs);
  if (notifyWhenIdle) await hub.stock.subscribeIdle(sender, target.stock, from, shown);
  hub.receipts.sent(msgId, sender.name, shown, 'written to the Claude Code session’s socket');
  return { status: 'sent', msg_id: msgId, to, note: sendNote('sent', shown) };
}
