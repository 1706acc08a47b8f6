// The last step of admission: a message, already admitted, is framed and put
// in the receiver's inbox — enqueued, not delivered (`delivered` is the
// agent's acknowledgement that it got the whole text). `queued` only after
// the journal write; `dropped` (duplicate msg_id, inbox at its hard cap)
// otherwise. Admission (throttle, policy, held messages) happens before, in
// core/messaging/admission.

import { escapeBody, wrapMessage, type WrapperAttrs } from '../protocol/cc-wire.js';
import type { InboxMessage } from '../protocol/methods.js';
import type { Mailboxes } from './mailboxes.js';
import type { Envelope } from './envelope.js';

export type EnqueueResult = { status: 'queued' } | { status: 'dropped'; reason: 'duplicate' | 'queue-full' };

type From = InboxMessage['from'];
/** Senders' `from` objects, shared by their queued items (one object per sender, not per message; never mutated). */
const senders = new Map<string, From>();
const SENDERS_KEPT = 1024; // then forgotten all at once: a cache, not a registry

function fromOf(env: Envelope): From {
  const known = senders.get(env.fromAddress);
  if (known !== undefined && known.name === env.fromName && known.sessionId === env.fromSessionId) return known;
  if (senders.size >= SENDERS_KEPT) senders.clear();
  const from: From = Object.freeze({ address: env.fromAddress, name: env.fromName, sessionId: env.fromSessionId });
  senders.set(env.fromAddress, from);
  return from;
}

/** The wrapper's attributes of a message (no spread objects: this runs for every message). */
function wrapperAttrs(env: Envelope, approvedAfterHold: boolean): WrapperAttrs {
  const attrs: WrapperAttrs = { from: env.fromAddress };
  if (env.fromName !== null) attrs.fromName = env.fromName;
  if (env.fromClass !== null) attrs.fromMode = env.fromClass;
  if (approvedAfterHold) attrs.approved = 'after-hold';
  return attrs;
}

/** wrapMessage(body, attrs) is its head, the escaped body and this tail; the head depends on the attributes only. */
const TAIL = '\n</cross-session-message>';
type Head = { name: string | null; mode: Envelope['fromClass']; approved: boolean; head: string };
/** Wrapper heads per sender address, as the `from` objects (one per sender, forgotten all at once). */
const heads = new Map<string, Head>();

/** wrapMessage(env.body, wrapperAttrs(env, approvedAfterHold)) without rebuilding the sender's head each time. */
function frameText(env: Envelope, approvedAfterHold: boolean): string {
  const known = heads.get(env.fromAddress);
  if (
    known !== undefined &&
    known.name === env.fromName &&
    known.mode === env.fromClass &&
    known.approved === approvedAfterHold
  )
    return known.head + escapeBody(env.body) + TAIL;
  const empty = wrapMessage('', wrapperAttrs(env, approvedAfterHold));
  if (!empty.endsWith(TAIL)) return wrapMessage(env.body, wrapperAttrs(env, approvedAfterHold));
  if (heads.size >= SENDERS_KEPT) heads.clear();
  const head = empty.slice(0, empty.length - TAIL.length);
  heads.set(env.fromAddress, { name: env.fromName, mode: env.fromClass, approved: approvedAfterHold, head });
  return head + escapeBody(env.body) + TAIL;
}

export function frameMessage(env: Envelope, approvedAfterHold: boolean): InboxMessage {
  return {
    kind: 'message',
    id: env.msgId,
    from: fromOf(env),
    summary: env.summary,
    text: frameText(env, approvedAfterHold),
    at: env.at,
    approvedAfterHold,
  };
}

export function enqueue(
  mailboxes: Mailboxes,
  receiverId: string,
  env: Envelope,
  approvedAfterHold = false,
): Promise<EnqueueResult> {
  return mailboxes.put(receiverId, frameMessage(env, approvedAfterHold)).then((added): EnqueueResult => {
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
