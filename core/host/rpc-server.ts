// The hub socket's connection handling: NDJSON framing, JSON-RPC 2.0
// envelopes, zod validation of params against METHODS, fixed error codes,
// bounded in-flight requests (reading pauses, nothing is dropped) and pushed
// notifications. It knows nothing about sessions: the dispatcher does.
// A bad line gets an error and the connection carries on; an oversized line
// closes only that connection. Internal error texts never reach a client.

import net from 'node:net';
import { errorObject, HubError, type ErrorReason } from '../protocol/errors.js';
import type { Limits } from '../protocol/limits.js';
import { isMethodName, METHODS, type MethodName } from '../protocol/methods.js';
import { LineSplitter } from '../protocol/ndjson.js';
import type { Logger } from './logger.js';

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
  return { issues: err.issues.slice(0, 10).map((i) => `${i.path.map(String).join('.') || '(params)'}: ${i.message}`) };
}

export class RpcServer {
  readonly server: net.Server;
  readonly #limits: Limits;
  readonly #dispatch: Dispatch;
  readonly #onClose: (conn: RpcConnection) => void;
  readonly #log: Logger;
  readonly #sockets = new Set<net.Socket>();
  #nextId = 1;

  constructor(opts: { limits: Limits; dispatch: Dispatch; onClose: (conn: RpcConnection) => void; logger: Logger }) {
    this.#limits = opts.limits;
    this.#dispatch = opts.dispatch;
    this.#onClose = opts.onClose;
    this.#log = opts.logger;
    this.server = net.createServer((socket) => this.#accept(socket));
  }

  /** Destroys every open connection (the server itself is closed by its owner). */
  closeAll(): void {
    for (const s of this.#sockets) s.destroy();
  }

  #accept(socket: net.Socket): void {
    if (this.#sockets.size >= this.#limits.connections) {
      socket.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: errorObject('overloaded') }) + '\n');
      return;
    }
    this.#sockets.add(socket);
    const splitter = new LineSplitter(this.#limits.frameBytes);
    let out: string[] = [];
    let inFlight = 0;
    let paused = false;
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
    };
    const send = (msg: unknown): void => {
      if (closed) return;
      if (out.length === 0) process.nextTick(flush);
      out.push(JSON.stringify(msg) + '\n');
    };
    const fail = (id: RpcId, reason: ErrorReason, data?: unknown): void => send({ jsonrpc: '2.0', id, error: errorObject(reason, data) });
    const settle = (): void => {
      inFlight--;
      if (paused && inFlight < this.#limits.inFlightPerConnection / 2) {
        paused = false;
        socket.resume();
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
      if (req.jsonrpc !== '2.0' || typeof req.method !== 'string' || (hasId && !isId(req.id))) return fail(id, 'invalid_request');
      if (!isMethodName(req.method)) return hasId ? fail(id, 'method_not_found') : undefined;
      const parsed = METHODS[req.method].safeParse(req.params ?? {});
      if (!parsed.success) return hasId ? fail(id, 'invalid_params', issuesOf(parsed.error)) : undefined;
      const method = req.method;
      let result: unknown;
      try {
        result = this.#dispatch(method, parsed.data, conn);
      } catch (err) {
        return hasId ? this.#failWith(fail, id, method, err) : undefined;
      }
      if (!(result instanceof Promise)) {
        if (hasId) send({ jsonrpc: '2.0', id, result });
        return;
      }
      inFlight++;
      if (!paused && inFlight >= this.#limits.inFlightPerConnection) {
        paused = true;
        socket.pause();
      }
      result.then(
        (value: unknown) => {
          settle();
          if (hasId) send({ jsonrpc: '2.0', id, result: value });
        },
        (err: unknown) => {
          settle();
          if (hasId) this.#failWith(fail, id, method, err);
        },
      );
    };
    socket.on('data', (chunk: Buffer) => {
      if (!splitter.push(chunk, onLine)) {
        fail(null, 'frame_too_large', { limitBytes: this.#limits.frameBytes });
        flush();
        closed = true;
        socket.end();
        setTimeout(() => socket.destroy(), 1000).unref();
      }
    });
    socket.on('error', () => undefined); // a peer reset is an ordinary close
    socket.on('close', () => {
      closed = true;
      this.#sockets.delete(socket);
      this.#onClose(conn);
    });
  }

  #failWith(fail: (id: RpcId, r: ErrorReason, d?: unknown) => void, id: RpcId, method: string, err: unknown): void {
    if (err instanceof HubError) return fail(id, err.reason, err.data);
    this.#log.error('request failed', { method, error: err instanceof Error ? err.stack : String(err) });
    fail(id, 'internal');
  }
}
