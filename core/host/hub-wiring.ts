// How the Hub's parts talk to each other, apart from building them
// (hub.ts builds, in dependency order; this module only connects):
//   - the history recorder, whose count moves reach a user interface only
//     while one is attached;
//   - the idle watch, whose lifetime is the tighter of the limit and the
//     admin setting, and whose notices go through messaging/idle-notices;
//   - the fan-out of hub events and inbox items to the connections, the
//     history, the sweeper, the stock interop and the relay;
//   - the restore gate: requests that arrive while journaled sessions are
//     being restored wait for it, then run in arrival order.
// Each function takes the narrow view it reads, never the Hub.

import type { Mailboxes } from '../delivery/mailboxes.js';
import type { HistoryRecorder } from '../history/recorder.js';
import { IdleWatch } from '../idle/idle.js';
import { drop } from '../kit/drop.js';
import type { Emitter } from '../kit/emitter.js';
import { createRecorder, type RecorderPorts } from '../messaging/history-hook.js';
import { routeIdleNotice, type IdleNoticePorts } from '../messaging/idle-notices.js';
import type { HubEvent } from '../protocol/events.js';
import type { EffectiveSettings } from '../settings/effective.js';
import type { Connections } from './connections.js';

export interface HistoryWiringPorts extends RecorderPorts {
  readonly events: Pick<Emitter<HubEvent>, 'emit'>;
  readonly connections: Pick<Connections, 'uiAttached'>;
  addressOf(sessionId: string): string | null;
}

/** The history recorder, its count moves sent to the UI with the session's current address. */
export function wireHistory(hub: HistoryWiringPorts, enabled: boolean | undefined): HistoryRecorder {
  return createRecorder(hub, enabled, {
    wanted: () => hub.connections.uiAttached > 0, // a user interface fetches the counts when it attaches
    onMove: (move) =>
      hub.events.emit({
        type: 'history.moved',
        move: move.kind === 'count' ? { ...move, to: { ...move.to, address: hub.addressOf(move.to.sessionId) } } : move,
      }),
  });
}

export interface IdleWiringPorts extends IdleNoticePorts {
  readonly limits: { readonly idleSubscriptionMs: number };
  adminSettings(): EffectiveSettings;
}

/** The idle watch: subscriptions last the tighter of the hub limit and the admin's minutes. */
export function wireIdleWatch(hub: IdleWiringPorts, changed: () => void): IdleWatch {
  return new IdleWatch({
    lifetimeMs: () =>
      Math.min(hub.limits.idleSubscriptionMs, hub.adminSettings().idleSubscriptionMinutes.value * 60_000),
    now: () => hub.clock.monotonic(),
    deliver: (sub, text) => routeIdleNotice(hub, sub.subscriberId, sub.targetId, text),
    changed: () => {
      changed();
      hub.events.emit({ type: 'subscriptions.changed' });
    },
  });
}

export interface FanOutPorts {
  readonly events: Pick<Emitter<HubEvent>, 'on'>;
  readonly mailboxes: Pick<Mailboxes, 'onItem'>;
  readonly connections: Pick<Connections, 'pushItem' | 'pushEvent'>;
  readonly history: Pick<HistoryRecorder, 'item'>;
  readonly stock: { sessionsChanged(): void };
  readonly remote: { sessionsChanged(): void; configure(): Promise<void> };
  readonly log: { error(message: string, fields?: Record<string, unknown>): void };
}

/** Sends every inbox item and hub event where it is wanted; `sessionsChanged` is the sweeper's. */
export function fanOut(hub: FanOutPorts, sessionsChanged: () => void): void {
  hub.mailboxes.onItem((sessionId, item) => hub.connections.pushItem(sessionId, item));
  hub.mailboxes.onItem((_id, item) => hub.history.item(item));
  hub.events.on((event) => {
    hub.connections.pushEvent(event);
    if (event.type === 'sessions.changed') sessionsChanged();
    if (event.type === 'sessions.changed' || event.type === 'settings.changed') {
      hub.stock.sessionsChanged();
      hub.remote.sessionsChanged();
    }
    if (event.type === 'settings.changed')
      drop(hub.remote.configure(), 'relay: applying changed settings', (m, f) => hub.log.error(m, f));
  });
}

/** Holds calls back until `open()`; after it, calls run at once. */
export class RestoreGate {
  #open = false;
  #opened: () => void = () => undefined;
  readonly #whenOpen = new Promise<void>((r) => (this.#opened = r));

  get isOpen(): boolean {
    return this.#open;
  }

  open(): void {
    this.#open = true;
    this.#opened();
  }

  run<T>(call: () => T): T | Promise<T> {
    return this.#open ? call() : this.#whenOpen.then(call);
  }
}
