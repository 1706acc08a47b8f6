// The typed hub client used by cli/ and tests: JSON-RPC 2.0 over NDJSON on
// the hub socket, calls typed from METHODS, pushed notifications delivered
// to listeners. Every call has a timeout; a missing hub is HubNotRunning.

import net from 'node:net';
import type { ErrorReason } from '../protocol/errors.js';
import { LIMITS } from '../protocol/limits.js';
import type { HubNotifications, MethodInput, MethodName, MethodResults } from '../protocol/methods.js';
import { LineSplitter } from '../protocol/ndjson.js';
import { CodedError } from '../protocol/coded-error.js';

/** How long a call waits for its answer unless told otherwise: only a hub that hangs reaches it. */
const CALL_TIMEOUT_MS = 10_000;

export class HubNotRunningError extends CodedError<'hub_not_running'> {
  override readonly name = 'HubNotRunningError';
  constructor(socket: string, options?: { cause?: unknown }) {
    super('hub_not_running', `No hub is running on ${socket}`, options);
  }
}

/** An error answer from the hub, with its fixed reason. */
export class RpcError extends Error {
  readonly code: number;
  readonly reason: ErrorReason | 'unknown';
  readonly data: Record<string, unknown>;
  constructor(err: { code: number; message: string; data?: Record<string, unknown> }) {
    super(err.message);
    this.name = 'RpcError';
    this.code = err.code;
    this.data = err.data ?? {};
    this.reason = typeof this.data.reason === 'string' ? (this.data.reason as ErrorReason) : 'unknown';
  }
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout };
type Listener = (params: unknown) => void;

/** message.send may wait for the user's confirmation of a cross-machine send (dialogExpiry is at most 10 minutes). */
export const SEND_WAIT_MS = 11 * 60_000;

export class HubClient {
  readonly #socket: net.Socket;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #timeoutMs: number;
  #nextId = 1;
  #closedError: Error | undefined;

  private constructor(socket: net.Socket, timeoutMs: number) {
    this.#socket = socket;
    this.#timeoutMs = timeoutMs;
    const splitter = new LineSplitter(LIMITS.frameBytes * 2);
    socket.on('data', (chunk: Buffer) => {
      if (splitter.push(chunk, (line) => this.#onLine(line))) return;
      // An answer this client cannot read: say so now, not as a time-out later.
      this.#failAll(new Error(`the hub sent a line over ${LIMITS.frameBytes * 2} bytes; this client cannot read it`));
      socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => this.#failAll(new Error('hub connection closed')));
  }

  /**
   * Connects to the hub socket. A full listen backlog (EAGAIN: the hub is busy, not gone) is tried again until
   * the time is up; a timer that fires in the same turn as a finished connect does not win over it (a starved
   * process sees both at once), so only a hub that really did not take the connection is "not running".
   */
  static connect(socketPath: string, opts: { timeoutMs?: number; callTimeoutMs?: number } = {}): Promise<HubClient> {
    const timeoutMs = opts.timeoutMs ?? 10_000;
    // A short connect bound (a hub that is not there) is no bound for its calls: a busy hub answers late, not never.
    const callTimeoutMs = opts.callTimeoutMs ?? Math.max(timeoutMs, CALL_TIMEOUT_MS);
    return new Promise((resolve, reject) => {
      let settled = false;
      let socket: net.Socket | undefined;
      const fail = (cause?: unknown): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket?.destroy();
        reject(new HubNotRunningError(socketPath, cause === undefined ? undefined : { cause }));
      };
      // Decided after the poll phase of this turn: a connect that completed meanwhile is seen first.
      const timer = setTimeout(() => setImmediate(fail), timeoutMs);
      const attempt = (): void => {
        if (settled) return;
        const s = (socket = net.connect(socketPath));
        s.once('connect', () => {
          if (settled) return void s.destroy();
          settled = true;
          clearTimeout(timer);
          resolve(new HubClient(s, callTimeoutMs));
        });
        s.once('error', (cause: NodeJS.ErrnoException) => {
          if (cause.code === 'EAGAIN' && !settled) setTimeout(attempt, 10);
          else fail(cause);
        });
      };
      attempt();
    });
  }

  call<M extends MethodName>(
    method: M,
    params: MethodInput<M>,
    opts: { timeoutMs?: number } = {},
  ): Promise<MethodResults[M]> {
    if (this.#closedError) return Promise.reject(this.#closedError);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`hub call ${method} timed out`));
      }, opts.timeoutMs ?? this.#timeoutMs);
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.#socket.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  }

  /** Runs `listener` once the connection has closed (at once if it already has). */
  onClose(listener: () => void): void {
    if (this.#closedError !== undefined || this.#socket.destroyed) listener();
    else this.#socket.once('close', listener);
  }

  /** Listens for a pushed notification; returns the disposer. */
  on<N extends keyof HubNotifications>(method: N, listener: (params: HubNotifications[N]) => void): () => void {
    let set = this.#listeners.get(method);
    if (set === undefined) this.#listeners.set(method, (set = new Set()));
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
  }

  close(): void {
    this.#socket.end();
    this.#socket.destroy();
  }

  #onLine(line: string): void {
    let msg: {
      id?: unknown;
      result?: unknown;
      error?: { code: number; message: string; data?: Record<string, unknown> };
      method?: unknown;
      params?: unknown;
    };
    try {
      msg = JSON.parse(line) as typeof msg;
    } catch {
      return;
    }
    if (typeof msg.method === 'string' && msg.id === undefined) {
      for (const l of this.#listeners.get(msg.method) ?? []) l(msg.params);
      return;
    }
    if (typeof msg.id !== 'number') {
      if (msg.error) this.#failAll(new RpcError(msg.error));
      return;
    }
    const p = this.#pending.get(msg.id);
    if (p === undefined) return;
    this.#pending.delete(msg.id);
    clearTimeout(p.timer);
    if (msg.error) p.reject(new RpcError(msg.error));
    else p.resolve(msg.result);
  }

  #failAll(err: Error): void {
    this.#closedError ??= err;
    for (const p of this.#pending.values()) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    this.#pending.clear();
  }
}
