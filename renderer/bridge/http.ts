// The HTTP bridge: fetch for operations and EventSource for pushes, with
// reconnect and backoff and a visible connection state. The UI token goes
// only in an `Authorization: Bearer` header (no cookie: browsers share
// 127.0.0.1 cookies with every port); EventSource cannot set headers, so
// each (re)connect first trades the token for a one-time ticket. A refused
// token is shown as 'unauthorized' until a new `#token=` URL is opened or
// the sign-in screen hands over a new token (`signIn`).

import type { BridgeOperation, BridgeResult } from '../../core/contract/bridge.js';
import { BridgeError, type Bridge, type ConnectionState, type HubEvent } from './bridge.js';

const MAX_BACKOFF_MS = 10_000;
const FIRST_BACKOFF_MS = 500;

export interface EventSourceLike {
  addEventListener(type: string, listener: (m: MessageEvent<string>) => void): void;
  onerror: ((e: Event) => void) | null;
  close(): void;
}

export interface HttpBridgeOptions {
  /** The token this tab holds, read again on every connect (a new `#token=` URL may replace it). */
  token: () => string | undefined;
  /** Called when the page learns of a new token, to reconnect with it. */
  onTokenChange?: (listener: () => void) => void;
  /** Keeps a token the sign-in screen was given (this tab's sessionStorage), so `token()` returns it. */
  keepToken?: (token: string) => void;
  fetch?: typeof fetch;
  eventSource?: (url: string) => EventSourceLike;
}

type ErrorBody = { result?: unknown; error?: { message: string; data?: { reason?: string } } | string };

export function httpBridge(opts: HttpBridgeOptions): Bridge {
  const doFetch = opts.fetch ?? ((input, init) => fetch(input, init));
  const openEvents: (url: string) => EventSourceLike = opts.eventSource ?? ((url) => new EventSource(url));
  const eventListeners = new Set<(e: HubEvent) => void>();
  const stateListeners = new Set<(s: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  let backoff = FIRST_BACKOFF_MS;
  let generation = 0; // a new token starts a new generation; older connects give up
  const setState = (s: ConnectionState): void => {
    state = s;
    for (const l of stateListeners) l(s);
  };

  async function post(path: string, input: unknown): Promise<{ status: number; ok: boolean; body: ErrorBody }> {
    const token = opts.token();
    if (token === undefined)
      return {
        status: 401,
        ok: false,
        body: { error: { message: 'No UI token: open the URL the hub printed', data: { reason: 'unauthorized' } } },
      };
    const res = await doFetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(input),
      credentials: 'omit',
    });
    const body = (await res.json().catch(() => ({}))) as ErrorBody;
    return { status: res.status, ok: res.ok, body };
  }

  const retry = (gen: number): void => {
    setState('reconnecting');
    setTimeout(() => connect(gen), backoff);
    backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
  };

  function connect(gen: number): void {
    if (gen !== generation) return;
    post('/api/events/ticket', {}).then(
      (r) => {
        if (gen !== generation) return;
        if (r.status === 401) return setState('unauthorized');
        const ticket = (r.body.result as { ticket?: unknown } | undefined)?.ticket;
        if (!r.ok || typeof ticket !== 'string') return retry(gen);
        const es = openEvents(`/api/events?ticket=${encodeURIComponent(ticket)}`);
        es.addEventListener('ready', () => {
          backoff = FIRST_BACKOFF_MS;
          setState('connected');
          for (const l of eventListeners) l({ type: 'resync' });
        });
        es.addEventListener('ui.event', (m) => {
          const data = JSON.parse(m.data) as HubEvent;
          for (const l of eventListeners) l(data);
        });
        es.onerror = () => {
          es.close();
          retry(gen); // the ticket is spent: the next attempt asks for a new one
        };
      },
      () => retry(gen),
    );
  }

  const reconnect = (): void => {
    backoff = FIRST_BACKOFF_MS;
    setState('connecting');
    connect(++generation);
  };
  opts.onTokenChange?.(reconnect);
  connect(generation);
  return {
    signIn(token: string) {
      opts.keepToken?.(token);
      reconnect();
    },
    hasToken: () => opts.token() !== undefined,
    async call<O extends BridgeOperation>(op: O, input: Record<string, unknown> = {}): Promise<BridgeResult<O>> {
      const r = await post(`/api/${op}`, input);
      if (r.status === 401) setState('unauthorized');
      if (!r.ok || r.body.result === undefined) {
        const err = r.body.error;
        if (typeof err === 'object' && err !== null) throw new BridgeError(err.data?.reason ?? 'error', err.message);
        throw new BridgeError('http', typeof err === 'string' ? err : `HTTP ${r.status}`);
      }
      return r.body.result as BridgeResult<O>;
    },
    onEvent(l) {
      eventListeners.add(l);
      return () => eventListeners.delete(l);
    },
    onState(l) {
      stateListeners.add(l);
      l(state);
      return () => stateListeners.delete(l);
    },
  };
}
