// Receipt texts: plain data for the agent, never an instruction it should
// follow. One sentence per status, saying what happened and what to expect.

import type { ReceiptStatus, SendStatus } from '../protocol/methods.js';
import { PAUSED_REASON } from '../protocol/vocabulary.js';
import { STORE_MS } from '../protocol/relay-wire.js';
import { QWEN_QUEUED_REASON } from '../protocol/qwen-wire.js';

const PREFIX = '[Cross-session delivery notice]';
/** The reason of an `expired` receipt for mail the relay stored for a machine that stayed away too long. */
export const AWAY_EXPIRED_REASON = `its machine did not take it within the ${STORE_MS / 86_400_000} days the relay keeps mail`;

export function receiptText(status: ReceiptStatus, target: string, reason: string | null, count = 1): string {
  const times = count > 1 ? ` (${count} messages)` : '';
  const why = reason ? ` Reason: ${reason}.` : '';
  switch (status) {
    case 'held':
      return `${PREFIX} Your message to ${target}${times} was held for its user's approval. Not delivered yet; do not wait for a reply.${why}`;
    case 'delivered':
      if (reason === QWEN_QUEUED_REASON)
        return `${PREFIX} Your message to ${target}${times} was queued for its model by Qwen Code: it reads it at its next turn (at once if idle); not read yet. That is not a reply.`;
      return `${PREFIX} Your message to ${target}${times} was handed to its agent. That is not a reply.`;
    case 'approved':
      return `${PREFIX} Your message to ${target}${times} was approved by its user and is in its inbox; not read yet (a delivered notice follows).`;
    case 'denied':
      return `${PREFIX} Your message to ${target}${times} was denied by its user and not delivered. Do not resend it.${why}`;
    case 'refused':
      return reason === PAUSED_REASON
        ? `${PREFIX} Your message to ${target}${times} was refused: inbound messages are ${PAUSED_REASON}. Not delivered; try again later.`
        : `${PREFIX} Your message to ${target}${times} was refused by its inbound policy and not delivered.${why}`;
    case 'expired':
      if (reason === AWAY_EXPIRED_REASON)
        return `${PREFIX} Your message to ${target}${times} expired and was not delivered: ${AWAY_EXPIRED_REASON}.`;
      return `${PREFIX} Your message to ${target}${times} expired without its user's approval and was not delivered.${why}`;
    case 'dropped':
      return `${PREFIX} Your message to ${target}${times} was dropped and not delivered.${why}`;
    case 'waiting':
      return `${PREFIX} Your message to ${target}${times} is in its inbox, but that session is idle and cannot be woken; its user has been told. It reads it at its next turn. That is not a reply.${why}`;
    case 'kept':
      return `${PREFIX} Your message to ${target}${times} is kept unread: its agent exited, and the message is handed over only if that conversation is resumed (you are then told it was delivered, else undelivered). Do not wait for a reply.${why}`;
    case 'undelivered':
      return `${PREFIX} Your message to ${target}${times} will not be read: that session ended and cannot resume. Do not wait for a reply.${why}`;
    default: {
      const never: never = status;
      return never;
    }
  }
}

/** The one-line note a send result carries for the agent. */
export function sendNote(status: SendStatus, target: string, reason?: string): string {
  switch (status) {
    case 'queued':
      return `Queued in ${target}'s inbox; it reads it at its next tool round. This is not a reply.`;
    case 'held':
      return `Held for ${target}'s user to approve. Not delivered yet; do not wait for a reply.`;
    case 'refused':
      if (reason === PAUSED_REASON)
        return `Refused: ${target}'s inbound messages are ${PAUSED_REASON}. Nothing was delivered; try again later.`;
      if (reason?.includes('crossSessionScope') === true) return `Refused: ${reason}. Nothing was delivered.`;
      return `Refused by ${target}'s inbound policy. Nothing was delivered.`;
    case 'dropped':
      return `Dropped (${reason ?? 'unknown'}). Nothing was delivered.`;
    case 'sent':
      return `Written to ${target}'s socket. Whether its session accepts it is not known yet.`;
    case 'subscribed':
      return `Subscribed: one idle notice arrives when ${target} next goes idle or exits.`;
    case 'confirm-denied':
      return `Your user denied sending this to another machine. Nothing was sent.`;
    case 'confirm-expired':
      return `Your user did not confirm sending this to another machine in time. Nothing was sent.`;
    case 'stored':
      return `Stored for ${target}, whose machine is offline; expires in ${reason ?? 'a few days'}. A receipt says when it is delivered or expired; do not wait for a reply.`;
    default: {
      const never: never = status;
      return never;
    }
  }
}
