// What happens to a session that ended. One that can never resume (its agent
// process exited, its adapter said it is ending, it waited past the dormant
// cap or age) is forgotten: every sender of an unread or held message gets an
// `undelivered` receipt, and the journal drops it. One that may resume (its
// connection dropped) stays dormant only while it has something to resume,
// at most LIMITS.dormantSessions of them, each for at most dormantRetentionMs.

import type { PersistedSession } from '../registry/session.js';
import type { RuleBook } from '../policy/rules.js';
import type { Clock } from '../kit/clock.js';
import type { EventSink } from '../delivery/ports.js';
import type { ReceiptPort } from '../receipts/receipts.js';
import type { Mailboxes } from '../delivery/mailboxes.js';
import type { IdleWatch } from '../idle/idle.js';
import type { HeldQueue } from '../policy/held.js';
import type { Throttle } from '../policy/throttle.js';
import type { Limits } from '../protocol/limits.js';
import type { SessionTable } from '../registry/table.js';

/** What keeping and ending sessions needs from the hub. */
export interface RetentionPorts {
  readonly table: Pick<SessionTable, 'dormant'>;
  readonly mailboxes: Pick<Mailboxes, 'depth' | 'unclaimedSenders' | 'drop'>;
  readonly admission: { readonly held: HeldQueue; readonly throttle: Pick<Throttle, 'forget'> };
  readonly receipts: Pick<ReceiptPort, 'tell'>;
  readonly idle: Pick<IdleWatch, 'forgetSubscriber'>;
  readonly rules: Pick<RuleBook, 'sessionEnded'>;
  readonly reclaimer: { sessionEnded(): void };
  readonly events: EventSink;
  readonly clock: Clock;
  readonly limits: Limits;
}

export type EndKind = 'final' | 'dormant';

const ENDED = 'the session ended and cannot resume';
const EVICTED = 'the session ended and was not resumed in time';

/** Unread items or held messages: what a resume would find. */
export function hasSomethingToResume(hub: RetentionPorts, id: string): boolean {
  return hub.mailboxes.depth(id) > 0 || hub.admission.held.forReceiver(id).length > 0;
}

/**
 * Keeps an ended session for a resume, or forgets it at once when there is
 * nothing to resume — unless it is bound to a conversation, whose resume
 * gets back its name and pins as well.
 */
export async function keepDormant(hub: RetentionPorts, p: PersistedSession, trim = true): Promise<void> {
  if (p.conversation === undefined && !hasSomethingToResume(hub, p.id)) return endSession(hub, p, ENDED);
  hub.table.dormant.set(p.id, { session: p, diedAt: hub.clock.now() });
  if (trim) await trimDormant(hub);
}

/**
 * A conversation's process ended: its session waits for the conversation's
 * resume, and the sender of each unread message is told so (`kept`), then
 * later `delivered` or, once the wait is over, `undelivered`.
 */
export async function keepForConversation(hub: RetentionPorts, p: PersistedSession): Promise<void> {
  const receiver = { id: p.id, name: p.name, address: p.address, socketPath: p.socketPath };
  const days = Math.round(hub.limits.dormantRetentionMs / 86_400_000);
  const why = `its agent exited; it is handed over if that conversation is resumed within ${days} days`;
  for (const item of hub.mailboxes.unclaimedSenders(p.id))
    hub.receipts.tell(
      { msgId: item.id, fromAddress: item.from.address, fromSessionId: item.from.sessionId },
      receiver,
      'kept',
      why,
    );
  await keepDormant(hub, p);
}

/** Forgets the oldest dormant sessions beyond the cap and those past their age. */
export async function trimDormant(hub: RetentionPorts): Promise<void> {
  const now = hub.clock.now();
  let over = hub.table.dormant.size - hub.limits.dormantSessions;
  for (const [id, d] of [...hub.table.dormant]) {
    // Insertion order is the order they ended in (a resume deletes the entry).
    if (over > 0) over--;
    else if (now - d.diedAt <= hub.limits.dormantRetentionMs) continue;
    hub.table.dormant.delete(id);
    await endSession(hub, d.session, EVICTED);
  }
}

/**
 * Forgets a session that will not resume: senders of its unread and held
 * messages are told (`undelivered`), its inbox, held messages, throttle
 * state and subscriptions go, and the journal drops it.
 */
export async function endSession(hub: RetentionPorts, p: PersistedSession, reason: string): Promise<void> {
  hub.table.dormant.delete(p.id);
  const receiver = { id: p.id, name: p.name, address: p.address, socketPath: p.socketPath };
  const held = hub.admission.held.forReceiver(p.id);
  for (const e of held) {
    hub.admission.held.take(e.id);
    hub.receipts.tell(e.env, receiver, 'undelivered', reason);
  }
  for (const item of hub.mailboxes.unclaimedSenders(p.id)) {
    hub.receipts.tell(
      { msgId: item.id, fromAddress: item.from.address, fromSessionId: item.from.sessionId },
      receiver,
      'undelivered',
      reason,
    );
  }
  hub.admission.throttle.forget(p.id);
  hub.idle.forgetSubscriber(p.id);
  hub.rules.sessionEnded(p.id); // rules made "until either session ends"
  await hub.mailboxes.drop(p.id); // the journal's drop record also removes its session and held records
  hub.reclaimer.sessionEnded();
  if (held.length > 0) hub.events.emit({ type: 'held.changed', count: hub.admission.held.size });
}
