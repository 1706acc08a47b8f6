// Every session's inbox, made durable by the journal. put() resolves only
// after the item is written, so `queued` is never answered for something a
// crash could lose. Listeners hear about each added item (push
// notifications, waiting fetches). Knows nothing about sockets or policy.
// The moment an item becomes fetchable (added, released) the session's
// "nothing pending" mark is revoked, before anything can answer (quiet-marks.ts).

import type { Journal } from '../journal/journal.js';
import type { InboxItem } from '../protocol/methods.js';
import { Inbox, type AddResult } from './inbox.js';
import type { QuietPort } from './quiet-marks.js';

export type ItemListener = (sessionId: string, item: InboxItem) => void;

export class Mailboxes {
  readonly #inboxes = new Map<string, Inbox>();
  readonly #journal: Pick<Journal, 'append'>;
  readonly #cap: number;
  readonly #listeners = new Set<ItemListener>();
  readonly #quiet: QuietPort | undefined;

  constructor(
    journal: Pick<Journal, 'append'>,
    cap: number,
    initial: Map<string, Map<string, InboxItem>>,
    quiet?: QuietPort,
  ) {
    this.#journal = journal;
    this.#cap = cap;
    this.#quiet = quiet;
    for (const [id, items] of initial) this.#inboxes.set(id, new Inbox(cap, items.values()));
  }

  onItem(listener: ItemListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  inbox(sessionId: string): Inbox {
    let inbox = this.#inboxes.get(sessionId);
    if (inbox === undefined) this.#inboxes.set(sessionId, (inbox = new Inbox(this.#cap)));
    return inbox;
  }

  depth(sessionId: string): number {
    return this.#inboxes.get(sessionId)?.size ?? 0;
  }

  put(sessionId: string, item: InboxItem): Promise<AddResult> {
    const result = this.inbox(sessionId).add(item);
    if (result !== 'added') return Promise.resolve(result);
    this.#quiet?.revoke(sessionId); // fetchable from now on
    return this.#journal.append({ t: 'i', id: sessionId, item }).then(() => {
      for (const l of this.#listeners) l(sessionId, item);
      return result;
    });
  }

  fetch(sessionId: string, limit: number): InboxItem[] {
    return this.#inboxes.get(sessionId)?.fetch(limit) ?? [];
  }

  /** See Inbox.claim: the item is not fetched until acknowledged or released. */
  claim(sessionId: string, id: string): boolean {
    return this.#inboxes.get(sessionId)?.claim(id) ?? false;
  }

  release(sessionId: string, id: string): void {
    this.#inboxes.get(sessionId)?.release(id);
    this.#quiet?.revoke(sessionId);
  }

  /** Unread, unclaimed peer messages of a session, oldest first (at most `limit`). */
  unclaimedMessages(sessionId: string, limit: number): InboxItem[] {
    const out: InboxItem[] = [];
    const inbox = this.#inboxes.get(sessionId);
    if (inbox === undefined) return out;
    for (const item of inbox.values()) {
      if (out.length >= limit) break;
      if (item.kind === 'message' && !inbox.isClaimed(item.id)) out.push(item);
    }
    return out;
  }

  /** Removes acknowledged items; resolves with those that were present. */
  async ack(sessionId: string, ids: readonly string[]): Promise<InboxItem[]> {
    const removed = this.#inboxes.get(sessionId)?.ack(ids) ?? [];
    if (removed.length > 0) await this.#journal.append({ t: 'a', id: sessionId, ids: removed.map((i) => i.id) });
    return removed;
  }

  /** Forgets a session's inbox for good (dormant retention passed). */
  async drop(sessionId: string): Promise<void> {
    this.#inboxes.delete(sessionId);
    await this.#journal.append({ t: 'd', id: sessionId });
  }

  *records(): Iterable<{ sessionId: string; item: InboxItem }> {
    for (const [sessionId, inbox] of this.#inboxes) for (const item of inbox.values()) yield { sessionId, item };
  }

  get totalItems(): number {
    let n = 0;
    for (const inbox of this.#inboxes.values()) n += inbox.size;
    return n;
  }
}
