// The hub's events for user interfaces (tray, windows, web UI). A listener
// that throws is logged and never breaks the emitter. Every subscription
// returns its disposer.

import type { Logger } from '../kit/logger.js';

export type HubEvent =
  | { type: 'sessions.changed' }
  | { type: 'held.changed'; count: number }
  | { type: 'subscriptions.changed' }
  | { type: 'settings.changed' }
  | { type: 'inbound.paused'; paused: boolean }
  | { type: 'confirmations.changed'; count: number }
  | { type: 'teams.changed' }
  | { type: 'activity'; entry: ActivityEntry }
  | { type: 'user.notice'; notice: UserNotice };

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

export class HubEvents {
  readonly #listeners = new Set<(e: HubEvent) => void>();
  readonly #log: Logger;

  constructor(log: Logger) {
    this.#log = log;
  }

  on(listener: (e: HubEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(e: HubEvent): void {
    for (const l of this.#listeners) {
      try {
        l(e);
      } catch (err) {
        this.#log.error('event listener failed', { type: e.type, error: String(err) });
      }
    }
  }
}

/** A bounded, newest-last memory of entries. */
export class Ring<T> {
  readonly #items: T[] = [];
  readonly #cap: number;
  constructor(cap: number) {
    this.#cap = cap;
  }
  push(item: T): void {
    this.#items.push(item);
    if (this.#items.length > this.#cap) this.#items.shift();
  }
  list(): T[] {
    return [...this.#items];
  }
}
