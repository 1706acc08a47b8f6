// The browser side of the web UI's authentication: the token leaves the URL
// fragment for port-scoped sessionStorage, travels only as a Bearer header,
// and each event-stream (re)connect spends a fresh one-time ticket.
import { describe, expect, it, vi } from 'vitest';
import { httpBridge, type EventSourceLike } from '../../renderer/bridge/http.js';
import { takeUiToken, type TokenHome } from '../../renderer/bridge/ui-token.js';
import type { ConnectionState } from '../../renderer/bridge/bridge.js';

const TOKEN = 'ab'.repeat(24);

function home(
  hash: string,
  stored: Record<string, string> = {},
): TokenHome & { urls: string[]; stored: Record<string, string> } {
  const urls: string[] = [];
  return {
    urls,
    stored,
    location: { hash, pathname: '/', search: '' },
    history: { replaceState: (_d, _u, url) => void urls.push(url) },
    sessionStorage: { getItem: (k) => stored[k] ?? null, setItem: (k, v) => void (stored[k] = v) },
  };
}

describe('the UI token in the page', () => {
  it('is taken from #token= and removed from the address bar', () => {
    const first = home(`#token=${TOKEN}`);
    expect(takeUiToken(first)).toBe(TOKEN);
    expect(first.urls).toEqual(['/']);
  });

  it('is kept for a reload of this tab only', () => {
    const first = home(`#token=${TOKEN}`);
    takeUiToken(first);
    const reload = home('#sessions', first.stored);
    expect(takeUiToken(reload)).toBe(TOKEN);
    expect(reload.urls).toEqual([]);
    expect(takeUiToken(home('')), 'a new tab has none').toBeUndefined();
  });

  it('a malformed #token= is dropped, never kept', () => {
    const bad = home('#token=<script>');
    expect(takeUiToken(bad)).toBeUndefined();
    expect([bad.urls, bad.stored]).toEqual([['/'], {}]);
  });
});

interface Fake {
  requests: Array<{ url: string; headers: Record<string, string>; credentials?: string }>;
  streams: Array<{ url: string; es: EventSourceLike & { fire(type: string, data?: string): void; closed: boolean } }>;
  states: ConnectionState[];
}

function fakeWorld(ticketStatus: () => number): {
  fake: Fake;
  fetch: typeof fetch;
  eventSource: (url: string) => EventSourceLike;
} {
  const fake: Fake = { requests: [], streams: [], states: [] };
  let n = 0;
  const fetchFake = (async (url: string, init: RequestInit) => {
    fake.requests.push({ url, headers: init.headers as Record<string, string>, credentials: init.credentials });
    const status = url === '/api/events/ticket' ? ticketStatus() : 200;
    const body =
      status !== 200
        ? { error: { message: 'no', data: { reason: 'unauthorized' } } }
        : url === '/api/events/ticket'
          ? { result: { ticket: `t${++n}` } }
          : { result: { rows: [] } };
    return { status, ok: status === 200, json: async () => body } as Response;
  }) as typeof fetch;
  const eventSource = (url: string) => {
    const listeners = new Map<string, (m: MessageEvent<string>) => void>();
    const es = {
      closed: false,
      onerror: null as ((e: Event) => void) | null,
      addEventListener: (type: string, l: (m: MessageEvent<string>) => void) => void listeners.set(type, l),
      close() {
        es.closed = true;
      },
      fire(type: string, data = '{}') {
        if (type === 'error') es.onerror?.(new Event('error'));
        else listeners.get(type)?.({ data } as MessageEvent<string>);
      },
    };
    fake.streams.push({ url, es });
    return es;
  };
  return { fake, fetch: fetchFake, eventSource };
}

/** Waits for `check`; the 30 s bound only ends a hang (test/helpers/hub.ts until()). */
const until = async (check: () => boolean): Promise<void> => {
  await vi.waitFor(() => expect(check()).toBe(true), { timeout: 30_000, interval: 10 });
};

describe('the HTTP bridge', () => {
  it('sends the token only as a Bearer header (no cookies) and opens each event stream with a new ticket', async () => {
    const w = fakeWorld(() => 200);
    const bridge = httpBridge({ token: () => TOKEN, fetch: w.fetch, eventSource: w.eventSource });
    bridge.onState((s) => w.fake.states.push(s));
    expect(await bridge.call('sessions.list')).toEqual({ rows: [] });
    for (const r of w.fake.requests)
      expect([r.headers.Authorization, r.credentials]).toEqual([`Bearer ${TOKEN}`, 'omit']);
    await until(() => w.fake.streams.length === 1);
    expect(w.fake.streams[0]!.url).toBe('/api/events?ticket=t1');
    w.fake.streams[0]!.es.fire('ready');
    expect(w.fake.states.at(-1)).toBe('connected');
    w.fake.streams[0]!.es.fire('error');
    expect(w.fake.streams[0]!.es.closed).toBe(true);
    expect(w.fake.states.at(-1)).toBe('reconnecting');
    await until(() => w.fake.streams.length === 2);
    expect(w.fake.streams[1]!.url).toBe('/api/events?ticket=t2');
  });

  it('shows unauthorized when the hub refuses the token, and reconnects when the page gets a new one', async () => {
    let status = 401;
    let token: string | undefined = TOKEN;
    let tokenChanged: () => void = () => undefined;
    const w = fakeWorld(() => status);
    const bridge = httpBridge({
      token: () => token,
      fetch: w.fetch,
      eventSource: w.eventSource,
      onTokenChange: (l) => (tokenChanged = l),
    });
    bridge.onState((s) => w.fake.states.push(s));
    await until(() => w.fake.states.includes('unauthorized'));
    expect(w.fake.streams).toEqual([]);
    status = 200;
    token = 'cd'.repeat(24);
    tokenChanged();
    await until(() => w.fake.streams.length === 1);
    w.fake.streams[0]!.es.fire('ready');
    expect(w.fake.states.at(-1)).toBe('connected');
    expect(w.fake.requests.at(-1)!.headers.Authorization).toBe(`Bearer ${token}`);
  });

  it('without any token asks nothing of the server', async () => {
    const w = fakeWorld(() => 200);
    const bridge = httpBridge({ token: () => undefined, fetch: w.fetch, eventSource: w.eventSource });
    bridge.onState((s) => w.fake.states.push(s));
    await until(() => w.fake.states.includes('unauthorized'));
    await expect(bridge.call('held.list')).rejects.toMatchObject({ reason: 'unauthorized' });
    expect(w.fake.requests).toEqual([]);
  });
});
