// Receipts for senders on other machines, until a hub of that machine took
// them. Each is journaled first (`rr`, ended by `rrx`) so a restart keeps
// it; they go out in order, one at a time; one that nobody took (the broker
// or that machine away) waits, with that machine's later ones behind it,
// until the relay connects again or a machine announces itself. At most PENDING_MAX are
// kept; beyond that the oldest is given up (logged): a receipt lost, never
// a message.

import { randomUUID } from 'node:crypto';
import type { RelayReceiptRecord } from '../journal/records.js';
import type { RelayReceipt } from '../protocol/relay-wire.js';

export const PENDING_MAX = 10_000;

/** Where pending receipts are kept across restarts (the journal). */
export interface PendingStore {
  added(rr: RelayReceiptRecord): void;
  ended(ids: string[]): void;
  gaveUp(count: number): void;
}

export class PendingReceipts {
  readonly #items = new Map<string, { machine: string; receipt: RelayReceipt }>();
  readonly #store: PendingStore;

  constructor(store: PendingStore) {
    this.#store = store;
  }

  get size(): number {
    return this.#items.size;
  }

  restore(records: Iterable<RelayReceiptRecord>): void {
    for (const r of records) this.#items.set(r.id, { machine: r.machine, receipt: r.receipt });
  }

  add(machine: string, receipt: RelayReceipt): void {
    if (this.#items.size >= PENDING_MAX) {
      const oldest = this.#items.keys().next().value as string;
      this.#items.delete(oldest);
      this.#store.ended([oldest]);
      this.#store.gaveUp(1);
    }
    const id = randomUUID();
    this.#items.set(id, { machine, receipt });
    this.#store.added({ id, machine, receipt });
  }

  /**
   * Sends them in order while `send` says they were taken; one flush at a time. A call during a flush joins it and
   * makes it go round once more (receipts added meanwhile were not in its pass, and would wait for the next event).
   */
  flush(send: (machine: string, receipt: RelayReceipt) => Promise<boolean>): Promise<void> {
    if (this.#flushing !== undefined) {
      this.#again = true;
      return this.#flushing;
    }
    this.#flushing = (async () => {
      do {
        this.#again = false;
        await this.#flush(send);
      } while (this.#again);
    })().finally(() => (this.#flushing = undefined));
    return this.#flushing;
  }

  #flushing: Promise<void> | undefined;
  #again = false;

  async #flush(send: (machine: string, receipt: RelayReceipt) => Promise<boolean>): Promise<void> {
    const away = new Set<string>(); // a machine that did not take one: its later ones wait behind it, others go on
    for (const [id, p] of [...this.#items]) {
      if (away.has(p.machine)) continue;
      if (!(await send(p.machine, p.receipt))) away.add(p.machine);
      else if (this.#items.delete(id)) this.#store.ended([id]);
    }
  }
}
