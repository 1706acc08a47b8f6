// The app:// protocol that serves the built renderer: only GET of files
// inside the renderer directory (path containment after decoding), every
// answer with the strict CSP and no-store. Anything else is 404. The
// scheme is registered standard + secure so the page has a real origin.

import path from 'node:path';
import { CSP } from '../../core/contract/csp.js';
import { APP_HOST, APP_SCHEME } from './harden.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false, stream: false },
} as const;

/** The file an app:// URL names inside `root`, or null when it is not ours or escapes the root. */
export function resolveAppPath(root: string, requestUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  const base = path.resolve(root);
  const target = path.resolve(base, '.' + (pathname === '/' || pathname === '' ? '/index.html' : pathname));
  return target.startsWith(base + path.sep) ? target : null;
}

function headers(type: string): Record<string, string> {
  return {
    'Content-Type': type,
    'Content-Security-Policy': CSP,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  };
}

/** A protocol.handle() handler for the renderer directory; readFile is the file-system port. */
export function appProtocolHandler(
  root: string,
  readFile: (file: string) => Promise<Uint8Array>,
): (request: { url: string; method: string }) => Promise<Response> {
  return async (request) => {
    const file = request.method === 'GET' ? resolveAppPath(root, request.url) : null;
    if (file === null) return new Response('not found', { status: 404, headers: headers('text/plain') });
    try {
      return new Response(Buffer.from(await readFile(file)), {
        status: 200,
        headers: headers(TYPES[path.extname(file)] ?? 'application/octet-stream'),
      });
    } catch {
      return new Response('not found', { status: 404, headers: headers('text/plain') });
    }
  };
}
