// Machines that are away: seen on the relay, now silent (a laptop asleep,
// a hub stopped). While the relay stores mail (store mode), their sessions
// stay listed as they were last reachable, marked away since the moment
// they went, so a sender can still address them by name or by the address
// it pinned; its message is then stored. A machine that comes back replaces
// its rows with its own presence. At most AWAY_MAX machines are kept, for
// at most STORE_MS (after that, mail for them would expire anyway). Memory
// only: after a restart of this hub, an away machine is addressed by its
// peer: address until it is back.

import { STORE_MS, type PresenceSession } from '../protocol/relay-wire.js';

export const AWAY_MAX = 64;

export interface AwayMachine {
  machine: string;
  sessions: PresenceSession[];
  /** Epoch ms. */
  since: number;
}

export class AwayMachines {
  /** The last non-empty session list of each machine seen (a leaving hub announces an empty one). */
  readonly #last = new Map<string, PresenceSession[]>();
  readonly #away = new Map<string, AwayMachine>();

  /** `present`: the machines whose presence is current, with their sessions; `now`: epoch ms. */
  update(present: ReadonlyArray<{ machine: string; sessions: PresenceSession[] }>, now: number): void {
    const here = new Set<string>();
    for (const h of present) {
      if (h.sessions.length === 0) continue; // leaving, or nothing to list: what it had stays its last
      here.add(h.machine);
      this.#last.delete(h.machine);
      this.#last.set(h.machine, h.sessions);
      this.#away.delete(h.machine);
    }
    for (const [machine, sessions] of this.#last)
      if (!here.has(machine) && !this.#away.has(machine)) this.#away.set(machine, { machine, sessions, since: now });
    for (const [machine, a] of this.#away) if (now - a.since > STORE_MS) this.#forget(machine);
    while (this.#away.size > AWAY_MAX) this.#forget(this.#away.keys().next().value as string);
  }

  list(): AwayMachine[] {
    return [...this.#away.values()];
  }

  clear(): void {
    this.#last.clear();
    this.#away.clear();
  }

  #forget(machine: string): void {
    this.#last.delete(machine);
    this.#away.delete(machine);
  }
}
