// HTTP plumbing of the web UI server, with nothing of the hub in it: the
// server's named limits, its closed vocabulary of HTTP-level refusals, the
// security headers on every answer, a request-target parser that never
// throws (hostile targets are a value, not an exception) and a bounded body
// reader that settles exactly once, also when the client goes away mid-body.

import type http from 'node:http';

export interface WebLimits {
  /** Largest request body, in bytes (a bridge operation's JSON input). */
  readonly bodyBytes: number;
  /** Event streams open at once. */
  readonly eventStreams: number;
  /** Lifetime of an unused event-stream ticket. */
  readonly ticketMs: number;
  /** Unused event-stream tickets kept at once; the oldest is dropped past it. */
  readonly tickets: number;
  /** Comment line on an idle event stream, so proxies and browsers keep it. */
  readonly pingMs: number;
  /** Sockets open at once on the web port. */
  readonly connections: number;
  /** A client must finish sending its headers within this. */
  readonly headersTimeoutMs: number;
  /** A client must finish sending its whole request (headers and body) within this. */
  readonly requestTimeoutMs: number;
}

export const WEB_LIMITS: WebLimits = {
  bodyBytes: 1024 * 1024, // the hub's frame size; every operation input is far smaller
  eventStreams: 32, // a handful of tabs; bounds memory and hub listeners
  ticketMs: 30_000, // a ticket is fetched and used within one page tick
  tickets: 64, // reconnecting tabs; bounds memory against a script asking in a loop
  pingMs: 15_000, // under common 30-60 s idle cut-offs
  connections: 128, // tabs, their streams and scripts of one user
  headersTimeoutMs: 10_000, // a slow-headers client holds a socket no longer
  requestTimeoutMs: 60_000, // a slow-body client holds a socket no longer
};

import { CSP } from '../../contract/csp.js';

/** Every refusal the web server answers with below the bridge operations: fixed status, fixed text. */
export const HTTP_ERRORS = {
  bad_target: [400, 'Bad request target: expected a path such as /api/held.list'],
  bad_escape: [400, 'Bad percent-escape in the path'],
  token_in_query: [400, 'The token goes after "#" in the URL, never in its query: open the URL the hub printed'],
  unauthorized: [401, 'Missing or wrong UI token: open the URL the hub printed'],
  bad_ticket: [401, 'Unknown, used or expired event-stream ticket: ask for a new one'],
  cross_site: [403, 'Cross-site request refused'],
  not_found: [404, 'Not found'],
  use_post: [405, 'Use POST'],
  use_get: [405, 'Method not allowed: use GET'],
  unsupported_type: [415, 'Send application/json'],
  wrong_host: [421, 'Wrong Host: open the URL the hub printed'],
  internal: [500, 'Internal error'],
  not_built: [503, 'The renderer is not built in this checkout; the HTTP bridge works'],
  too_many_streams: [503, 'Too many event streams'],
} as const satisfies Record<string, readonly [number, string]>;

export type HttpErrorReason = keyof typeof HTTP_ERRORS;

export function baseHeaders(): Record<string, string> {
  return {
    'Content-Security-Policy': CSP,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
  };
}

export function send(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  extra: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body); // first: if it throws, the caller can still answer 500
  res.writeHead(status, { ...baseHeaders(), 'Content-Type': 'application/json', ...extra });
  res.end(text);
}

/** Answers one of HTTP_ERRORS in the bridge's error shape ({ message, data: { reason } }). */
export function refuse(res: http.ServerResponse, reason: HttpErrorReason, extra: Record<string, string> = {}): void {
  const [status, message] = HTTP_ERRORS[reason];
  send(res, status, { error: { message, data: { reason } } }, extra);
}

export interface Target {
  /** The decoded path, always starting with one "/". */
  pathname: string;
  query: URLSearchParams;
}

/**
 * Parses an origin-form request target ("/path?query") without throwing.
 * Absolute-form, authority-form, "*" and "//…" targets are bad_target; a
 * path whose percent-escapes do not decode to UTF-8, or decode to NUL, is bad_escape.
 */
export function parseTarget(raw: string | undefined): Target | HttpErrorReason {
  if (raw === undefined || !raw.startsWith('/') || raw.startsWith('//')) return 'bad_target';
  const q = raw.indexOf('?');
  const rawPath = q < 0 ? raw : raw.slice(0, q);
  let pathname: string;
  try {
    pathname = decodeURIComponent(rawPath);
  } catch {
    return 'bad_escape';
  }
  if (pathname.includes('\0')) return 'bad_escape';
  return { pathname, query: new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)) };
}

export type Body = { ok: true; bytes: Buffer } | { ok: false; why: 'too_large' | 'aborted' };

/** Reads a request body up to `limit` bytes. Settles once; never rejects. */
export function readBody(req: http.IncomingMessage, limit: number): Promise<Body> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const done = (b: Body): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      resolve(b);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) return done({ ok: false, why: 'too_large' });
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => done({ ok: true, bytes: Buffer.concat(chunks) }));
    req.once('error', () => done({ ok: false, why: 'aborted' }));
    req.once('close', () =>
      done(req.complete ? { ok: true, bytes: Buffer.concat(chunks) } : { ok: false, why: 'aborted' }),
    );
  });
}
