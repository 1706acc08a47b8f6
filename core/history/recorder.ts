// The hub's side of history: records are queued in memory on the send path
// (no I/O, never awaited; one entry per message, queue.ts) and written by a timer, a bounded batch per
// transaction. A full queue counts a gap instead of waiting. Where SQLite is
// missing or the file is unsafe, history is off with a status saying why;
// nothing here ever throws into the hub's send path. Owns history.sqlite
// (0600) in the 0700 state directory; nothing from it leaves this process.

import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { InboxItem } from '../protocol/methods.js';
import type {
  HistoryCursor,
  HistoryEdge,
  HistoryMessage,
  HistoryQuery,
  HistoryRecord,
  HistoryStatus,
} from '../protocol/history.js';
import { HistoryStore } from './store.js';
import { HistoryOffError, loadSqlite, prepareFile } from './file.js';
import { MoveTracker } from './moves.js';
import { DiskReserve } from './reserve.js';
import type { RecorderOptions } from './options.js';
import { HistoryQueue, messageEntry, type MessageEnv, type QueuedMessage, type Receiver } from './queue.js';

export { HistoryOffError } from './file.js';
export type { HistoryLimits, RecorderOptions } from './options.js';
export type { QueuedMessage } from './queue.js';

export const HISTORY_FILE = 'history.sqlite';
const MIN_BATCH = 16; // progress even when one record once took the whole budget
const BUSY_LOOP = 0.5; // event-loop utilisation above which the hub is busy serving sends

export class HistoryRecorder {
  readonly file: string;
  readonly #opts: RecorderOptions;
  #store: HistoryStore | undefined;
  #reason: string | null = null;
  readonly #queue = new HistoryQueue();
  readonly #reserve: DiskReserve;
  #written = 0;
  #gap = 0;
  #gapSince: number | null = null;
  #lastError: string | null = null;
  #timer: NodeJS.Timeout | undefined;
  #lastPrune = 0;
  /** Measured milliseconds per record (moving average): sizes each batch to the flush budget. */
  #msPerRecord = 0.05;
  #writeMs = 0;
  #elu = performance.eventLoopUtilization();
  /** The last flush found the event loop busy: the next one waits historyBusyFlushMs. */
  #busy = false;
  readonly #moves: MoveTracker;

  constructor(opts: RecorderOptions) {
    this.#opts = opts;
    const onMove = opts.onMove;
    this.#moves = new MoveTracker(
      opts.limits.historyMovesKnown,
      onMove ?? (() => undefined),
      opts.movesWanted ?? (() => onMove !== undefined),
    );
    this.file = path.join(opts.stateDir, HISTORY_FILE);
    this.#reserve = new DiskReserve(opts.stateDir, opts.limits.historyReserveBytes, () => performance.now());
    this.#reason = 'not opened yet';
  }

  /** Opens the database (once the hub owns its state directory); on failure history stays off with the reason. */
  open(): void {
    const opts = this.#opts;
    if (this.#store !== undefined) return;
    if (opts.enabled === false) {
      this.#reason = 'turned off for this hub';
      return;
    }
    const sqlite = opts.sqlite === undefined ? loadSqlite() : opts.sqlite;
    if (sqlite === null) {
      this.#reason = `this runtime (Node ${process.versions.node}) has no node:sqlite`;
      return;
    }
    try {
      prepareFile(this.file);
      this.#store = new HistoryStore(sqlite, this.file, opts.writer);
      this.#reason = null;
      this.#prune();
    } catch (err) {
      this.#store?.close();
      this.#store = undefined;
      this.#reason = `the history file cannot be used (${err instanceof Error ? err.message : String(err)})`;
    }
  }

  get enabled(): boolean {
    return this.#store !== undefined;
  }

  status(): HistoryStatus {
    return {
      enabled: this.enabled,
      reason: this.#reason,
      file: this.file,
      queued: this.#queue.length,
      written: this.#written,
      gap: { records: this.#gap, since: this.#gapSince },
      lastError: this.#lastError,
      paused: this.#reserve.problem(),
      writeMs: Math.round(this.#writeMs),
    };
  }

  /**
   * A message entering admission (to a session of this hub): the queued record, which its outcome folds into;
   * false when it was counted as a gap instead (then record nothing more about it).
   */
  message(env: MessageEnv, receiver: Receiver, senderTeam: string | null): QueuedMessage | false {
    if (!this.#room(env.body.length)) return false;
    const q = messageEntry(env, receiver, senderTeam);
    this.#queue.message(q);
    this.#moves.record(q);
    this.#schedule();
    return q;
  }

  /** Where admission left it (queued, held, refused, dropped); `queued`: its record, folded into while still queued. */
  outcome(msgId: string, status: string, reason: string | undefined, queued?: QueuedMessage): void {
    const at = this.#opts.now();
    const r: HistoryRecord = { t: 'o', msgId, at, status, reason: reason ?? '' };
    if (queued !== undefined && this.#queue.foldOutcome(queued, status, r.reason, at)) {
      this.#moves.record(r);
      return;
    }
    if (!this.#room(0)) return;
    this.#push(r);
  }

  /** An item put in an inbox: a message's framed text as delivered (receipts come as activity). */
  item(item: InboxItem): void {
    if (item.kind !== 'message' || this.#store === undefined) return;
    if (this.#queue.foldText(item.id, item.text)) return; // its record is queued: no change to the picture's counts
    if (this.#room(item.text.length)) this.#push({ t: 'x', msgId: item.id, text: item.text });
  }

  /** A receipt or a policy decision. */
  activity(e: {
    at: number;
    kind: 'receipt' | 'decision';
    status: string;
    msgId: string;
    sender: string;
    receiver: string;
    reason: string;
  }): void {
    if (this.#store === undefined) return;
    const r: HistoryRecord = {
      t: 'e',
      at: e.at,
      kind: e.kind,
      status: e.status,
      msgId: e.msgId,
      sender: e.sender,
      receiver: e.receiver,
      reason: e.reason,
    };
    if (this.#queue.foldDecision(r)) return; // a decision changes no count of the picture
    if (this.#room(0)) this.#push(r);
  }

  /** Writes one batch now, sized to the time budget (the timer calls this); `all` writes everything (queries, close). */
  flush(all = false): void {
    const store = this.#store;
    if (store === undefined) return;
    const l = this.#opts.limits;
    if (this.#queue.length > 0 && this.#reserve.problem() !== null) {
      this.#countGap(this.#queue.clear()); // messages need the room: what was queued is a counted gap
      this.#moves.reset();
    }
    while (this.#queue.length > 0) {
      const size = all
        ? l.historyBatchRecords
        : Math.min(l.historyBatchRecords, Math.max(MIN_BATCH, Math.floor(this.#budgetMs() / this.#msPerRecord)));
      const { records: batch, entries } = this.#queue.take(size);
      const t0 = performance.now();
      try {
        store.write(batch);
        this.#written += batch.length;
      } catch (err) {
        if (HistoryStore.isBusy(err)) {
          // Another connection holds the file: keep the batch at the front, try again next flush.
          this.#queue.putBack(entries);
          this.#fail('history write postponed', err);
          break;
        }
        this.#countGap(batch.length);
        this.#moves.reset(); // the picture counted what the file now lacks
        this.#fail('history write failed', err);
      }
      const took = performance.now() - t0;
      this.#writeMs += took;
      this.#msPerRecord = 0.7 * this.#msPerRecord + 0.3 * Math.max(0.001, took / batch.length);
      if (!all) break;
    }
    if (this.#opts.now() - this.#lastPrune >= l.historyPruneMs) this.#prune();
    this.#schedule();
  }

  query(q: HistoryQuery): HistoryMessage[] {
    this.flush(true);
    return this.#open().query(q);
  }

  /** The counts of the window, and the last move they include (nothing can move between the two: one synchronous call). */
  edges(since: number, limit: number): { rows: HistoryEdge[]; cursor: HistoryCursor } {
    this.flush(true);
    return { rows: this.#open().edges(since, limit), cursor: this.#moves.cursor() };
  }

  delete(what: { all: true } | { between: readonly [string, string] }): { deleted: number } {
    this.flush(true);
    const out = this.#open().delete(what);
    this.#moves.reset();
    return out;
  }

  stats(): { messages: number; events: number; bytes: number } | null {
    return this.#store?.stats() ?? null;
  }

  /** Writes what is queued and closes the database. */
  close(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.flush(true);
    const lost = this.#queue.clear();
    if (lost > 0) this.#countGap(lost); // the file stayed locked: these are lost
    this.#store?.close();
    this.#store = undefined;
    this.#reason ??= 'the hub has stopped';
  }

  #open(): HistoryStore {
    if (this.#store === undefined) throw new HistoryOffError(this.#reason ?? 'history is off');
    return this.#store;
  }

  /** The flush budget: the small one while the event loop is busy (sends waiting), the idle one when it mostly waits. */
  #budgetMs(): number {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, this.#elu).utilization;
    this.#elu = now;
    const l = this.#opts.limits;
    this.#busy = busy >= BUSY_LOOP;
    return this.#busy ? l.historyFlushBudgetMs : l.historyIdleFlushBudgetMs;
  }

  /** Room for one more record of this much text? Otherwise the gap grows (checked before building the record). */
  #room(chars: number): boolean {
    if (this.#store === undefined) return false;
    const l = this.#opts.limits;
    if (
      this.#reserve.problem() === null &&
      this.#queue.length < l.historyQueueRecords &&
      this.#queue.chars + chars <= l.historyQueueChars
    )
      return true;
    this.#countGap(1);
    return false;
  }

  #countGap(n: number): void {
    if (this.#gap === 0) this.#gapSince = this.#opts.now();
    this.#gap += n;
  }

  #push(r: Exclude<HistoryRecord, { t: 'm' }>): void {
    this.#queue.push(r);
    this.#moves.record(r);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#timer !== undefined || this.#store === undefined || this.#queue.length === 0) return;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.flush();
      },
      this.#busy ? this.#opts.limits.historyBusyFlushMs : this.#opts.limits.historyFlushMs,
    );
    this.#timer.unref();
  }

  #prune(): void {
    this.#lastPrune = this.#opts.now();
    try {
      if ((this.#store?.prune(this.#lastPrune, this.#opts.policy()).removed ?? 0) > 0) this.#moves.reset();
    } catch (err) {
      this.#fail('history retention failed', err);
    }
  }

  #fail(what: string, err: unknown): void {
    this.#lastError = `${what}: ${err instanceof Error ? err.message : String(err)}`;
    this.#opts.onError(what, err);
  }
}
