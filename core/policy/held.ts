// Messages the inbound policy parked for the receiver's user (docs/design.md#8-held-messages).
// At most `cap` per receiver: adding one more evicts the oldest (reported as
// expired). A deadline runs on the monotonic clock only while a user
// interface is attached (a headless hub keeps them held). Pure state; the
// hub turns what this returns into deliveries and receipts.

import type { Envelope } from '../delivery/envelope.js';

export interface HeldEntry {
  /** What a person approves or denies: unique among all held entries (admission.ts picks it). */
  id: string;
  receiverId: string;
  env: Envelope;
  reason: string;
  heldAt: number;
  /** Monotonic deadline, or null while no interface is attached or expiry is "never". */
  deadline: number | null;
}

export class HeldQueue {
  readonly #byReceiver = new Map<string, Map<string, HeldEntry>>();
  readonly #cap: number;
  readonly #now: () => number;

  constructor(cap: number, monotonicNow: () => number) {
    this.#cap = cap;
    this.#now = monotonicNow;
  }

  get size(): number {
    let n = 0;
    for (const m of this.#byReceiver.values()) n += m.size;
    return n;
  }

  /** Adds an entry; returns the entry evicted to stay within the cap, if any. */
  add(entry: HeldEntry): HeldEntry | undefined {
    let m = this.#byReceiver.get(entry.receiverId);
    if (m === undefined) this.#byReceiver.set(entry.receiverId, (m = new Map<string, HeldEntry>()));
    let evicted: HeldEntry | undefined;
    if (m.size >= this.#cap) {
      const oldest = m.values().next().value as HeldEntry;
      m.delete(oldest.id);
      evicted = oldest;
    }
    m.set(entry.id, entry);
    return evicted;
  }

  get(id: string): HeldEntry | undefined {
    for (const m of this.#byReceiver.values()) {
      const e = m.get(id);
      if (e !== undefined) return e;
    }
    return undefined;
  }

  /** Whether the receiver holds a message with this msg_id (whatever its held id). */
  holds(receiverId: string, msgId: string): boolean {
    for (const e of this.#byReceiver.get(receiverId)?.values() ?? []) if (e.env.msgId === msgId) return true;
    return false;
  }

  take(id: string): HeldEntry | undefined {
    for (const [rid, m] of this.#byReceiver) {
      const e = m.get(id);
      if (e !== undefined) {
        m.delete(id);
        if (m.size === 0) this.#byReceiver.delete(rid);
        return e;
      }
    }
    return undefined;
  }

  forReceiver(receiverId: string): HeldEntry[] {
    return [...(this.#byReceiver.get(receiverId)?.values() ?? [])];
  }

  all(): HeldEntry[] {
    return [...this.#byReceiver.values()].flatMap((m) => [...m.values()]);
  }

  /** Gives every entry without a deadline one, `expiryMs` from now (null: never). */
  startCountdowns(expiryMs: number | null): void {
    if (expiryMs === null) return;
    const deadline = this.#now() + expiryMs;
    for (const m of this.#byReceiver.values()) for (const e of m.values()) e.deadline ??= deadline;
  }

  /** Removes and returns the entries whose deadline has passed. */
  takeExpired(): HeldEntry[] {
    const now = this.#now();
    const out: HeldEntry[] = [];
    for (const [rid, m] of this.#byReceiver) {
      for (const e of m.values()) {
        if (e.deadline !== null && e.deadline <= now) {
          m.delete(e.id);
          out.push(e);
        }
      }
      if (m.size === 0) this.#byReceiver.delete(rid);
    }
    return out;
  }

  /** Milliseconds left on an entry's countdown, or null when it has none. */
  remainingMs(e: HeldEntry): number | null {
    return e.deadline === null ? null : Math.max(0, e.deadline - this.#now());
  }
}
