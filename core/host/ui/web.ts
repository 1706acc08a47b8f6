// The headless web bridge: the user-interface operations of core/contract
// over HTTP (POST /api/<operation>) and Server-Sent Events (GET
// /api/events), plus the built renderer as static files. Loopback only.
// Every request needs a Host that is our loopback name and port (DNS
// rebinding) and, when it has an Origin, our Origin (cross-site). The API
// needs the UI token as `Authorization: Bearer` (web-auth.ts: no cookie);
// the event stream takes that or a one-time ticket. The static renderer is
// public code and loads without the token (it arrives in the URL fragment).
// No request can end the process: each is answered inside a catch (500,
// logged, closed), and malformed HTTP is a 400. The token is never logged.

import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { BRIDGE_EVENT, isBridgeOperation } from '../../contract/bridge.js';
import { errorObject, type ErrorReason } from '../../protocol/errors.js';
import type { Hub } from '../hub.js';
import type { Logger } from '../../kit/logger.js';
import type { RpcConnection } from '../../transport/rpc-server.js';
import { runBridgeOperation } from './ui-bridge.js';
import { sameSecret } from '../../kit/secret.js';
import { bearerOf, Tickets } from './web-auth.js';
import {
  parseTarget,
  readBody,
  refuse,
  send,
  baseHeaders,
  WEB_LIMITS,
  type Target,
  type WebLimits,
} from './web-http.js';

const STATUS: Partial<Record<ErrorReason, number>> = { invalid_params: 400, method_not_found: 404, internal: 500 };
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};
const TICKET_PATH = '/api/events/ticket';
/** Unsent bytes past which an event stream whose page stopped reading is closed (a page resyncs on reconnect). */
export const STREAM_UNSENT_BYTES = 8 * 1024 * 1024;

export interface WebServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface WebServerOptions {
  port: number;
  rendererDir: string;
  /** Where failures are logged; the hub's logger when absent. */
  logger?: Logger;
  /** Tests shrink these. */
  limits?: Partial<WebLimits>;
}

export async function startWebServer(hub: Hub, opts: WebServerOptions): Promise<WebServer> {
  const token = hub.uiToken;
  const limits: WebLimits = { ...WEB_LIMITS, ...opts.limits };
  const log = opts.logger ?? hub.log;
  const tickets = new Tickets({ ttlMs: limits.ticketMs, max: limits.tickets, now: () => hub.clock.monotonic() });
  let port = opts.port;
  let streams = 0;
  let streamIds = 0;
  const hosts = (): Set<string> => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const origins = (): Set<string> => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  const server = http.createServer((req, res) => {
    req.on('error', () => undefined); // a client gone mid-request: readBody and 'close' handle it
    res.on('error', () => undefined); // writing to a client gone: nothing to answer
    try {
      const pending = route(req, res);
      if (pending instanceof Promise) pending.catch((err: unknown) => failed(req, res, err));
    } catch (err) {
      failed(req, res, err);
    }
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // Malformed HTTP (bad request line, header overflow, timeouts): answer 400/431/408 if we still can.
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    if (socket.writable && socket.bytesWritten === 0) {
      socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    }
    socket.destroy();
    if (err.code !== 'ECONNRESET') log.info('web UI client sent malformed HTTP', { code: err.code, status });
  });
  server.maxConnections = limits.connections;
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;

  function failed(req: http.IncomingMessage, res: http.ServerResponse, err: unknown): void {
    log.error('web UI request failed', { method: req.method, stack: err instanceof Error ? err.stack : String(err) });
    if (!res.headersSent && !res.destroyed) refuse(res, 'internal', { Connection: 'close' });
    else res.destroy();
  }

  function route(req: http.IncomingMessage, res: http.ServerResponse): void | Promise<void> {
    if (!hosts().has(req.headers.host ?? '')) return refuse(res, 'wrong_host');
    const origin = req.headers.origin;
    if (origin !== undefined && !origins().has(origin)) return refuse(res, 'cross_site');
    if (req.headers['sec-fetch-site'] === 'cross-site') return refuse(res, 'cross_site');
    const target = parseTarget(req.url);
    if (typeof target === 'string') return refuse(res, target, { Connection: 'close' });
    // The old printed URL put the token in the query, where logs and Referer keep it.
    if (target.query.has('token')) return refuse(res, 'token_in_query');

    const authorised = sameSecret(bearerOf(req), token);
    if (target.pathname === '/api/events' && req.method === 'GET') {
      if (!authorised && !tickets.take(target.query.get('ticket')))
        return refuse(res, target.query.has('ticket') ? 'bad_ticket' : 'unauthorized');
      return events(req, res);
    }
    if (target.pathname.startsWith('/api/')) {
      if (req.method !== 'POST') return refuse(res, 'use_post', { Allow: 'POST' });
      if (!authorised) return refuse(res, 'unauthorized');
      if (target.pathname === TICKET_PATH) return send(res, 200, { result: tickets.issue() });
      return api(target.pathname.slice(5), req, res);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 'use_get', { Allow: 'GET, HEAD' });
    return file(target, res);
  }

  async function api(op: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!isBridgeOperation(op)) return send(res, 404, { error: errorObject('method_not_found') });
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return refuse(res, 'unsupported_type');
    const tooLarge = (): void =>
      send(
        res,
        413,
        { error: errorObject('frame_too_large', { limitBytes: limits.bodyBytes }) },
        { Connection: 'close' },
      );
    if (Number(req.headers['content-length'] ?? 0) > limits.bodyBytes) {
      req.resume(); // discard it, so the client reads our answer instead of a reset
      return tooLarge();
    }
    const body = await readBody(req, limits.bodyBytes);
    if (!body.ok) {
      if (body.why === 'too_large') {
        tooLarge();
        res.once('finish', () => req.destroy());
      } else res.destroy(); // the client went away mid-body: nobody to answer
      return;
    }
    let input: unknown;
    try {
      input = body.bytes.length === 0 ? {} : JSON.parse(body.bytes.toString('utf8'));
    } catch {
      return send(res, 400, { error: errorObject('parse_error') });
    }
    const r = await runBridgeOperation(hub, op, input);
    if (r.ok) return send(res, 200, { result: r.result });
    send(res, STATUS[r.reason] ?? 422, { error: errorObject(r.reason, r.data) });
  }

  function events(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (streams >= limits.eventStreams) return refuse(res, 'too_many_streams');
    let closed = false;
    let open = false; // events of attachUi itself are dropped: 'ready' makes the page resync anyway
    /** A page that stopped reading is closed past STREAM_UNSENT_BYTES (it resyncs on its next `ready`). */
    const write = (chunk: string): void => {
      if (res.writableLength <= STREAM_UNSENT_BYTES) return void res.write(chunk);
      log.warn('ui event stream: the page stopped reading, stream closed', { unsent: res.writableLength });
      res.destroy();
    };
    const conn: RpcConnection = {
      id: -2 - ++streamIds,
      notify: (method, params) => {
        if (open && !closed && method === BRIDGE_EVENT)
          write(`event: ${BRIDGE_EVENT}\ndata: ${JSON.stringify(params)}\n\n`);
      },
      get closed() {
        return closed;
      },
    };
    hub.connections.attachUi(conn); // before anything is sent: if it throws, the client still gets a 500
    streams++;
    const ping = setInterval(() => res.writableLength === 0 && write(': ping\n\n'), limits.pingMs);
    res.once('close', () => {
      closed = true;
      streams--;
      clearInterval(ping);
      hub.connections.detachUi(conn);
    });
    res.writeHead(200, { ...baseHeaders(), 'Content-Type': 'text/event-stream', Connection: 'keep-alive' });
    open = true;
    res.write(`event: ready\ndata: {}\n\n`);
  }

  function file(target: Target, res: http.ServerResponse): void {
    const root = path.resolve(opts.rendererDir);
    const resolved = path.resolve(root, '.' + (target.pathname === '/' ? '/index.html' : target.pathname));
    if (resolved !== root && !resolved.startsWith(root + path.sep)) return refuse(res, 'not_found');
    let body: Buffer;
    try {
      body = fs.readFileSync(resolved);
    } catch {
      if (!fs.existsSync(path.join(root, 'index.html'))) return refuse(res, 'not_built');
      return refuse(res, 'not_found');
    }
    res.writeHead(200, {
      ...baseHeaders(),
      'Content-Type': TYPES[path.extname(resolved)] ?? 'application/octet-stream',
    });
    res.end(body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  server.on('error', (err) => log.error('web UI server error', { stack: err.stack }));
  port = (server.address() as AddressInfo).port;
  hub.uiPort = port;
  return {
    // The token rides in the fragment: browsers never send it, so it reaches no log, Referer or other port.
    url: `http://127.0.0.1:${port}/#token=${token}`,
    port,
    close: () =>
      new Promise<void>((r) => {
        if (hub.uiPort === port) hub.uiPort = undefined;
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
