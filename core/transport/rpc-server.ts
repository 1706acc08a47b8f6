// The hub socket's connection handling: NDJSON framing, JSON-RPC 2.0
// envelopes, zod validation of params against METHODS, fixed error codes,
// pushed notifications. Reading from a connection pauses (nothing dropped)
// while too many of its requests wait or too many answer bytes are unsent,
// and connections take turns (line-pump.ts). A connection that has made no
// valid request yet is "pending": it must make one within firstRequestMs, and
// the oldest pending one is evicted when the pending or total cap is reached,
// so idle connections never lock real clients out. A bad line gets an error
// and the connection carries on; an oversized line closes only that
// connection. It knows nothing about sessions: the dispatcher does.

import { formatIssues } from '../kit/issues.js';
import net from 'node:net';
import { errorObject, HubError, type ErrorReason } from '../protocol/errors.js';
import type { Limits } from '../protocol/limits.js';
import { isMethodName, METHODS, type MethodName } from '../protocol/methods.js';
import { LinePump } from './line-pump.js';
import type { Logger } from '../kit/logger.js';

export interface RpcConnection {
  readonly id: number;
  notify(method: string, params: unknown): void;
  readonly closed: boolean;
}

export type Dispatch = (method: MethodName, params: unknown, conn: RpcConnection) => unknown;

type RpcId = string | number | null;

function isId(x: unknown): x is RpcId {
  return x === null || typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x));
}

function issuesOf(err: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }): { issues: string[] } {
  return { issues: formatIssues(err, '(params)') };
}

const anonymousErrors = new Map<ErrorReason, string>();

/** The answer line of an error without id or data: the same bytes every time, built once (storms are cheap). */
function anonymousError(reason: ErrorReason): string {
  let line = anonymousErrors.get(reason);
  if (line === undefined)
    anonymousErrors.set(
      reason,
      (line = JSON.stringify({ jsonrpc: '2.0', id: null, error: errorObject(reason) }) + '\n'),
    );
  return line;
}

export class RpcServer {
  readonly server: net.Server;
  readonly #limits: Limits;
  readonly #dispatch: Dispatch;
  readonly #onClose: (conn: RpcConnection) => void;
  readonly #log: Logger;
  /** Connections counted against LIMITS.connections. */
  readonly #sockets = new Set<net.Socket>();
  /** Connections without a valid request yet, oldest first, each with its eviction. */
  readonly #pending = new Map<net.Socket, () => void>();
  /** Connections we closed that may still be sending their last error line. */
  readonly #closing = new Set<net.Socket>();
  #nextId = 1;

  constructor(opts: { limits: Limits; dispatch: Dispatch; onClose: (conn: RpcConnection) => void; logger: Logger }) {
    this.#limits = opts.limits;
    this.#dispatch = opts.dispatch;
    this.#onClose = opts.onClose;
    this.#log = opts.logger;
    this.server = net.createServer((socket) => this.#accept(socket));
    // After listening, an accept failure (EMFILE) is an 'error' event: log it, never crash.
    this.server.once('listening', () =>
      this.server.on('error', (err) => this.#log.warn('hub socket: accept failed', { error: err.message })),
    );
  }

  /** Destroys every open connection (the server itself is closed by its owner). */
  closeAll(): void {
    for (const s of [...this.#sockets, ...this.#closing]) s.destroy();
  }

  /** Ends a socket with one last line; it is destroyed after closeLingerMs if the peer does not read. */
  #endWith(socket: net.Socket, line: string): void {
    this.#sockets.delete(socket);
    this.#pending.delete(socket);
    this.#closing.add(socket);
    socket.once('close', () => this.#closing.delete(socket));
    socket.end(line);
    setTimeout(() => socket.destroy(), this.#limits.closeLingerMs).unref();
  }

  #accept(socket: net.Socket): void {
    const limits = this.#limits;
    socket.on('error', () => undefined); // a peer reset is an ordinary close
    if (this.#pending.size >= limits.pendingConnections || this.#sockets.size >= limits.connections) {
      const oldest = this.#pending.values().next();
      if (oldest.done !== true) oldest.value();
    }
    if (this.#sockets.size >= limits.connections) {
      this.#endWith(socket, JSON.stringify({ jsonrpc: '2.0', id: null, error: errorObject('overloaded') }) + '\n');
      return;
    }
    this.#sockets.add(socket);
    let out: string[] = [];
    let inFlight = 0;
    let inFlightHeld = false;
    let outputHeld = false;
    let closed = false;
    const conn: RpcConnection = {
      id: this.#nextId++,
      notify: (method, params) => send({ jsonrpc: '2.0', method, params }),
      get closed() {
        return closed;
      },
    };
    const flush = (): void => {
      if (out.length === 0 || closed) return;
      const data = out.join('');
      out = [];
      socket.write(data);
      const unsent = socket.writableLength;
      if (unsent > limits.unsentBytesClose) {
        this.#log.warn('hub socket: a client stopped reading its answers, connection closed', { unsentBytes: unsent });
        closed = true;
        pump.stop();
        socket.destroy();
      } else if (unsent > limits.unsentBytes && !outputHeld) {
        outputHeld = true;
        pump.hold('output', true);
        socket.once('drain', () => {
          outputHeld = false;
          pump.hold('output', false);
        });
      }
    };
    const sendLine = (line: string): void => {
      if (closed) return;
      if (out.length === 0) process.nextTick(flush);
      out.push(line);
    };
    const send = (msg: unknown): void => sendLine(JSON.stringify(msg) + '\n');
    /** A result line, the same bytes as send({ jsonrpc, id, result }) without walking the envelope. */
    const answer = (id: RpcId, result: unknown): void => {
      let json: string | undefined;
      try {
        json = JSON.stringify(result);
      } catch (err) {
        // A result no JSON can carry (e.g. another program's file nested past the stack) still gets an answer.
        this.#log.error('hub socket: an answer could not be serialized', { error: String(err) });
        return fail(id, 'internal');
      }
      if (json === undefined) send({ jsonrpc: '2.0', id, result });
      else sendLine(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${json}}\n`);
    };
    const fail = (id: RpcId, reason: ErrorReason, data?: unknown): void =>
      id === null && data === undefined
        ? sendLine(anonymousError(reason))
        : send({ jsonrpc: '2.0', id, error: errorObject(reason, data) });
    /** Closes this connection with one last error line. */
    const closeWith = (reason: ErrorReason, data: unknown): void => {
      if (closed) return;
      flush();
      closed = true;
      pump.stop();
      clearTimeout(firstRequest);
      this.#endWith(socket, JSON.stringify({ jsonrpc: '2.0', id: null, error: errorObject(reason, data) }) + '\n');
    };
    const firstRequest = setTimeout(
      () => closeWith('idle_timeout', { limitMs: limits.firstRequestMs }),
      limits.firstRequestMs,
    );
    firstRequest.unref();
    this.#pending.set(socket, () => closeWith('overloaded', undefined));
    const established = (): void => {
      if (!this.#pending.delete(socket)) return;
      clearTimeout(firstRequest);
    };
    const settle = (): void => {
      inFlight--;
      if (inFlightHeld && inFlight < limits.inFlightPerConnection / 2) {
        inFlightHeld = false;
        pump.hold('inFlight', false);
      }
    };
    const onLine = (line: string): void => {
      let msg: unknown;
      try {
        msg = JSON.parse(line);
      } catch {
        fail(null, 'parse_error');
        return;
      }
      if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) return fail(null, 'invalid_request');
      const req = msg as Record<string, unknown>;
      const hasId = Object.prototype.hasOwnProperty.call(req, 'id');
      const id = hasId && isId(req.id) ? req.id : null;
      if (req.jsonrpc !== '2.0' || typeof req.method !== 'string' || (hasId && !isId(req.id)))
        return fail(id, 'invalid_request');
      if (!isMethodName(req.method)) return hasId ? fail(id, 'method_not_found') : undefined;
      const spec = METHODS[req.method];
      const input = req.params ?? {};
      let params = spec.accept?.(input); // the common, valid request without zod's walk (flat-params.ts)
      if (params === undefined) {
        const parsed = spec.params.safeParse(input);
        if (!parsed.success) return hasId ? fail(id, 'invalid_params', issuesOf(parsed.error)) : undefined;
        params = parsed.data;
      }
      established();
      const method = req.method;
      let result: unknown;
      try {
        result = this.#dispatch(method, params, conn);
      } catch (err) {
        return hasId ? this.#failWith(fail, id, method, err) : undefined;
      }
      if (!(result instanceof Promise)) {
        if (hasId) answer(id, result);
        return;
      }
      inFlight++;
      if (!inFlightHeld && inFlight >= limits.inFlightPerConnection) {
        inFlightHeld = true;
        pump.hold('inFlight', true);
      }
      result.then(
        (value: unknown) => {
          settle();
          if (hasId) answer(id, value);
        },
        (err: unknown) => {
          settle();
          if (hasId) this.#failWith(fail, id, method, err);
        },
      );
    };
    const pump = new LinePump(socket, limits, {
      line: onLine,
      overflow: () => closeWith('frame_too_large', { limitBytes: limits.frameBytes }),
      partialTimeout: () => closeWith('idle_timeout', { limitMs: limits.partialLineMs }),
      overBudget: () => closeWith('overloaded', { partialBytesTotal: limits.partialBytesTotal }),
    });
    socket.on('close', () => {
      closed = true;
      clearTimeout(firstRequest);
      this.#sockets.delete(socket);
      this.#pending.delete(socket);
      this.#onClose(conn);
    });
  }

  #failWith(fail: (id: RpcId, r: ErrorReason, d?: unknown) => void, id: RpcId, method: string, err: unknown): void {
    if (err instanceof HubError) return fail(id, err.reason, err.data);
    this.#log.error('request failed', { method, error: err instanceof Error ? err.stack : String(err) });
    fail(id, 'internal');
  }
}
