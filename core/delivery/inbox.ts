// One session's unacknowledged items in arrival order, bounded. fetch()
// returns the oldest unread items (again and again until acknowledged: a
// reconnecting adapter is offered them anew); ack() removes them. Items are
// deduplicated by id, so a message re-sent with the same msg_id is one item.
// A claimed item (handed to the agent another way, e.g. woken through Claude
// Code's own socket, its outcome pending) is not offered by fetch(); it stays
// until acknowledged or released. Claims live in memory only.

import type { InboxItem } from '../protocol/methods.js';

export type AddResult = 'added' | 'duplicate' | 'full';

export class Inbox {
  readonly #items = new Map<string, InboxItem>();
  readonly #cap: number;
  readonly #claimed = new Set<string>();
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

  /** Takes an item out of fetch() until it is acknowledged or released; false when absent or already claimed. */
  claim(id: string): boolean {
    if (!this.#items.has(id) || this.#claimed.has(id)) return false;
    this.#claimed.add(id);
    return true;
  }

  release(id: string): void {
    this.#claimed.delete(id);
  }

  isClaimed(id: string): boolean {
    return this.#claimed.has(id);
  }

  fetch(limit: number): InboxItem[] {
    const out: InboxItem[] = [];
    for (const item of this.#items.values()) {
      if (out.length >= limit) break;
      if (this.#claimed.has(item.id)) continue;
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
        this.#claimed.delete(id);
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
