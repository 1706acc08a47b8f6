// The last step of every delivery: a message, already admitted, is framed
// and put in the receiver's inbox. `queued` only after the journal write;
// `dropped` (duplicate msg_id, inbox at its hard cap) otherwise. Admission
// (throttle, policy, held messages) happens before, in core/messaging/admission.

import { randomUUID } from 'node:crypto';
import { wrapMessage } from '../protocol/cc-wire.js';
import type { InboxMessage } from '../protocol/methods.js';
import type { Mailboxes } from './mailboxes.js';
import type { Envelope } from './envelope.js';

export type DeliverResult = { status: 'queued' } | { status: 'dropped'; reason: 'duplicate' | 'queue-full' };

export function frameMessage(env: Envelope, approvedAfterHold: boolean): InboxMessage {
  return {
    kind: 'message',
    id: env.msgId,
    from: { address: env.fromAddress, name: env.fromName, sessionId: env.fromSessionId },
    summary: env.summary,
    text: wrapMessage(env.body, {
      from: env.fromAddress,
      ...(env.fromName !== null ? { fromName: env.fromName } : {}),
      ...(env.fromClass !== null ? { fromMode: env.fromClass } : {}),
      ...(approvedAfterHold ? { approved: 'after-hold' as const } : {}),
    }),
    at: env.at,
    approvedAfterHold,
  };
}

export function deliver(mailboxes: Mailboxes, receiverId: string, env: Envelope, approvedAfterHold = false): Promise<DeliverResult> {
  return mailboxes.put(receiverId, frameMessage(env, approvedAfterHold)).then((added): DeliverResult => {
    switch (added) {
      case 'added':
        return { status: 'queued' };
      case 'duplicate':
        return { status: 'dropped', reason: 'duplicate' };
      case 'full':
        return { status: 'dropped', reason: 'queue-full' };
      default: {
        const never: never = added;
        return never;
      }
    }
  });
}

export function newMsgId(): string {
  return randomUUID();
}
