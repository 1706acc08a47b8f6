// One session's unacknowledged items in arrival order, bounded. fetch()
// returns the oldest unread items (again and again until acknowledged: a
// reconnecting adapter is offered them anew); ack() removes them. Items are
// deduplicated by id, so a message re-sent with the same msg_id is one item.
// A claimed item (handed to the agent another way, e.g. woken through Claude
// Code's own socket, its outcome pending) is not offered by fetch(); it stays
// until acknowledged or released. Claims live in memory only.
// A message once written to the journal is kept only as its id and sender
// (the shared `from` object): `load` reads the rest back from its record.
// An item exists for its reader only once it is written: until then it is
// pending (it counts against the cap and its id is taken, but nothing offers
// it), and a write that failed takes it out again (abandon).

import type { InboxItem, InboxMessage } from '../protocol/results.js';

export type AddResult = 'added' | 'duplicate' | 'full';

/** A message's sender: the whole in-memory form of a message whose text is in the journal. */
export type Sender = InboxMessage['from'];

/** What an acknowledgement removed: the id, and the sender of a message (nothing is read back for it). */
export type Acked = { kind: 'message'; id: string; from: Sender } | { kind: 'receipt' | 'notice'; id: string };

/** An item in memory, or a written message held as its sender. */
type Slot = InboxItem | Sender;

const isItem = (slot: Slot): slot is InboxItem => (slot as Partial<InboxItem>).kind !== undefined;

export class Inbox {
  readonly #items = new Map<string, Slot>();
  readonly #cap: number;
  readonly #load: (id: string) => InboxItem;
  readonly #claimed = new Set<string>();
  /** Added, not yet in the journal: never offered, never acknowledged. */
  readonly #pending = new Set<string>();
  #messages = 0;

  /**
   * `load` reads a written message back (it throws when it cannot: never an empty item).
   * `written`: items already in the journal (a replay), kept as headers from the start.
   */
  constructor(cap: number, load: (id: string) => InboxItem, written?: Iterable<InboxItem>) {
    this.#cap = cap;
    this.#load = load;
    if (written)
      for (const item of written) {
        this.#items.set(item.id, item.kind === 'message' ? item.from : item);
        if (item.kind === 'message') this.#messages++;
      }
  }

  get size(): number {
    return this.#items.size;
  }

  /** Unread peer messages (receipts and notices excluded). */
  get unreadMessages(): number {
    return this.#messages;
  }

  has(id: string): boolean {
    return this.#items.has(id);
  }

  add(item: InboxItem): AddResult {
    if (this.#items.has(item.id)) return 'duplicate';
    if (this.#items.size >= this.#cap) return 'full';
    this.#items.set(item.id, item);
    this.#pending.add(item.id);
    if (item.kind === 'message') this.#messages++;
    return 'added';
  }

  /** `item` is in the journal now: it is offered from here on; a message keeps only its header in memory. */
  written(item: InboxItem): void {
    this.#pending.delete(item.id);
    if (item.kind === 'message' && this.#items.get(item.id) === item) this.#items.set(item.id, item.from);
  }

  /** Writing `item` to the journal failed: it never existed for its reader. */
  abandon(item: InboxItem): void {
    if (!this.#pending.delete(item.id) || this.#items.get(item.id) !== item) return;
    this.#items.delete(item.id);
    if (item.kind === 'message') this.#messages--;
  }

  /** The sender of the unread message `id`; undefined when there is none (nothing is read back). */
  sender(id: string): Sender | undefined {
    const slot = this.#items.get(id);
    if (slot === undefined || !isItem(slot)) return slot;
    return slot.kind === 'message' ? slot.from : undefined;
  }

  #item(id: string, slot: Slot): InboxItem {
    return isItem(slot) ? slot : this.#load(id);
  }

  /** Takes an item out of fetch() until it is acknowledged or released; false when absent or already claimed. */
  claim(id: string): boolean {
    if (!this.#items.has(id) || this.#pending.has(id) || this.#claimed.has(id)) return false;
    this.#claimed.add(id);
    return true;
  }

  release(id: string): void {
    this.#claimed.delete(id);
  }

  isClaimed(id: string): boolean {
    return this.#claimed.has(id);
  }

  /**
   * The oldest unclaimed items (`messagesOnly`: peer messages only), at most `limit`, read back as needed;
   * past `maxBytes` of their JSON no further item is added, but the first always is (an answer must fit a line:
   * nine messages of the largest size were one answer no client could read, so they could never be acknowledged).
   */
  fetch(limit: number, messagesOnly = false, maxBytes = Infinity): InboxItem[] {
    const out: InboxItem[] = [];
    let bytes = 0;
    for (const [id, slot] of this.#items) {
      if (out.length >= limit) break;
      if (this.#claimed.has(id) || this.#pending.has(id)) continue;
      if (messagesOnly && isItem(slot) && slot.kind !== 'message') continue;
      const item = this.#item(id, slot);
      if (Number.isFinite(maxBytes)) {
        bytes += Buffer.byteLength(JSON.stringify(item));
        if (bytes > maxBytes && out.length > 0) break;
      }
      out.push(item);
    }
    return out;
  }

  /** Ids and senders of the unclaimed peer messages, oldest first; nothing is read back. */
  *unclaimedSenders(): IterableIterator<{ id: string; from: Sender }> {
    for (const [id, slot] of this.#items) {
      if (this.#claimed.has(id) || this.#pending.has(id)) continue;
      if (!isItem(slot)) yield { id, from: slot };
      else if (slot.kind === 'message') yield { id, from: slot.from };
    }
  }

  /** The sender of every unread peer message (claimed ones included); nothing is read back. */
  *senders(): IterableIterator<Sender> {
    for (const slot of this.#items.values()) {
      if (!isItem(slot)) yield slot;
      else if (slot.kind === 'message') yield slot.from;
    }
  }

  /** Removes the given ids; returns what was present (nothing is read back). */
  ack(ids: readonly string[]): Acked[] {
    const removed: Acked[] = [];
    for (const id of ids) {
      const slot = this.#items.get(id);
      if (slot === undefined || this.#pending.has(id)) continue;
      this.#items.delete(id);
      this.#claimed.delete(id);
      if (!isItem(slot)) {
        this.#messages--;
        removed.push({ kind: 'message', id, from: slot });
      } else if (slot.kind === 'message') {
        this.#messages--;
        removed.push({ kind: 'message', id, from: slot.from });
      } else removed.push({ kind: slot.kind, id });
    }
    return removed;
  }
}
