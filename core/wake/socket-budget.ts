// How many messages Switchboard may write to one Claude Code session's own
// messaging socket, kept inside Claude Code's receiver throttle
// (docs/claude-code-formats.md#5-cross-session-messaging: per sender a bucket of 30 refilled at 0.5 a second, and an identical
// text repeated within 30 s dropped). All of one hub's writes to a session
// share one `from`, so they are one sender there. A message this budget
// refuses stays in the inbox for the session's next hook (never written, so
// never dropped unseen). Pure: the clock is passed in.

import { createHash } from 'node:crypto';

export interface SocketBudgetLimits {
  /** Writes in a burst (Claude Code's bucket holds 30). */
  readonly burst: number;
  /** Writes regained per second (Claude Code refills 0.5). */
  readonly perSecond: number;
  /** An identical text is not written again for this long (Claude Code drops repeats within 30 s). */
  readonly repeatMs: number;
}

interface Bucket {
  tokens: number;
  at: number;
  /** sha-256 of a written text → when. */
  recent: Map<string, number>;
}

export class SocketBudget {
  readonly #limits: () => SocketBudgetLimits;
  readonly #buckets = new Map<string, Bucket>();

  constructor(limits: () => SocketBudgetLimits) {
    this.#limits = limits;
  }

  /** Writes this session's socket can take now. */
  available(sessionId: string, now: number): number {
    return Math.floor(this.#bucket(sessionId, now).tokens);
  }

  /** Spends one write on this text, or says why not (nothing spent): none left, or the same text went recently. */
  take(sessionId: string, text: string, now: number): 'taken' | 'empty' | 'repeat' {
    const b = this.#bucket(sessionId, now);
    if (b.tokens < 1) return 'empty';
    const key = createHash('sha256').update(text).digest('base64');
    if (b.recent.has(key)) return 'repeat';
    b.tokens -= 1;
    b.recent.set(key, now);
    return 'taken';
  }

  forget(sessionId: string): void {
    this.#buckets.delete(sessionId);
  }

  #bucket(sessionId: string, now: number): Bucket {
    const l = this.#limits();
    let b = this.#buckets.get(sessionId);
    if (b === undefined) {
      b = { tokens: l.burst, at: now, recent: new Map() };
      this.#buckets.set(sessionId, b);
    }
    b.tokens = Math.min(l.burst, b.tokens + (Math.max(0, now - b.at) / 1000) * l.perSecond);
    b.at = now;
    for (const [key, at] of b.recent) {
      if (now - at < l.repeatMs) break; // insertion order is time order
      b.recent.delete(key);
    }
    return b;
  }
}
