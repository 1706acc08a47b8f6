// What delivery asks of its neighbours, as types only: admission's answer and
// its receipt fan-out (implemented by messaging/admission.ts), the event and
// activity sinks (implemented by the hub). Integrations (stock/, relay/) and
// features name these instead of importing the classes above them.

import type { ReceiptStatus, SendStatus } from '../protocol/methods.js';
import type { ActivityEntry, HubEvent } from '../protocol/events.js';
import type { PersistedSession, SessionRecord } from '../registry/session.js';
import type { EffectiveSettings } from '../settings/effective.js';
import type { Envelope } from './envelope.js';

/** Where admission put a message. */
export interface RouteResult {
  status: Extract<SendStatus, 'queued' | 'held' | 'refused' | 'dropped'>;
  reason?: string;
}

/** The receiver as a receipt names it. */
export type ReceiptReceiver = Pick<PersistedSession, 'id' | 'name' | 'address' | 'socketPath'>;

/** Admission as its callers see it: route a message, tell its sender, read a session's effective settings. */
export interface AdmissionPort {
  route(env: Envelope, receiver: SessionRecord): Promise<RouteResult>;
  notifySender(
    env: Pick<Envelope, 'msgId' | 'fromAddress' | 'fromSessionId' | 'statusVia'>,
    receiver: ReceiptReceiver,
    status: ReceiptStatus,
    reason: string,
    count?: number,
  ): void;
  effective(s: SessionRecord): EffectiveSettings;
}

export interface EventSink {
  emit(e: HubEvent): void;
}

export interface ActivitySink {
  recordActivity(entry: ActivityEntry): void;
}
