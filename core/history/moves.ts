// The picture's live counts: while a user interface follows,
// each history record the recorder accepts becomes at most one move — a
// message counted on its edge, or one count moved between two outcomes — by
// the same rules the store applies to the file (a message once; an
// admission result only over `queued`; a receipt of HistoryStore.MOVES
// always). A record this cannot place (its message unknown here: recorded
// before a restart or before anyone followed, or forgotten past the bound)
// is a `reset`. Memory only, a bounded ring, no object per message; with
// nobody following, a message costs nothing.

import { randomUUID } from 'node:crypto';
import type { HistoryCursor, HistoryEdge, HistoryMove, HistoryRecord } from '../protocol/history.js';
import { HistoryStore } from './store.js';

/** A (sender, receiver) pair as the store groups messages, with the names its first message gave. */
interface Pair {
  from: HistoryEdge['from'];
  to: HistoryEdge['to'];
}

const RECEIPT_MOVES: ReadonlySet<string> = new Set(HistoryStore.MOVES);

export class MoveTracker {
  readonly #epoch = randomUUID();
  readonly #bound: number;
  readonly #emit: (m: HistoryMove) => void;
  readonly #wanted: () => boolean;
  #seq = 0;
  // Per message, in a ring of `bound` slots (no object per message: this runs on the send path).
  readonly #slot = new Map<string, number>();
  readonly #ids: Array<string | undefined>;
  readonly #at: Float64Array;
  readonly #pairOf: Int32Array;
  readonly #outcomeOf: Uint8Array;
  #next = 0;
  // Pairs and outcomes, interned.
  #pairs = new Map<string, Map<string, number>>(); // sender address → receiver session → pair
  #lastPair = -1; // a burst between two sessions looks up nothing
  #pairList: Pair[] = [];
  readonly #outcomes = new Map<string, number>();
  readonly #outcomeList: string[] = [];

  /** `bound`: how many messages are remembered (oldest forgotten first); moves are built only while `wanted()`. */
  constructor(bound: number, emit: (m: HistoryMove) => void, wanted: () => boolean = () => true) {
    this.#bound = bound;
    this.#emit = emit;
    this.#wanted = wanted;
    this.#ids = new Array<string | undefined>(bound);
    this.#at = new Float64Array(bound);
    this.#pairOf = new Int32Array(bound);
    this.#outcomeOf = new Uint8Array(bound);
  }

  /** Every move up to here has been emitted (`history.edges` answers with this). */
  cursor(): HistoryCursor {
    return { epoch: this.#epoch, seq: this.#seq };
  }

  /** A record the recorder queued for the store. */
  record(r: HistoryRecord): void {
    if (r.t === 'm') {
      // Nobody follows: nothing kept (the send path pays nothing); a follower fetches the counts when it comes.
      if (!this.#wanted() || this.#slot.has(r.msgId)) return; // the store keeps a message once (INSERT OR IGNORE)
      const slot = this.#next;
      this.#next = (slot + 1) % this.#bound;
      const old = this.#ids[slot];
      if (old !== undefined) this.#slot.delete(old);
      this.#ids[slot] = r.msgId;
      this.#slot.set(r.msgId, slot);
      this.#at[slot] = r.at;
      this.#pairOf[slot] = this.#pair(r);
      this.#outcomeOf[slot] = this.#outcome('queued');
      this.#move(slot, null);
      return;
    }
    if (r.t === 'x' || (r.t === 'e' && (r.kind !== 'receipt' || !RECEIPT_MOVES.has(r.status)))) return; // no count changes
    const slot = this.#slot.get(r.msgId);
    if (slot === undefined) return this.#wanted() ? this.reset() : undefined; // not known here: its row may have moved
    const current = this.#outcomeList[this.#outcomeOf[slot]!]!;
    if ((r.t === 'o' && current !== 'queued') || r.status === current) return;
    this.#outcomeOf[slot] = this.#outcome(r.status);
    this.#move(slot, current);
  }

  /** The counts changed in a way no move says: user interfaces fetch them again. */
  reset(): void {
    const seq = ++this.#seq;
    if (this.#wanted()) this.#emit({ epoch: this.#epoch, seq, kind: 'reset' });
  }

  #move(slot: number, previous: string | null): void {
    const seq = ++this.#seq;
    if (!this.#wanted()) return; // nobody follows: the number still counts, so a late follower sees the gap
    const pair = this.#pairList[this.#pairOf[slot]!]!;
    this.#emit({
      epoch: this.#epoch,
      seq,
      kind: 'count',
      msgId: this.#ids[slot]!,
      at: this.#at[slot]!,
      from: pair.from,
      to: pair.to,
      outcome: this.#outcomeList[this.#outcomeOf[slot]!]!,
      previous,
    });
  }

  #pair(r: Extract<HistoryRecord, { t: 'm' }>): number {
    const last = this.#pairList[this.#lastPair];
    if (
      last !== undefined &&
      last.to.sessionId === r.receiverSession &&
      last.from.address === r.senderAddress &&
      last.from.sessionId === r.senderSession
    )
      return this.#lastPair;
    let toMap = this.#pairs.get(r.senderAddress);
    if (toMap === undefined) this.#pairs.set(r.senderAddress, (toMap = new Map<string, number>()));
    const key = `${r.receiverSession}\u0000${r.senderSession ?? ''}`; // the store's grouping: sender session and address, receiver
    let id = toMap.get(key);
    if (id === undefined) {
      if (this.#pairList.length >= this.#bound) {
        this.#forget();
        return this.#pair(r);
      }
      id = this.#pairList.length;
      toMap.set(key, id);
      this.#pairList.push({
        from: { sessionId: r.senderSession, name: r.senderName, address: r.senderAddress, team: r.senderTeam },
        to: { sessionId: r.receiverSession, name: r.receiverName, team: r.receiverTeam },
      });
    }
    return (this.#lastPair = id);
  }

  #outcome(status: string): number {
    let i = this.#outcomes.get(status);
    if (i === undefined) {
      if (this.#outcomeList.length > 255) return this.#outcome('queued'); // never: statuses are a closed vocabulary
      i = this.#outcomeList.length;
      this.#outcomes.set(status, i);
      this.#outcomeList.push(status);
    }
    return i;
  }

  /** More distinct pairs than messages remembered: start over (the messages known so far are forgotten). */
  #forget(): void {
    this.#pairs = new Map();
    this.#pairList = [];
    this.#lastPair = -1;
    this.#slot.clear();
    this.#ids.fill(undefined);
  }
}
