// Who may use the web UI server. A request is authorised by the UI token in
// an `Authorization: Bearer` header, never by a cookie: browsers send a
// 127.0.0.1 cookie to every port on the machine, so a cookie would hand the
// token to any local server the user's browser talks to. EventSource cannot
// set headers, so a page trades its token for a one-time ticket that expires
// within seconds (see docs/decisions.md, "D-105: The event stream uses one-time tickets").
// Tickets live only in memory; secrets are compared in constant time.

import { randomBytes } from 'node:crypto';
import type http from 'node:http';

export function bearerOf(req: http.IncomingMessage): string | undefined {
  return /^Bearer ([\x21-\x7e]{1,256})$/.exec(req.headers.authorization ?? '')?.[1];
}

export interface TicketOptions {
  ttlMs: number;
  max: number;
  now?: () => number;
}

/** One-time, short-lived event-stream tickets, bounded in number. */
export class Tickets {
  readonly #live = new Map<string, number>(); // ticket → expiry; insertion order is age
  readonly #opts: TicketOptions;
  readonly #now: () => number;

  constructor(opts: TicketOptions) {
    this.#opts = opts;
    this.#now = opts.now ?? (() => performance.now());
  }

  issue(): { ticket: string; expiresInMs: number } {
    this.#sweep();
    while (this.#live.size >= this.#opts.max) this.#live.delete(this.#live.keys().next().value as string);
    const ticket = randomBytes(24).toString('hex');
    this.#live.set(ticket, this.#now() + this.#opts.ttlMs);
    return { ticket, expiresInMs: this.#opts.ttlMs };
  }

  /** True once for a live ticket: it is spent whether or not it was still valid. */
  take(given: string | null): boolean {
    if (given === null || !/^[0-9a-f]{48}$/.test(given)) return false;
    const expires = this.#live.get(given); // a Map lookup by key: no secret-dependent comparison of our own
    if (expires === undefined) return false;
    this.#live.delete(given);
    return this.#now() < expires;
  }

  get size(): number {
    this.#sweep();
    return this.#live.size;
  }

  #sweep(): void {
    const now = this.#now();
    for (const [t, exp] of this.#live) if (exp <= now) this.#live.delete(t);
  }
}
