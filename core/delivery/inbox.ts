// One session's unacknowledged items in arrival order, bounded. fetch()
// returns the oldest unread items (again and again until acknowledged: a
// reconnecting adapter is offered them anew); ack() removes them. Items are
// deduplicated by id, so a message re-sent with the same msg_id is one item.

import type { InboxItem } from '../protocol/methods.js';

export type AddResult = 'added' | 'duplicate' | 'full';

export class Inbox {
  readonly #items = new Map<string, InboxItem>();
  readonly #cap: number;
  #messages = 0;

  constructor(cap: number, initial?: Iterable<InboxItem>) {
    this.#cap = cap;
    if (initial) for (const item of initial) this.#put(item);
  }

  get size(): number {
    return this.#items.size;
  }

  /** Unread peer messages (receipts and notices excluded). */
  get unreadMessages(): number {
    return this.#messages;
  }

  #put(item: InboxItem): void {
    this.#items.set(item.id, item);
    if (item.kind === 'message') this.#messages++;
  }

  has(id: string): boolean {
    return this.#items.has(id);
  }

  add(item: InboxItem): AddResult {
    if (this.#items.has(item.id)) return 'duplicate';
    if (this.#items.size >= this.#cap) return 'full';
    this.#put(item);
    return 'added';
  }

  fetch(limit: number): InboxItem[] {
    const out: InboxItem[] = [];
    for (const item of this.#items.values()) {
      if (out.length >= limit) break;
      out.push(item);
    }
    return out;
  }

  /** Removes the given ids; returns the items that were present. */
  ack(ids: readonly string[]): InboxItem[] {
    const removed: InboxItem[] = [];
    for (const id of ids) {
      const item = this.#items.get(id);
      if (item !== undefined) {
        this.#items.delete(id);
        if (item.kind === 'message') this.#messages--;
        removed.push(item);
      }
    }
    return removed;
  }

  values(): IterableIterator<InboxItem> {
    return this.#items.values();
  }
}
