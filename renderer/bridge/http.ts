// The HTTP bridge: fetch for operations (same-origin, the cookie carries the
// token), EventSource for pushes with reconnect and backoff, and a visible
// connection state.

import type { BridgeOperation, BridgeResult } from '../../core/contract/bridge.js';
import { BridgeError, type Bridge, type ConnectionState, type HubEvent } from './bridge.js';

const MAX_BACKOFF_MS = 10_000;

export function httpBridge(): Bridge {
  const eventListeners = new Set<(e: HubEvent) => void>();
  const stateListeners = new Set<(s: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  let backoff = 500;
  const setState = (s: ConnectionState): void => {
    state = s;
    for (const l of stateListeners) l(s);
  };
  const connect = (): void => {
    const es = new EventSource('/api/events');
    es.addEventListener('ready', () => {
      backoff = 500;
      setState('connected');
      for (const l of eventListeners) l({ type: 'resync' });
    });
    es.addEventListener('ui.event', (m) => {
      const data = JSON.parse((m as MessageEvent<string>).data) as HubEvent;
      for (const l of eventListeners) l(data);
    });
    es.onerror = () => {
      es.close();
      setState('reconnecting');
      setTimeout(connect, backoff);
      backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
    };
  };
  connect();
  return {
    async call<O extends BridgeOperation>(op: O, input: Record<string, unknown> = {}): Promise<BridgeResult<O>> {
      const res = await fetch(`/api/${op}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(input), credentials: 'same-origin' });
      const body = (await res.json()) as { result?: BridgeResult<O>; error?: { message: string; data?: { reason?: string } } | string };
      if (!res.ok || body.result === undefined) {
        const err = body.error;
        if (typeof err === 'object' && err !== null) throw new BridgeError(err.data?.reason ?? 'error', err.message);
        throw new BridgeError('http', typeof err === 'string' ? err : `HTTP ${res.status}`);
      }
      return body.result;
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
