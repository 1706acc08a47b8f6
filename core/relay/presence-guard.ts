// What a hub takes from other machines' presence traffic, which any peer on
// the broker can publish: a presence counts only on its own machine's
// subject, and at most MAX_REMOTE_MACHINES machines with
// MAX_REMOTE_SESSIONS sessions in all are kept (a flood of made-up machines
// grew a hub by hundreds of MB and stalled every presence). Presence
// queries are answered at most once a QUERY_ANSWER_MS, the later ones of a
// window by one answer at its end. Pure rules and a timer; no NATS here.

import { SUBJECTS, type Presence, type PresenceSession } from '../protocol/relay-wire.js';

/** Remote machines kept at once (a workplace's hubs, with room); presences of more are ignored. */
export const MAX_REMOTE_MACHINES = 64;
/** Remote sessions kept in all, as many as one hub may list (LIMITS.sessions). */
export const MAX_REMOTE_SESSIONS = 4096;
/** Presence queries are answered at most this often. */
export const QUERY_ANSWER_MS = 1000;

/** Why presence `p`, which arrived on `subject`, is not taken; undefined when it is. */
export function presenceRefusal(
  p: Presence,
  subject: string,
  remote: ReadonlyMap<string, { sessions: readonly PresenceSession[] }>,
): string | undefined {
  if (subject !== SUBJECTS.presence(p.machine)) return 'a presence for another machine';
  const known = remote.get(p.machine);
  if (known === undefined && remote.size >= MAX_REMOTE_MACHINES) return `more than ${MAX_REMOTE_MACHINES} machines`;
  let others = 0;
  for (const h of remote.values()) if (h !== known) others += h.sessions.length;
  if (others + p.sessions.length > MAX_REMOTE_SESSIONS) return `more than ${MAX_REMOTE_SESSIONS} remote sessions`;
  return undefined;
}

/** Runs `fn` at most once per `everyMs`; a call within the window runs it once at the window's end. */
export class Coalescer {
  readonly #fn: () => void;
  readonly #everyMs: number;
  readonly #now: () => number;
  #ranAt = -Infinity;
  #timer: NodeJS.Timeout | undefined;

  constructor(fn: () => void, everyMs: number, now: () => number) {
    this.#fn = fn;
    this.#everyMs = everyMs;
    this.#now = now;
  }

  call(): void {
    if (this.#timer !== undefined) return;
    const wait = this.#ranAt + this.#everyMs - this.#now();
    if (wait <= 0) return this.#run();
    this.#timer = setTimeout(() => this.#run(), wait);
    this.#timer.unref();
  }

  cancel(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #run(): void {
    this.#timer = undefined;
    this.#ranAt = this.#now();
    this.#fn();
  }
}
