// Messages this hub sent to other machines whose receipts may still come.
// Any peer on the broker can publish on our receipt subject: a receipt
// counts only when it answers a message we sent, from the sender it names,
// to the machine it comes from. Forged ones ("approved by its user",
// reasons with instructions in them, a thousand of them to fill an inbox)
// are dropped. An entry ends at the message's final receipt, after
// OUTSTANDING_MS, or when OUTSTANDING_MAX newer ones pushed it out. In
// memory only: after a restart, receipts of earlier sends are dropped too.

import type { RelayReceipt } from '../protocol/relay-wire.js';

/** How long a receipt may come after its send (a held message may wait days for its user). */
export const OUTSTANDING_MS = 7 * 24 * 3600_000;
/** Sends remembered at once. */
export const OUTSTANDING_MAX = 10_000;
/** Receipts after which nothing more comes for that message. */
const FINAL = new Set<RelayReceipt['status']>(['delivered', 'denied', 'refused', 'expired', 'dropped']);

export class OutstandingSends {
  readonly #sends = new Map<string, { senderId: string; machine: string; until: number }>();
  readonly #now: () => number;

  /** `now`: monotonic milliseconds. */
  constructor(now: () => number) {
    this.#now = now;
  }

  get size(): number {
    return this.#sends.size;
  }

  /** Before the message leaves (its first receipt can come before the answer). */
  add(msgId: string, senderId: string, machine: string): void {
    this.#sends.delete(msgId);
    if (this.#sends.size >= OUTSTANDING_MAX) this.#sends.delete(this.#sends.keys().next().value as string);
    this.#sends.set(msgId, { senderId, machine, until: this.#now() + OUTSTANDING_MS });
  }

  /** The message never arrived (an error answer): no receipt can be for it. */
  forget(msgId: string): void {
    this.#sends.delete(msgId);
  }

  /** Whether `r` answers a message we sent; a final one ends its entry. */
  accept(r: RelayReceipt): boolean {
    const s = this.#sends.get(r.origMsgId);
    if (s === undefined || s.senderId !== r.senderSessionId || s.machine !== r.receiver.machine) return false;
    if (s.until <= this.#now()) {
      this.#sends.delete(r.origMsgId);
      return false;
    }
    if (FINAL.has(r.status)) this.#sends.delete(r.origMsgId);
    return true;
  }
}
