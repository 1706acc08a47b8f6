// What delivery asks of its neighbours, as types only: admission's answer
// (implemented by messaging/admission.ts), the event and activity sinks
// (implemented by the hub). Integrations (stock/, relay/) and features name
// these instead of importing the classes above them. Receipts have their
// own port (receipts/receipts.ts).

import type { SendStatus } from '../protocol/methods.js';
import type { ActivityEntry, HubEvent } from '../protocol/events.js';
import type { SessionRecord } from '../registry/session.js';
import type { EffectiveSettings } from '../settings/effective.js';
import type { Envelope } from './envelope.js';

/** Where admission put a message. */
export interface RouteResult {
  status: Extract<SendStatus, 'queued' | 'held' | 'refused' | 'dropped'>;
  reason?: string;
}

/** Admission as its callers see it: route a message, read a session's effective settings. */
export interface AdmissionPort {
  route(env: Envelope, receiver: SessionRecord): Promise<RouteResult>;
  effective(s: SessionRecord): EffectiveSettings;
}

export interface EventSink {
  emit(e: HubEvent): void;
}

export interface ActivitySink {
  recordActivity(entry: ActivityEntry): void;
}
