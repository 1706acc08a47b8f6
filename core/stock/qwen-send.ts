// Sending from a Switchboard session to a Qwen Code session with Qwen Code's
// own protocol (docs/integrations.md#qwen-code): one connection, the auth line
// with the record's token, the user frame, half-close, 5 s. `from` and
// `replyToken` are the sender's Qwen reply socket and its token (receipts
// come back there); `fromMode` is the sender's class, left out when unknown
// so that Qwen Code holds the message (fail closed). The status is `sent`:
// the socket took it; held/delivered/… arrive later as receipts.

import { sendNote } from '../receipts/texts.js';
import { qwenAuthLine, qwenUserFrame } from '../protocol/qwen-wire.js';
import { HubError } from '../protocol/errors.js';
import type { SendResult } from '../protocol/methods.js';
import { label } from '../registry/names.js';
import { senderClass, type SessionRecord } from '../registry/session.js';
import type { ReceiptPort } from '../receipts/receipts.js';
import type { Limits } from '../protocol/limits.js';
import { writeLines } from '../transport/outbound.js';
import type { StockTarget } from './stock-send.js';
import type { QwenInterop } from './qwen.js';

export interface QwenSendPorts {
  /** Qwen Code's interop lives beside Claude Code's root (core/host/claude-root.ts). */
  readonly claude: { readonly qwen: Pick<QwenInterop, 'replies'> };
  readonly limits: Limits;
  readonly receipts: Pick<ReceiptPort, 'sent'>;
}

export const QWEN_SENT_REASON = 'written to the Qwen Code session’s socket';

export async function sendToQwen(
  hub: QwenSendPorts,
  sender: SessionRecord,
  target: StockTarget,
  message: string | null,
  notifyWhenIdle: boolean,
  msgId: string,
): Promise<SendResult> {
  const shown = label(target.name, target.ref);
  const to = { name: target.name, ref: target.ref, address: target.stock.address };
  if (message === null || notifyWhenIdle)
    throw new HubError('idle_not_local', { detail: `${shown} is a Qwen Code session: it has no idle notices` });
  const reply = await hub.claude.qwen.replies.for(sender, target.stock.socketPath);
  const fromMode = senderClass(sender);
  const lines: string[] = [];
  const token = target.stock.qwen?.token;
  if (token !== undefined) lines.push(qwenAuthLine(token));
  lines.push(
    qwenUserFrame({
      msgId,
      ...(reply !== null ? { reply } : {}),
      fromName: sender.name,
      ...(fromMode !== null ? { fromMode } : {}),
      toSessionId: target.stock.entry.sessionId,
      content: message,
    }),
  );
  hub.claude.qwen.replies.sent(msgId, sender, {
    receiverName: target.name,
    receiverAddress: target.stock.address,
    receiverSocket: target.stock.socketPath,
  });
  await writeLines(target.stock.socketPath, lines, hub.limits.outboundTimeoutMs);
  hub.receipts.sent(msgId, sender.name, shown, QWEN_SENT_REASON);
  return { status: 'sent', msg_id: msgId, to, note: sendNote('sent', shown) };
}
