// Every session's inbox, made durable by the journal. put() resolves only
// after the item is written, so `queued` is never answered for something a
// crash could lose. Listeners hear about each added item (push
// notifications, waiting fetches). Knows nothing about sockets or policy.
// Once written, a message's text lives only in the journal (inbox.ts): what
// is handed over is read back from there. The moment an item becomes
// fetchable (added, released) the session's "nothing pending" mark is
// revoked, before anything can answer (quiet-marks.ts).

import type { Journal } from '../journal/journal.js';
import type { InboxItem } from '../protocol/methods.js';
import { Inbox, type Acked, type AddResult, type Sender } from './inbox.js';
import type { QuietPort } from './quiet-marks.js';

export type ItemListener = (sessionId: string, item: InboxItem) => void;

export class Mailboxes {
  readonly #inboxes = new Map<string, Inbox>();
  readonly #journal: Pick<Journal, 'append' | 'readItem'>;
  readonly #cap: number;
  readonly #listeners = new Set<ItemListener>();
  readonly #quiet: QuietPort | undefined;

  /** `initial`: the journal's replayed items (written, so only their headers stay in memory). */
  constructor(
    journal: Pick<Journal, 'append' | 'readItem'>,
    cap: number,
    initial: Map<string, Map<string, InboxItem>>,
    quiet?: QuietPort,
  ) {
    this.#journal = journal;
    this.#cap = cap;
    this.#quiet = quiet;
    for (const [id, items] of initial) this.#inboxes.set(id, this.#newInbox(id, items.values()));
  }

  #newInbox(sessionId: string, written?: Iterable<InboxItem>): Inbox {
    return new Inbox(this.#cap, (itemId) => this.#journal.readItem(sessionId, itemId), written);
  }

  onItem(listener: ItemListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  inbox(sessionId: string): Inbox {
    let inbox = this.#inboxes.get(sessionId);
    if (inbox === undefined) this.#inboxes.set(sessionId, (inbox = this.#newInbox(sessionId)));
    return inbox;
  }

  depth(sessionId: string): number {
    return this.#inboxes.get(sessionId)?.size ?? 0;
  }

  put(sessionId: string, item: InboxItem): Promise<AddResult> {
    const inbox = this.inbox(sessionId);
    const result = inbox.add(item);
    if (result !== 'added') return Promise.resolve(result);
    this.#quiet?.revoke(sessionId); // fetchable from now on
    return this.#journal.append({ t: 'i', id: sessionId, item }).then(
      () => {
        inbox.written(item); // listeners still get the whole item
        for (const l of this.#listeners) l(sessionId, item);
        return result;
      },
      (err: unknown) => {
        inbox.abandon(item); // not journaled: it never existed for the reader (the caller answers the error)
        throw err;
      },
    );
  }

  /**
   * Read back from the journal where only headers are in memory (a JournalReadError when it cannot be);
   * at most `maxBytes` of items' JSON beyond the first (Inbox.fetch).
   */
  fetch(sessionId: string, limit: number, maxBytes?: number): InboxItem[] {
    return this.#inboxes.get(sessionId)?.fetch(limit, false, maxBytes) ?? [];
  }

  /** See Inbox.claim: the item is not fetched until acknowledged or released. */
  claim(sessionId: string, id: string): boolean {
    return this.#inboxes.get(sessionId)?.claim(id) ?? false;
  }

  release(sessionId: string, id: string): void {
    this.#inboxes.get(sessionId)?.release(id);
    this.#quiet?.revoke(sessionId);
  }

  /** Unread, unclaimed peer messages of a session, oldest first (at most `limit`), read back as needed. */
  unclaimedMessages(sessionId: string, limit: number): InboxItem[] {
    return this.#inboxes.get(sessionId)?.fetch(limit, true) ?? [];
  }

  /** Ids and senders of a session's unread, unclaimed peer messages; no text is read back. */
  unclaimedSenders(sessionId: string): Array<{ id: string; from: Sender }> {
    const inbox = this.#inboxes.get(sessionId);
    return inbox === undefined ? [] : [...inbox.unclaimedSenders()];
  }

  /** The sender of a session's unread message `id`, or undefined (no text is read back). */
  sender(sessionId: string, id: string): Sender | undefined {
    return this.#inboxes.get(sessionId)?.sender(id);
  }

  /** Removes acknowledged items; resolves with the ids (and senders) of those that were present. */
  async ack(sessionId: string, ids: readonly string[]): Promise<Acked[]> {
    const removed = this.#inboxes.get(sessionId)?.ack(ids) ?? [];
    if (removed.length > 0) await this.#journal.append({ t: 'a', id: sessionId, ids: removed.map((i) => i.id) });
    return removed;
  }

  /** Forgets a session's inbox for good (dormant retention passed). */
  async drop(sessionId: string): Promise<void> {
    this.#inboxes.delete(sessionId);
    await this.#journal.append({ t: 'd', id: sessionId });
  }

  get totalItems(): number {
    let n = 0;
    for (const inbox of this.#inboxes.values()) n += inbox.size;
    return n;
  }
}
