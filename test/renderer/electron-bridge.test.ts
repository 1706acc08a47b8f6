import { describe, expect, it } from 'vitest';
import { electronBridge, preloadApi, type PreloadApi } from '../../renderer/bridge/electron.js';
import { BridgeError } from '../../renderer/bridge/bridge.js';

describe('the Electron bridge over the preload object', () => {
  it('finds only a well-formed preload object', () => {
    expect(preloadApi({})).toBeUndefined();
    expect(preloadApi({ switchboard: { call: 1 } })).toBeUndefined();
    const api: PreloadApi = { call: async () => ({ ok: true, result: null }), onEvent: () => () => undefined };
    expect(preloadApi({ switchboard: api })).toBe(api);
  });

  /** The bridge over a preload API that answers held.list and refuses everything else. */
  const bridgeOverPreload = () => {
    const listeners: Array<(e: unknown) => void> = [];
    const api: PreloadApi = {
      call: async (op) =>
        op === 'held.list'
          ? { ok: true, result: { items: [] } }
          : { ok: false, reason: 'unauthorized', message: 'Unauthorized' },
      onEvent: (l) => {
        listeners.push(l);
        return () => undefined;
      },
    };
    return { bridge: electronBridge(api), listeners };
  };

  it('unwraps results', async () => {
    const { bridge } = bridgeOverPreload();
    expect(await bridge.call('held.list')).toEqual({ items: [] });
  });

  it('turns failures into BridgeError', async () => {
    const { bridge } = bridgeOverPreload();
    await expect(bridge.call('held.approve', { id: 'x' })).rejects.toEqual(
      new BridgeError('unauthorized', 'Unauthorized'),
    );
  });

  it('passes only typed events', () => {
    const { bridge, listeners } = bridgeOverPreload();
    const got: unknown[] = [];
    bridge.onEvent((e) => got.push(e));
    for (const l of listeners) {
      l({ type: 'held.changed', count: 1 });
      l('garbage');
      l(null);
    }
    expect(got).toEqual([{ type: 'held.changed', count: 1 }]);
  });

  it('is connected from the start', () => {
    const { bridge } = bridgeOverPreload();
    const states: string[] = [];
    bridge.onState((s) => states.push(s));
    expect(states).toEqual(['connected']);
  });
});
