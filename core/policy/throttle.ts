// Loop damping per (receiver, sender) (docs/design.md#10-throttling): an identical repeat
// within the duplicate window is `duplicate`; a token bucket limits the rate
// (`rate-limited`); a receiver with too many unread peer messages is
// `queue-full`. Drop reports are folded to at most one per sender per
// window, with a count. Unverified socket writers choose their own `from`, so
// all of them share ONE bucket per receiver and at most WRITER_QUEUE_SHARE of
// its queue; their per-`from` state lives apart, so a flood of invented
// senders never evicts a verified sender's. Pure state on an injected
// monotonic clock; bounded.

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
/** Unverified writers together may fill at most this share of `queueFullAt`; verified senders keep the rest. */
export const WRITER_QUEUE_SHARE = 0.5;

/** An unverified writer's message: how many unread messages of unverified writers the receiver has. */
export interface WriterCount {
  unread: number;
}

interface Bucket {
  tokens: number;
  refilledAt: number;
}

/** The most unread messages of unverified writers a receiver takes. */
export function writerQueueCap(queueFullAt: number): number {
  return Math.max(1, Math.floor(queueFullAt * WRITER_QUEUE_SHARE));
}

export class Throttle {
  readonly #now: () => number;
  readonly #pairs = new Map<string, Map<string, PairState>>();
  /** Unverified writers' per-`from` state (duplicates, folding), apart from verified senders'. */
  readonly #writers = new Map<string, Map<string, PairState>>();
  /** The one rate bucket all unverified writers of a receiver share. */
  readonly #writerBuckets = new Map<string, Bucket>();

  constructor(now: () => number) {
    this.#now = now;
  }

  #state(receiverId: string, senderKey: string, s: Required<ThrottleSettings>, writer: boolean): PairState {
    const pairs = writer ? this.#writers : this.#pairs;
    let senders = pairs.get(receiverId);
    if (senders === undefined) pairs.set(receiverId, (senders = new Map<string, PairState>()));
    let st = senders.get(senderKey);
    if (st === undefined) {
      if (senders.size >= MAX_SENDERS_PER_RECEIVER) senders.delete(senders.keys().next().value as string);
      st = {
        lastBody: null,
        lastAt: -Infinity,
        tokens: s.bucketSize,
        refilledAt: this.#now(),
        foldStart: -Infinity,
        foldPending: 0,
        foldReason: 'duplicate',
      };
      senders.set(senderKey, st);
    }
    return st;
  }

  #writerBucket(receiverId: string, s: Required<ThrottleSettings>): Bucket {
    let b = this.#writerBuckets.get(receiverId);
    if (b === undefined) this.#writerBuckets.set(receiverId, (b = { tokens: s.bucketSize, refilledAt: this.#now() }));
    return b;
  }

  /**
   * Admits or drops one message; an admitted message is remembered and costs
   * a token. `writer` is given for an unverified socket writer: it then draws
   * on the receiver's shared writer bucket and writer share of the queue.
   */
  admit(
    receiverId: string,
    senderKey: string,
    body: string,
    unread: number,
    s: Required<ThrottleSettings>,
    writer?: WriterCount,
  ): DropReason | null {
    const st = this.#state(receiverId, senderKey, s, writer !== undefined);
    const now = this.#now();
    if (st.lastBody === body && now - st.lastAt < s.duplicateWindowMs) return 'duplicate';
    if (unread >= s.queueFullAt) return 'queue-full';
    if (writer !== undefined && writer.unread >= writerQueueCap(s.queueFullAt)) return 'queue-full';
    const bucket: Bucket = writer !== undefined ? this.#writerBucket(receiverId, s) : st;
    bucket.tokens = Math.min(s.bucketSize, bucket.tokens + ((now - bucket.refilledAt) / 1000) * s.refillPerSecond);
    bucket.refilledAt = now;
    if (bucket.tokens < 1) return 'rate-limited';
    bucket.tokens -= 1;
    st.lastBody = body;
    st.lastAt = now;
    return null;
  }

  /**
   * Records a drop; returns the count to report now, or 0 when the report is
   * folded into a later one (see flush).
   */
  dropped(
    receiverId: string,
    senderKey: string,
    reason: DropReason,
    s: Required<ThrottleSettings>,
    writer = false,
  ): number {
    const st = this.#state(receiverId, senderKey, s, writer);
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
    for (const [receiverId, senders] of [...this.#pairs, ...this.#writers]) {
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
    this.#writers.delete(receiverId);
    this.#writerBuckets.delete(receiverId);
  }
}
