// Reads NDJSON lines from one socket, fairly and within bounds: at most
// `linesPerTurn` lines per event-loop turn (then setImmediate, so every other
// connection gets its turn), reading paused while lines wait or while the
// owner holds it (answers in flight, unsent output), and a line begun must end
// within `partialLineMs` of reading time. Lines already read are handed on
// even after the peer closed. It knows nothing about JSON, RPC or sessions.

import type net from 'node:net';
import { performance } from 'node:perf_hooks';
import { LineSplitter } from '../protocol/ndjson.js';

export type HoldReason = 'inFlight' | 'output';

export interface PumpOptions {
  frameBytes: number;
  linesPerTurn: number;
  partialLineMs: number;
}

export interface PumpEvents {
  line(line: string): void;
  /** A line over the frame limit: the stream cannot be resynchronised, nothing more is read. */
  overflow(): void;
  /** A line stayed unfinished for partialLineMs of reading time. */
  partialTimeout(): void;
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
  #scheduled = false;
  #stopped = false;
  /** A line ended since the clock last looked: the partial-line budget starts over. */
  #lineEnded = false;
  #budgetMs: number;
  #timer: NodeJS.Timeout | undefined;
  #timerStart = 0;

  constructor(socket: net.Socket, opts: PumpOptions, events: PumpEvents) {
    this.#socket = socket;
    this.#opts = opts;
    this.#events = events;
    this.#splitter = new LineSplitter(opts.frameBytes);
    this.#budgetMs = opts.partialLineMs;
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.once('close', () => this.#stopClock());
  }

  /** Pauses (on) or releases (off) reading for one reason; reading resumes when no reason is left. */
  hold(reason: HoldReason, on: boolean): void {
    if (on) this.#holds.add(reason);
    else this.#holds.delete(reason);
    this.#update();
    if (!on) this.#schedule();
  }

  /** No more lines are handed on; the owner closes the socket. */
  stop(): void {
    this.#stopped = true;
    this.#queue = [];
    this.#head = 0;
    this.#stopClock();
  }

  #onData(chunk: Buffer): void {
    if (this.#stopped) return;
    const pushed = this.#splitter.push(chunk, (line) => {
      this.#queue.push(line);
      this.#lineEnded = true;
    });
    if (!pushed) {
      this.stop();
      this.#events.overflow();
      return;
    }
    this.#run();
  }

  #waiting(): boolean {
    return this.#head < this.#queue.length;
  }

  #run(): void {
    this.#scheduled = false;
    for (let n = 0; n < this.#opts.linesPerTurn && !this.#stopped && this.#holds.size === 0 && this.#waiting(); n++) {
      this.#events.line(this.#queue[this.#head++] as string);
    }
    if (!this.#waiting()) {
      this.#queue = [];
      this.#head = 0;
    } else if (this.#holds.size === 0) {
      this.#schedule();
    }
    this.#update();
  }

  #schedule(): void {
    if (this.#scheduled || this.#stopped || !this.#waiting()) return;
    this.#scheduled = true;
    setImmediate(() => this.#run());
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
