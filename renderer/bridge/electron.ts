// The Electron bridge: wraps the one object the preload exposes on
// `window.switchboard` (named operations and one event subscription, no
// Electron objects). IPC needs no reconnect: the state is always connected.

import type { BridgeOperation, BridgeResult } from '../../core/contract/bridge.js';
import { BridgeError, type Bridge, type HubEvent } from './bridge.js';

/** What the preload exposes (electron/ and preload/ implement it). */
export interface PreloadApi {
  call(
    op: string,
    input: unknown,
  ): Promise<{ ok: true; result: unknown } | { ok: false; reason: string; message: string }>;
  onEvent(listener: (e: unknown) => void): () => void;
}

export function preloadApi(w: unknown): PreloadApi | undefined {
  const api = (w as { switchboard?: unknown }).switchboard;
  if (api === null || typeof api !== 'object') return undefined;
  const a = api as Partial<PreloadApi>;
  return typeof a.call === 'function' && typeof a.onEvent === 'function' ? (a as PreloadApi) : undefined;
}

export function electronBridge(api: PreloadApi): Bridge {
  return {
    async call<O extends BridgeOperation>(op: O, input: Record<string, unknown> = {}): Promise<BridgeResult<O>> {
      const r = await api.call(op, input);
      if (!r.ok) throw new BridgeError(r.reason, r.message);
      return r.result as BridgeResult<O>;
    },
    onEvent(listener) {
      return api.onEvent((e) => {
        if (e !== null && typeof e === 'object' && typeof (e as { type?: unknown }).type === 'string')
          listener(e as HubEvent);
      });
    },
    async desktop(op, input) {
      const r = await api.call(op, input);
      if (!r.ok) throw new BridgeError(r.reason, r.message);
      return r.result as never;
    },
    onState(listener) {
      listener('connected');
      return () => undefined;
    },
  };
}
