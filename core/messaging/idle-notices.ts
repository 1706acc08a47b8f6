// A piece of the hub's housekeeping kept out of hub.ts: where an idle
// notice goes (the subscriber's agent, or its user when the subscriber's
// policy would hold the target's messages). Journal compaction lives in
// core/journal/compact.ts (it copies the journal's own live bytes).

import { randomUUID } from 'node:crypto';
import { USER_SUBSCRIBER } from '../idle/idle.js';
import { decideInbound } from '../policy/policy.js';
import type { InboxNotice } from '../protocol/methods.js';
import { modeClass, senderClass } from '../registry/session.js';
import type { UserNotice } from '../protocol/events.js';
import type { Clock } from '../kit/clock.js';
import type { Logger } from '../kit/logger.js';
import type { AdmissionPort, EventSink } from '../delivery/ports.js';
import type { Mailboxes } from '../delivery/mailboxes.js';
import type { SessionTable } from '../registry/table.js';

/** What routing an idle notice needs from the hub. */
export interface IdleNoticePorts {
  readonly table: Pick<SessionTable, 'live' | 'dormant'>;
  readonly admission: Pick<AdmissionPort, 'effective'>;
  readonly mailboxes: Pick<Mailboxes, 'put'>;
  readonly userNotices: { push(notice: UserNotice): void };
  readonly events: EventSink;
  readonly clock: Clock;
  readonly log: Logger;
}

export function routeIdleNotice(hub: IdleNoticePorts, subscriberId: string, targetId: string, text: string): void {
  const subscriber = hub.table.live.get(subscriberId);
  const target = hub.table.live.get(targetId) ?? hub.table.dormant.get(targetId)?.session;
  // A stock Claude Code target is unverified: no permission class.
  const targetClass = target !== undefined ? senderClass(target) : targetId.startsWith('stock:') ? null : undefined;
  const notice: InboxNotice = { kind: 'notice', id: randomUUID(), text, at: hub.clock.now() };
  const forUser = subscriberId === USER_SUBSCRIBER;
  if (forUser || (subscriber !== undefined && targetClass !== undefined)) {
    const d =
      forUser || subscriber === undefined || targetClass === undefined
        ? null
        : decideInbound(hub.admission.effective(subscriber).inbound, modeClass(subscriber), targetClass, false);
    if (d === null || d.action !== 'deliver') {
      const n: UserNotice = { id: notice.id, at: notice.at, sessionId: subscriberId, text };
      hub.userNotices.push(n);
      hub.events.emit({ type: 'user.notice', notice: n });
      return;
    }
  }
  hub.mailboxes
    .put(subscriberId, notice)
    .catch((err: unknown) => hub.log.error('idle notice not stored', { error: String(err) }));
}
