// What the hub pushes to user interfaces as `ui.event` (and the Electron
// tray listens to): one closed union keyed by `type`, plus the entries the
// Activity view and the tray's notices show. The renderer, the preload
// bridge and electron/main.ts use these types; none re-declares them.

import type { HistoryMove } from './history.js';

/** A receipt or policy decision, for the Activity view. */
export interface ActivityEntry {
  at: number;
  kind: 'receipt' | 'decision';
  status: string;
  sender: string;
  receiver: string;
  msgId: string;
  reason: string;
}

/** Something for the person, not the agent (an idle notice the policy would hold; messages waiting for an idle session that cannot be woken). */
export interface UserNotice {
  id: string;
  at: number;
  sessionId: string;
  text: string;
  /** Set when messages wait for an idle session no one can wake (core/wake): the tray raises a notification. */
  waiting?: { sessionId: string; label: string; count: number };
}

/** A change to the picture's counts (history.ts HistoryMove), the receiver's address added as `history.edges` adds it. */
export type PictureMove =
  | (Extract<HistoryMove, { kind: 'count' }> & { to: { address: string | null } })
  | Extract<HistoryMove, { kind: 'reset' }>;

export type HubEvent =
  | { type: 'sessions.changed' }
  | { type: 'held.changed'; count: number }
  | { type: 'subscriptions.changed' }
  | { type: 'rules.changed' }
  | { type: 'settings.changed' }
  | { type: 'inbound.paused'; paused: boolean; refused?: number }
  | { type: 'confirmations.changed'; count: number }
  | { type: 'teams.changed' }
  | { type: 'activity'; entry: ActivityEntry }
  | { type: 'history.moved'; move: PictureMove }
  | { type: 'user.notice'; notice: UserNotice };

export type HubEventType = HubEvent['type'];
