// Other machines' hubs as their presences last said, each listed until its
// time runs out (the sender's presenceSeconds). One timer for the earliest
// to run out, re-armed when it fires, and none while no machine is listed:
// an idle hub with a relay and no peers is not woken by it.

import type { PresenceSession } from '../protocol/relay-wire.js';

export interface RemoteHub {
  machine: string;
  hubId: string;
  sessions: PresenceSession[];
  expiresAt: number;
}

export class Presences {
  readonly #now: () => number;
  readonly #changed: () => void;
  readonly #hubs = new Map<string, RemoteHub>();
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  /** `now`: monotonic milliseconds; `changed`: a machine's hub came, went or ran out. */
  constructor(now: () => number, changed: () => void) {
    this.#now = now;
    this.#changed = changed;
  }

  /** Every listed hub, by machine (the presence guard reads it). */
  get map(): ReadonlyMap<string, RemoteHub> {
    return this.#hubs;
  }

  /** The hubs whose presence has not run out. */
  live(): RemoteHub[] {
    const now = this.#now();
    return [...this.#hubs.values()].filter((h) => h.expiresAt > now);
  }

  /** A presence: listed for `ttlMs` from now. */
  set(hub: Omit<RemoteHub, 'expiresAt'>, ttlMs: number): void {
    this.#hubs.set(hub.machine, { ...hub, expiresAt: this.#now() + ttlMs });
    if (this.#timer === undefined) this.#arm(); // a later expiry than the one armed waits for that one to fire
    this.#changed();
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #expire(): void {
    const now = this.#now();
    let changed = false;
    for (const [machine, h] of this.#hubs)
      if (h.expiresAt <= now) {
        this.#hubs.delete(machine);
        changed = true;
      }
    if (changed) this.#changed();
    this.#arm();
  }

  #arm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    let first: number | undefined;
    for (const h of this.#hubs.values()) if (first === undefined || h.expiresAt < first) first = h.expiresAt;
    if (first === undefined || this.#closed) return;
    this.#timer = setTimeout(() => this.#expire(), Math.max(0, first - this.#now()));
    this.#timer.unref();
  }
}
