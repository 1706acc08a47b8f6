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

  it('unwraps results, turns failures into BridgeError, and passes only typed events', async () => {
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
    const bridge = electronBridge(api);
    expect(await bridge.call('held.list')).toEqual({ items: [] });
    await expect(bridge.call('held.approve', { id: 'x' })).rejects.toEqual(
      new BridgeError('unauthorized', 'Unauthorized'),
    );
    const got: unknown[] = [];
    bridge.onEvent((e) => got.push(e));
    for (const l of listeners) {
      l({ type: 'held.changed', count: 1 });
      l('garbage');
      l(null);
    }
    expect(got).toEqual([{ type: 'held.changed', count: 1 }]);
    const states: string[] = [];
    bridge.onState((s) => states.push(s));
    expect(states).toEqual(['connected']);
  });
});
