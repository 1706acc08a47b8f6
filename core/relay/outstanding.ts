// Messages this hub sent to other machines whose receipts may still come.
// Any peer on the broker can publish on our receipt subject: a receipt
// counts only when it answers a message we sent, from the sender it names,
// to the machine it comes from. Forged ones ("approved by its user",
// reasons with instructions in them, a thousand of them to fill an inbox)
// are dropped. An entry ends at the message's final receipt, after
// OUTSTANDING_MS, or when OUTSTANDING_MAX newer ones pushed it out. Each
// entry is journaled (`ro`, ended by `rox`), so receipts of sends made
// before a restart still count after it. A send the relay's store keeps
// for a machine that is away also remembers where it is in the stream and
// when it expires (`stored`), so its hub can tell the sender `expired`
// once it is sure nobody took it (remote-machines.ts).

import type { RelayOutRecord, StoredSend } from '../journal/records.js';
import type { RelayReceipt } from '../protocol/relay-wire.js';

/** How long a receipt may come after its send (a held message may wait days for its user). */
export const OUTSTANDING_MS = 7 * 24 * 3600_000;
/** Sends remembered at once. */
export const OUTSTANDING_MAX = 10_000;
/** Receipts after which nothing more comes for that message. */
const FINAL = new Set<RelayReceipt['status']>(['delivered', 'denied', 'refused', 'expired', 'dropped']);

/** Where entries are kept across restarts (the journal). */
export interface OutstandingStore {
  /** Resolves once the entry is durable. */
  added(out: RelayOutRecord): Promise<void>;
  ended(msgIds: string[]): void;
}

const memoryOnly: OutstandingStore = { added: () => Promise.resolve(), ended: () => undefined };

interface Entry {
  senderId: string;
  machine: string;
  /** Monotonic end. */
  until: number;
  stored?: StoredSend;
}

export class OutstandingSends {
  readonly #sends = new Map<string, Entry>();
  readonly #now: () => number;
  readonly #wallNow: () => number;
  readonly #store: OutstandingStore;

  /** `now`: monotonic milliseconds; `wallNow`: epoch milliseconds (what the journal keeps). */
  constructor(now: () => number, wallNow: () => number = Date.now, store: OutstandingStore = memoryOnly) {
    this.#now = now;
    this.#wallNow = wallNow;
    this.#store = store;
  }

  get size(): number {
    return this.#sends.size;
  }

  /** Sends journaled before a restart: those still within their time come back, the rest end. */
  restore(records: Iterable<RelayOutRecord>): void {
    const ended: string[] = [];
    const wall = this.#wallNow();
    for (const r of records) {
      if (r.untilAt <= wall) ended.push(r.msgId);
      else
        this.#put(r.msgId, {
          senderId: r.senderId,
          machine: r.machine,
          until: this.#now() + (r.untilAt - wall),
          ...(r.stored !== undefined ? { stored: r.stored } : {}),
        });
    }
    if (ended.length > 0) this.#store.ended(ended);
  }

  /** Before the message leaves (its first receipt can come before the answer); resolves once it is durable. */
  add(msgId: string, senderId: string, machine: string): Promise<void> {
    this.#put(msgId, { senderId, machine, until: this.#now() + OUTSTANDING_MS });
    return this.#store.added({ msgId, senderId, machine, untilAt: this.#wallNow() + OUTSTANDING_MS });
  }

  /** The store kept it (or, with undefined, no longer does: a hub took it); journaled again with that. */
  stored(msgId: string, stored: StoredSend | undefined): Promise<void> {
    const e = this.#sends.get(msgId);
    if (e === undefined) return Promise.resolve();
    if (stored === undefined) delete e.stored;
    else e.stored = stored;
    const untilAt = this.#wallNow() + (e.until - this.#now());
    return this.#store.added({
      msgId,
      senderId: e.senderId,
      machine: e.machine,
      untilAt,
      ...(e.stored ? { stored: e.stored } : {}),
    });
  }

  /** Stored sends past their end by `graceMs` (wall clock): whether anybody took each is for the store to say. */
  storedDue(graceMs: number): Array<{ msgId: string; senderId: string; machine: string; stored: StoredSend }> {
    const wall = this.#wallNow() - graceMs;
    const due = [];
    for (const [msgId, e] of this.#sends)
      if (e.stored !== undefined && e.stored.expiresAt <= wall)
        due.push({ msgId, senderId: e.senderId, machine: e.machine, stored: e.stored });
    return due;
  }

  /** The message never arrived (an error answer): no receipt can be for it. */
  forget(msgId: string): void {
    if (this.#sends.delete(msgId)) this.#store.ended([msgId]);
  }

  /** Whether `r` answers a message we sent; a final one ends its entry. */
  accept(r: RelayReceipt): boolean {
    const s = this.#sends.get(r.origMsgId);
    if (s === undefined || s.senderId !== r.senderSessionId || s.machine !== r.receiver.machine) return false;
    if (s.until <= this.#now()) {
      this.forget(r.origMsgId);
      return false;
    }
    if (FINAL.has(r.status)) this.forget(r.origMsgId);
    return true;
  }

  #put(msgId: string, e: Entry): void {
    this.#sends.delete(msgId);
    if (this.#sends.size >= OUTSTANDING_MAX) this.forget(this.#sends.keys().next().value as string);
    this.#sends.set(msgId, e);
  }
}
