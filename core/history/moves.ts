// The picture's live counts (issue 18): each history record the recorder
// accepts becomes at most one move — a message counted on its edge, or one
// count moved between two outcomes — by the same rules the store applies to
// the file (a message once; an admission result only over `queued`; a
// receipt of HistoryStore.MOVES always). A record this hub run cannot place
// (its message unknown here: recorded before a restart, or forgotten past
// the bound) is a `reset`. Memory only, bounded, O(1) per record.

import { randomUUID } from 'node:crypto';
import type { HistoryCursor, HistoryEdge, HistoryMove, HistoryRecord } from '../protocol/history.js';
import { HistoryStore } from './store.js';

interface Known {
  at: number;
  from: HistoryEdge['from'];
  to: HistoryEdge['to'];
  outcome: string;
}

type MoveBody =
  | {
      kind: 'count';
      msgId: string;
      at: number;
      from: Known['from'];
      to: Known['to'];
      outcome: string;
      previous: string | null;
    }
  | { kind: 'reset' };

export class MoveTracker {
  readonly #epoch = randomUUID();
  readonly #known = new Map<string, Known>();
  readonly #bound: number;
  readonly #emit: (m: HistoryMove) => void;
  #seq = 0;

  /** `bound`: how many messages are remembered (oldest forgotten first). */
  constructor(bound: number, emit: (m: HistoryMove) => void) {
    this.#bound = bound;
    this.#emit = emit;
  }

  /** Every move up to here has been emitted (`history.edges` answers with this). */
  cursor(): HistoryCursor {
    return { epoch: this.#epoch, seq: this.#seq };
  }

  /** A record the recorder queued for the store. */
  record(r: HistoryRecord): void {
    if (r.t === 'm') {
      if (this.#known.has(r.msgId)) return; // the store keeps a message once (INSERT OR IGNORE)
      const k: Known = {
        at: r.at,
        from: { sessionId: r.senderSession, name: r.senderName, address: r.senderAddress, team: r.senderTeam },
        to: { sessionId: r.receiverSession, name: r.receiverName, team: r.receiverTeam },
        outcome: 'queued',
      };
      this.#known.set(r.msgId, k);
      if (this.#known.size > this.#bound) this.#known.delete(this.#known.keys().next().value!);
      this.#move(r.msgId, k, null);
      return;
    }
    const receipt = r.t === 'e' && r.kind === 'receipt' && HistoryStore.MOVES.includes(r.status);
    if (r.t !== 'o' && !receipt) return; // decisions and delivered texts change no count
    const status = (r as { status: string }).status;
    const k = this.#known.get(r.msgId);
    if (k === undefined) return this.reset();
    if ((r.t === 'o' && k.outcome !== 'queued') || status === k.outcome) return;
    const previous = k.outcome;
    k.outcome = status;
    this.#move(r.msgId, k, previous);
  }

  /** The counts changed in a way no move says: user interfaces fetch them again. */
  reset(): void {
    this.#emitBody({ kind: 'reset' });
  }

  #move(msgId: string, k: Known, previous: string | null): void {
    this.#emitBody({ kind: 'count', msgId, at: k.at, from: k.from, to: k.to, outcome: k.outcome, previous });
  }

  #emitBody(body: MoveBody): void {
    this.#emit({ epoch: this.#epoch, seq: ++this.#seq, ...body });
  }
}
