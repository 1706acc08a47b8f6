// Loop damping per (receiver, sender) (DESIGN.md §7): an identical repeat
// within the duplicate window is `duplicate`; a token bucket limits the rate
// (`rate-limited`); a receiver with too many unread peer messages is
// `queue-full`. Drop reports are folded to at most one per sender per
// window, with a count. Pure state on an injected monotonic clock; bounded.

import type { ThrottleSettings } from '../settings/schema.js';

export type DropReason = 'duplicate' | 'rate-limited' | 'queue-full';

interface PairState {
  lastBody: string | null;
  lastAt: number;
  tokens: number;
  refilledAt: number;
  foldStart: number;
  foldPending: number;
  foldReason: DropReason;
}

export interface FoldedDrop {
  receiverId: string;
  senderKey: string;
  count: number;
  reason: DropReason;
}

const MAX_SENDERS_PER_RECEIVER = 1000; // unverified writers could invent senders

export class Throttle {
  readonly #now: () => number;
  readonly #pairs = new Map<string, Map<string, PairState>>();

  constructor(now: () => number) {
    this.#now = now;
  }

  #state(receiverId: string, senderKey: string, s: Required<ThrottleSettings>): PairState {
    let senders = this.#pairs.get(receiverId);
    if (senders === undefined) this.#pairs.set(receiverId, (senders = new Map<string, PairState>()));
    let st = senders.get(senderKey);
    if (st === undefined) {
      if (senders.size >= MAX_SENDERS_PER_RECEIVER) senders.delete(senders.keys().next().value as string);
      st = { lastBody: null, lastAt: -Infinity, tokens: s.bucketSize, refilledAt: this.#now(), foldStart: -Infinity, foldPending: 0, foldReason: 'duplicate' };
      senders.set(senderKey, st);
    }
    return st;
  }

  /** Admits or drops one message; an admitted message is remembered and costs a token. */
  admit(receiverId: string, senderKey: string, body: string, unread: number, s: Required<ThrottleSettings>): DropReason | null {
    const st = this.#state(receiverId, senderKey, s);
    const now = this.#now();
    if (st.lastBody === body && now - st.lastAt < s.duplicateWindowMs) return 'duplicate';
    if (unread >= s.queueFullAt) return 'queue-full';
    st.tokens = Math.min(s.bucketSize, st.tokens + ((now - st.refilledAt) / 1000) * s.refillPerSecond);
    st.refilledAt = now;
    if (st.tokens < 1) return 'rate-limited';
    st.tokens -= 1;
    st.lastBody = body;
    st.lastAt = now;
    return null;
  }

  /**
   * Records a drop; returns the count to report now, or 0 when the report is
   * folded into a later one (see flush).
   */
  dropped(receiverId: string, senderKey: string, reason: DropReason, s: Required<ThrottleSettings>): number {
    const st = this.#state(receiverId, senderKey, s);
    const now = this.#now();
    st.foldReason = reason;
    if (now - st.foldStart >= s.foldWindowMs) {
      const count = st.foldPending + 1;
      st.foldStart = now;
      st.foldPending = 0;
      return count;
    }
    st.foldPending++;
    return 0;
  }

  /** Folded drops whose window has passed, to be reported now. */
  flush(foldWindowMs: (receiverId: string) => number): FoldedDrop[] {
    const now = this.#now();
    const out: FoldedDrop[] = [];
    for (const [receiverId, senders] of this.#pairs) {
      const w = foldWindowMs(receiverId);
      for (const [senderKey, st] of senders) {
        if (st.foldPending > 0 && now - st.foldStart >= w) {
          out.push({ receiverId, senderKey, count: st.foldPending, reason: st.foldReason });
          st.foldPending = 0;
          st.foldStart = now;
        }
      }
    }
    return out;
  }

  forget(receiverId: string): void {
    this.#pairs.delete(receiverId);
  }
}
