// The headless web bridge: the user-interface operations of core/contract
// over HTTP (POST /api/<operation>) and Server-Sent Events (GET
// /api/events), plus the built renderer as static files. Loopback only.
// Every request must carry the UI token (a SameSite=Strict HttpOnly cookie
// set by opening the printed URL once, or an Authorization: Bearer header),
// a Host that is our loopback name and port (DNS rebinding), and for
// anything but a plain GET an Origin that is ours (cross-site requests).
// Strict CSP and no-store on every answer; the token is never logged.

import { timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { BRIDGE_EVENT, isBridgeOperation } from '../contract/bridge.js';
import { errorObject, type ErrorReason } from '../protocol/errors.js';
import type { Hub } from './hub.js';
import type { RpcConnection } from './rpc-server.js';
import { runBridgeOperation } from './ui-bridge.js';

export const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'; frame-ancestors 'none'";
const MAX_BODY = 1024 * 1024;
const COOKIE = 'sb_ui';
const SSE_LIMIT = 32; // open event streams
const STATUS: Partial<Record<ErrorReason, number>> = { invalid_params: 400, method_not_found: 404, internal: 500 };
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json' };

export interface WebServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieToken(req: http.IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, v] = part.trim().split('=');
    if (k === COOKIE) return v;
  }
  return undefined;
}

function baseHeaders(): Record<string, string> {
  return {
    'Content-Security-Policy': CSP, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Resource-Policy': 'same-origin', 'X-Frame-Options': 'DENY',
  };
}

function send(res: http.ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...baseHeaders(), 'Content-Type': 'application/json', ...extra });
  res.end(JSON.stringify(body));
}

export async function startWebServer(hub: Hub, opts: { port: number; rendererDir: string }): Promise<WebServer> {
  const token = hub.uiToken;
  let port = opts.port;
  let streams = 0;
  const hosts = (): Set<string> => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const origins = (): Set<string> => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://invalid');
    if (!hosts().has(req.headers.host ?? '')) return send(res, 421, { error: 'wrong Host: open the URL the hub printed' });
    const origin = req.headers.origin;
    if (origin !== undefined && !origins().has(origin)) return send(res, 403, { error: 'cross-site request refused' });
    if (req.headers['sec-fetch-site'] === 'cross-site') return send(res, 403, { error: 'cross-site request refused' });

    // Opening the printed URL once trades the token in the query for a cookie.
    if (req.method === 'GET' && url.pathname === '/' && url.searchParams.has('token')) {
      if (!sameToken(url.searchParams.get('token') ?? undefined, token)) return send(res, 401, { error: 'wrong token' });
      res.writeHead(303, { ...baseHeaders(), Location: '/', 'Set-Cookie': `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/` });
      return res.end();
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!sameToken(bearer, token) && !sameToken(cookieToken(req), token)) return send(res, 401, { error: 'missing or wrong token: open the URL the hub printed' });

    if (url.pathname === '/api/events' && req.method === 'GET') return events(req, res);
    if (url.pathname.startsWith('/api/')) {
      if (req.method !== 'POST') return send(res, 405, { error: 'use POST' }, { Allow: 'POST' });
      if (origin === undefined && bearer === undefined) return send(res, 403, { error: 'an Origin header is required' });
      return void api(url.pathname.slice(5), req, res);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { error: 'method not allowed' }, { Allow: 'GET' });
    return file(url.pathname, res);
  });

  async function api(op: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!isBridgeOperation(op)) return send(res, 404, { error: errorObject('method_not_found') });
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return send(res, 415, { error: 'send application/json' });
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY) {
      req.resume(); // discard it, so the client reads our answer instead of a reset
      return send(res, 413, { error: errorObject('frame_too_large', { limitBytes: MAX_BODY }) }, { Connection: 'close' });
    }
    let size = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY) {
        send(res, 413, { error: errorObject('frame_too_large', { limitBytes: MAX_BODY }) }, { Connection: 'close' });
        req.destroy();
        return;
      }
      chunks.push(chunk as Buffer);
    }
    let input: unknown;
    try {
      input = chunks.length === 0 ? {} : JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(res, 400, { error: errorObject('parse_error') });
    }
    const r = await runBridgeOperation(hub, op, input);
    if (r.ok) return send(res, 200, { result: r.result });
    send(res, STATUS[r.reason] ?? 422, { error: errorObject(r.reason, r.data) });
  }

  function events(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (streams >= SSE_LIMIT) return send(res, 503, { error: 'too many event streams' });
    streams++;
    res.writeHead(200, { ...baseHeaders(), 'Content-Type': 'text/event-stream', Connection: 'keep-alive' });
    let closed = false;
    const conn: RpcConnection = {
      id: -2 - streams,
      notify: (method, params) => {
        if (!closed && method === BRIDGE_EVENT) res.write(`event: ${BRIDGE_EVENT}\ndata: ${JSON.stringify(params)}\n\n`);
      },
      get closed() {
        return closed;
      },
    };
    hub.attachUi(conn);
    res.write(`event: ready\ndata: {}\n\n`);
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
    req.on('close', () => {
      closed = true;
      streams--;
      clearInterval(ping);
      hub.detachUi(conn);
    });
  }

  function file(pathname: string, res: http.ServerResponse): void {
    const root = path.resolve(opts.rendererDir);
    const target = path.resolve(root, '.' + decodeURIComponent(pathname === '/' ? '/index.html' : pathname));
    if (target !== root && !target.startsWith(root + path.sep)) return send(res, 404, { error: 'not found' });
    let body: Buffer;
    try {
      body = fs.readFileSync(target);
    } catch {
      if (!fs.existsSync(path.join(root, 'index.html'))) return send(res, 503, { error: 'the renderer is not built in this checkout; the HTTP bridge works' });
      return send(res, 404, { error: 'not found' });
    }
    res.writeHead(200, { ...baseHeaders(), 'Content-Type': TYPES[path.extname(target)] ?? 'application/octet-stream' });
    res.end(body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  hub.uiPort = port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    close: () =>
      new Promise<void>((r) => {
        if (hub.uiPort === port) hub.uiPort = undefined;
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
