// History's records waiting for the database, kept compact: a message's
// policy decision, admission result and framed text, when they come while its
// record is still queued, are folded into that record (one entry per message,
// not four), and the framed text is kept as the body between a shared wrapper
// head and the fixed tail when it is exactly that (checked, never assumed).
// take() hands out the store's own records in queue order, so the database
// ends exactly as if every record had been queued on its own.

import type { HistoryRecord } from '../protocol/history.js';

type MessageRecord = Extract<HistoryRecord, { t: 'm' }>;
type Other = Exclude<HistoryRecord, { t: 'm' }>;
type Activity = Extract<HistoryRecord, { t: 'e' }>;

/** The wrapper's closing tail (core/protocol/cc-wire.ts wrapMessage): a body is framed as head + body + TAIL. */
const TAIL = '\n</cross-session-message>';
/** Distinct wrapper heads kept (one per sender and mode); then forgotten all at once: a cache. */
const HEADS_KEPT = 1024;

/** A queued message: its record, and what was folded into it. The handle message() returns to its outcome. */
export interface QueuedMessage extends MessageRecord {
  /** Set: `text` is still the body and the delivered text is head + text + TAIL. */
  head: string | null;
  /** The policy decision folded in (null: none); its sender and receiver are the message's. */
  decision: string | null;
  decisionAt: number;
  decisionReason: string;
  /** The admission result folded in (null: none yet). */
  status: string | null;
  reason: string;
  outcomeAt: number;
  /** Still in the queue (false once taken for a write). */
  queued: boolean;
}

type Entry = QueuedMessage | Other;

/** What a message's entry is built from: its envelope's fields, and its receiver. */
export interface MessageEnv {
  msgId: string;
  at: number;
  fromSessionId: string | null;
  fromName: string | null;
  fromAddress: string;
  summary: string | null;
  body: string;
}
export type Receiver = { id: string; name: string; team: string | null };

/** A message's queue entry, nothing folded in yet (every field set: one object shape for all of them). */
export function messageEntry(env: MessageEnv, receiver: Receiver, senderTeam: string | null): QueuedMessage {
  return {
    t: 'm',
    msgId: env.msgId,
    at: env.at,
    senderSession: env.fromSessionId,
    senderName: env.fromName,
    senderAddress: env.fromAddress,
    senderTeam,
    receiverSession: receiver.id,
    receiverName: receiver.name,
    receiverTeam: receiver.team,
    summary: env.summary,
    text: env.body,
    head: null,
    decision: null,
    decisionAt: 0,
    decisionReason: '',
    status: null,
    reason: '',
    outcomeAt: 0,
    queued: true,
  };
}

export class HistoryQueue {
  #entries: Entry[] = [];
  /** Messages queued whose delivered text has not come yet (a short window: until their journal write). */
  readonly #awaitingText = new Map<string, QueuedMessage>();
  readonly #heads = new Map<string, string>();
  #chars = 0;

  get length(): number {
    return this.#entries.length;
  }

  /** Characters of text queued (the text bound). */
  get chars(): number {
    return this.#chars;
  }

  /** Queues a message's entry (messageEntry); the handle its outcome folds into. */
  message(q: QueuedMessage): void {
    this.#entries.push(q);
    this.#chars += q.text.length;
    this.#awaitingText.set(q.msgId, q);
  }

  /** Folds an admission result into its queued message (as the store applies one: only over `queued`; receipts queued after it still apply over it); false when that message is no longer queued. */
  foldOutcome(q: QueuedMessage, status: string, reason: string, at: number): boolean {
    if (!q.queued) return false;
    if (q.status === null || q.status === 'queued') {
      q.status = status;
      q.reason = reason;
      q.outcomeAt = at;
    }
    return true;
  }

  /**
   * Folds a policy decision into the message queued just before it (admission decides in the same synchronous
   * step, so nothing lies between them and the store sees the same order); false otherwise.
   */
  foldDecision(e: Activity): boolean {
    const q = this.#entries[this.#entries.length - 1];
    if (q === undefined || q.t !== 'm' || q.msgId !== e.msgId || q.decision !== null || e.kind !== 'decision')
      return false;
    if (e.sender !== (q.senderName ?? q.senderAddress) || e.receiver !== q.receiverName) return false;
    q.decision = e.status;
    q.decisionAt = e.at;
    q.decisionReason = e.reason;
    return true;
  }

  /** Folds a delivered text into its queued message; false when it has none queued (then queue an `x` record). */
  foldText(msgId: string, text: string): boolean {
    const q = this.#awaitingText.get(msgId);
    if (q === undefined) return false;
    this.#awaitingText.delete(msgId);
    const body = q.text;
    const headLen = text.length - body.length - TAIL.length;
    if (headLen > 0 && text.endsWith(TAIL) && text.startsWith(body, headLen)) {
      q.head = this.#head(text.slice(0, headLen));
    } else {
      this.#chars += text.length - body.length;
      q.text = text;
    }
    return true;
  }

  push(r: Other): void {
    this.#entries.push(r);
    if (r.t === 'x') this.#chars += r.text.length;
  }

  /** The oldest `n` entries as the store's records, in order (a folded message expands to its record and outcome). */
  take(n: number): { records: HistoryRecord[]; entries: Entry[] } {
    const entries = this.#entries.splice(0, n);
    const records: HistoryRecord[] = [];
    for (const e of entries) {
      if (e.t !== 'm') {
        records.push(e);
        if (e.t === 'x') this.#chars -= e.text.length;
        continue;
      }
      e.queued = false;
      if (this.#awaitingText.get(e.msgId) === e) this.#awaitingText.delete(e.msgId);
      this.#chars -= e.text.length;
      records.push({
        t: 'm',
        msgId: e.msgId,
        at: e.at,
        senderSession: e.senderSession,
        senderName: e.senderName,
        senderAddress: e.senderAddress,
        senderTeam: e.senderTeam,
        receiverSession: e.receiverSession,
        receiverName: e.receiverName,
        receiverTeam: e.receiverTeam,
        summary: e.summary,
        text: e.head === null ? e.text : e.head + e.text + TAIL,
      });
      if (e.decision !== null)
        records.push({
          t: 'e',
          at: e.decisionAt,
          kind: 'decision',
          status: e.decision,
          msgId: e.msgId,
          sender: e.senderName ?? e.senderAddress,
          receiver: e.receiverName,
          reason: e.decisionReason,
        });
      if (e.status !== null)
        records.push({ t: 'o', msgId: e.msgId, at: e.outcomeAt, status: e.status, reason: e.reason });
    }
    return { records, entries };
  }

  /** Puts taken entries back at the front (the file was busy): they fold again as before. */
  putBack(entries: Entry[]): void {
    for (const e of entries) {
      if (e.t === 'm') {
        e.queued = true;
        this.#chars += e.text.length;
      } else if (e.t === 'x') this.#chars += e.text.length;
    }
    this.#entries.unshift(...entries);
  }

  /** Drops everything (the hub stops and the file stayed locked); returns how many entries were dropped. */
  clear(): number {
    const n = this.#entries.length;
    for (const e of this.#entries) if (e.t === 'm') e.queued = false;
    this.#entries = [];
    this.#awaitingText.clear();
    this.#chars = 0;
    return n;
  }

  /** One string per distinct head, copied out of the text it was cut from (a slice would keep the whole text). */
  #head(slice: string): string {
    const known = this.#heads.get(slice);
    if (known !== undefined) return known;
    if (this.#heads.size >= HEADS_KEPT) this.#heads.clear();
    const own = JSON.parse(JSON.stringify(slice)) as string; // exact for any string, lone surrogates included
    this.#heads.set(own, own);
    return own;
  }
}
