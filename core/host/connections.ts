// The hub socket's listening connections: per session, the connections that
// asked for `inbox.item` pushes (inbox.subscribe), and the user interfaces
// attached with `ui.attach` (every hub event is pushed to them). Knows no
// Hub: the count of attached interfaces goes to `onUiCount` (held countdowns
// run only while one is attached).

import type { HubEvent } from '../protocol/events.js';
import type { InboxItem } from '../protocol/methods.js';
import type { RpcConnection } from '../transport/rpc-server.js';

export class Connections {
  readonly #subscribers = new Map<string, Set<RpcConnection>>();
  readonly #ui = new Set<RpcConnection>();
  readonly #onUiCount: (delta: 1 | -1) => void;

  constructor(onUiCount: (delta: 1 | -1) => void) {
    this.#onUiCount = onUiCount;
  }

  get uiAttached(): number {
    return this.#ui.size;
  }

  subscribe(sessionId: string, conn: RpcConnection): void {
    let set = this.#subscribers.get(sessionId);
    if (set === undefined) this.#subscribers.set(sessionId, (set = new Set()));
    set.add(conn);
  }

  /** A session that gave way to its conversation's earlier one (sessions/lifecycle.ts): its listeners follow. */
  move(from: string, to: string): void {
    for (const conn of this.#subscribers.get(from) ?? []) this.subscribe(to, conn);
    this.#subscribers.delete(from);
  }

  /** An ended session's pushes stop. */
  forget(sessionId: string): void {
    this.#subscribers.delete(sessionId);
  }

  attachUi(conn: RpcConnection): void {
    if (this.#ui.has(conn)) return;
    this.#ui.add(conn);
    this.#onUiCount(1);
  }

  detachUi(conn: RpcConnection): void {
    if (this.#ui.delete(conn)) this.#onUiCount(-1);
  }

  pushItem(sessionId: string, item: InboxItem): void {
    for (const conn of this.#subscribers.get(sessionId) ?? []) conn.notify('inbox.item', { sessionId, item });
  }

  pushEvent(event: HubEvent): void {
    for (const conn of this.#ui) conn.notify('ui.event', event);
  }

  closed(conn: RpcConnection): void {
    for (const set of this.#subscribers.values()) set.delete(conn);
    this.detachUi(conn);
  }
}
