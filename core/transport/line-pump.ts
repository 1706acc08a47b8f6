// Reads NDJSON lines from one socket, fairly and within bounds. A chunk of at
// most `linesPerTurn` lines from a connection that is not flooding is handled
// at once; anything more waits in one round-robin shared by every connection
// of the process, which handles `linesPerTurn` lines per event-loop turn in
// all (setImmediate), so a storm on many connections delays a quiet client by
// one turn, not by one turn per flooding connection. Reading pauses while
// lines wait or while the owner holds it (answers in flight, unsent output); a
// line begun must end within `partialLineMs` of reading time. Lines already
// read are handed on even after the peer closed. Unfinished lines are held
// within one budget per options object (a hub's Limits: every connection of
// that hub): when their bytes pass `partialBytesTotal`, the connection with
// the largest unfinished line is closed (`overBudget`). A writer finishing a
// line fast holds little at any moment, so the hog is the one closed. No
// JSON, RPC or sessions here.

import type net from 'node:net';
import { performance } from 'node:perf_hooks';
import { LineSplitter } from '../protocol/ndjson.js';

export type HoldReason = 'inFlight' | 'output';

export interface PumpOptions {
  frameBytes: number;
  linesPerTurn: number;
  partialLineMs: number;
  partialBytesTotal: number;
}

export interface PumpEvents {
  line(line: string): void;
  /** A line over the frame limit: the stream cannot be resynchronised, nothing more is read. */
  overflow(): void;
  /** A line stayed unfinished for partialLineMs of reading time. */
  partialTimeout(): void;
  /** The hub's unfinished lines passed partialBytesTotal and this one was the largest: nothing more is read. */
  overBudget(): void;
}

/** The unfinished lines of every pump made with one options object. */
interface PartialBudget {
  bytes: number;
  readonly holders: Set<LinePump>;
}

const budgets = new WeakMap<PumpOptions, PartialBudget>();

function budgetOf(opts: PumpOptions): PartialBudget {
  let budget = budgets.get(opts);
  if (budget === undefined) budgets.set(opts, (budget = { bytes: 0, holders: new Set() }));
  return budget;
}

/** Pumps with lines waiting and no hold, served in turn. */
const ring: LinePump[] = [];
let turnScheduled = false;

function scheduleTurn(): void {
  if (turnScheduled || ring.length === 0) return;
  turnScheduled = true;
  setImmediate(turn);
}

/** One event-loop turn's share: linesPerTurn lines in all, round-robin. */
function turn(): void {
  turnScheduled = false;
  let budget = ring[0]?.linesPerTurn ?? 0;
  while (budget > 0 && ring.length > 0) {
    const pump = ring.shift() as LinePump;
    budget -= pump.runTurn(budget);
  }
  scheduleTurn();
}

export class LinePump {
  readonly #socket: net.Socket;
  readonly #splitter: LineSplitter;
  readonly #opts: PumpOptions;
  readonly #events: PumpEvents;
  #queue: string[] = [];
  #head = 0;
  readonly #holds = new Set<HoldReason>();
  #paused = false;
  #inRing = false;
  /** The last chunk held more than one turn of lines: this connection waits in the round-robin. */
  #busy = false;
  #stopped = false;
  /** A line ended since the clock last looked: the partial-line budget starts over. */
  #lineEnded = false;
  #budgetMs: number;
  #timer: NodeJS.Timeout | undefined;
  #timerStart = 0;
  readonly #budget: PartialBudget;
  /** This pump's unfinished bytes as counted in #budget. */
  #counted = 0;

  constructor(socket: net.Socket, opts: PumpOptions, events: PumpEvents) {
    this.#socket = socket;
    this.#opts = opts;
    this.#events = events;
    this.#splitter = new LineSplitter(opts.frameBytes);
    this.#budgetMs = opts.partialLineMs;
    this.#budget = budgetOf(opts);
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.once('close', () => {
      this.#stopClock();
      this.#count(0);
    });
  }

  get linesPerTurn(): number {
    return this.#opts.linesPerTurn;
  }

  /** Pauses (on) or releases (off) reading for one reason; reading resumes when no reason is left. */
  hold(reason: HoldReason, on: boolean): void {
    if (on) this.#holds.add(reason);
    else this.#holds.delete(reason);
    if (!on) this.#enqueue();
    this.#update();
  }

  /** No more lines are handed on; the owner closes the socket. */
  stop(): void {
    this.#stopped = true;
    this.#queue = [];
    this.#head = 0;
    this.#stopClock();
    this.#count(0);
  }

  /** Handles up to `max` waiting lines (called by the round-robin); returns how many. */
  runTurn(max: number): number {
    this.#inRing = false;
    const n = this.#handle(max);
    this.#enqueue();
    this.#update();
    return n;
  }

  #onData(chunk: Buffer): void {
    if (this.#stopped) return;
    const before = this.#queue.length - this.#head;
    const pushed = this.#splitter.push(chunk, (line) => {
      this.#queue.push(line);
      this.#lineEnded = true;
    });
    if (!pushed) {
      this.stop();
      this.#events.overflow();
      return;
    }
    this.#count(this.#splitter.partialBytes);
    if (this.#budget.bytes > this.#opts.partialBytesTotal) this.#closeLargest();
    if (this.#stopped) return;
    const lines = this.#queue.length - this.#head - before;
    if (before === 0 && !this.#busy) this.#handle(this.#opts.linesPerTurn);
    this.#busy = lines > this.#opts.linesPerTurn;
    this.#enqueue();
    this.#update();
  }

  /** Records this pump's unfinished bytes in the shared budget. */
  #count(bytes: number): void {
    this.#budget.bytes += bytes - this.#counted;
    this.#counted = bytes;
    if (bytes > 0) this.#budget.holders.add(this);
    else this.#budget.holders.delete(this);
  }

  /** Over budget: the pump holding the most unfinished bytes stops (O(holders), only when over). */
  #closeLargest(): void {
    let largest: LinePump | undefined;
    for (const pump of this.#budget.holders)
      if (largest === undefined || pump.#counted > largest.#counted) largest = pump;
    if (largest === undefined) return;
    largest.stop();
    largest.#events.overBudget();
  }

  #waiting(): boolean {
    return this.#head < this.#queue.length;
  }

  #handle(max: number): number {
    let n = 0;
    for (; n < max && !this.#stopped && this.#holds.size === 0 && this.#waiting(); n++) {
      this.#events.line(this.#queue[this.#head++] as string);
    }
    if (!this.#waiting()) {
      this.#queue = [];
      this.#head = 0;
    }
    return n;
  }

  /** Joins the round-robin when lines wait and nothing holds reading. */
  #enqueue(): void {
    if (this.#inRing || this.#stopped || this.#holds.size > 0 || !this.#waiting()) return;
    this.#inRing = true;
    ring.push(this);
    scheduleTurn();
  }

  /** Reading pauses while lines wait or a hold is on; the partial-line clock runs only while reading. */
  #update(): void {
    if (this.#stopped) return;
    const pause = this.#holds.size > 0 || this.#waiting();
    if (pause !== this.#paused) {
      this.#paused = pause;
      if (pause) this.#socket.pause();
      else this.#socket.resume();
    }
    if (this.#lineEnded || this.#splitter.partialBytes === 0) {
      this.#lineEnded = false;
      this.#stopClock();
      this.#budgetMs = this.#opts.partialLineMs;
    }
    if (this.#splitter.partialBytes === 0 || this.#socket.destroyed) return;
    if (this.#paused) {
      this.#stopClock();
    } else if (this.#timer === undefined) {
      this.#timerStart = performance.now();
      this.#timer = setTimeout(() => this.#expired(), Math.max(0, this.#budgetMs));
      this.#timer.unref();
    }
  }

  #stopClock(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#budgetMs -= performance.now() - this.#timerStart;
  }

  #expired(): void {
    this.#timer = undefined;
    if (this.#stopped) return;
    this.stop();
    this.#events.partialTimeout();
  }
}
