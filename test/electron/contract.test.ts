// Every contract operation has a schema, a handler and a preload entry;
// the preload object refuses what is not in the contract and leaks no
// Electron event to the page. (Missing map entries also fail to compile:
// see the `satisfies` clauses in core/contract.)
import { describe, expect, expectTypeOf, it } from 'vitest';
import { BRIDGE_OPERATIONS } from '../../core/contract/bridge.js';
import { DESKTOP_SCHEMAS } from '../../core/contract/desktop.js';
import {
  BRIDGE_OPERATION_NAMES,
  DESKTOP_OPERATION_NAMES,
  IPC_CHANNELS,
  type BridgeOperationName,
  type DesktopOperationName,
} from '../../core/contract/operations.js';
import { createHandlers } from '../../core/host/api/handlers.js';
import { METHODS } from '../../core/protocol/methods.js';
import type { DesktopHandlers } from '../../electron/ipc/server.js';
import { ALLOWED_OPERATIONS, exposedApi, type IpcPort } from '../../preload/bridge.js';
import { startHub } from '../helpers/hub.js';

describe('the bridge contract', () => {
  it('maps every bridge name to a hub method with a schema and a handler', async () => {
    const t = await startHub();
    try {
      const handlers = createHandlers(t.hub) as Record<string, unknown>;
      expect(Object.keys(BRIDGE_OPERATIONS).sort()).toEqual([...BRIDGE_OPERATION_NAMES].sort());
      for (const name of BRIDGE_OPERATION_NAMES) {
        const method = BRIDGE_OPERATIONS[name];
        expect(METHODS[method], name).toBeDefined();
        expect(typeof handlers[method], name).toBe('function');
      }
    } finally {
      await t.close();
    }
  });

  it('gives every desktop name a schema and (by type) a handler', () => {
    expect(Object.keys(DESKTOP_SCHEMAS).sort()).toEqual([...DESKTOP_OPERATION_NAMES].sort());
    expectTypeOf<keyof DesktopHandlers>().toEqualTypeOf<DesktopOperationName>();
    expectTypeOf<keyof typeof BRIDGE_OPERATIONS>().toEqualTypeOf<BridgeOperationName>();
  });

  it('allows exactly the contract in the preload', () => {
    expect([...ALLOWED_OPERATIONS].sort()).toEqual([...BRIDGE_OPERATION_NAMES, ...DESKTOP_OPERATION_NAMES].sort());
  });
});

class FakeIpc implements IpcPort {
  invoked: unknown[][] = [];
  listeners = new Map<string, Set<(event: unknown, data: unknown) => void>>();
  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invoked.push([channel, ...args]);
    return { ok: true, result: { echoed: args } };
  }
  on(channel: string, l: (event: unknown, data: unknown) => void): void {
    if (!this.listeners.has(channel)) this.listeners.set(channel, new Set());
    this.listeners.get(channel)!.add(l);
  }
  removeListener(channel: string, l: (event: unknown, data: unknown) => void): void {
    this.listeners.get(channel)?.delete(l);
  }
}

describe('the preload object', () => {
  it('refuses operations outside the contract without touching IPC', async () => {
    const ipc = new FakeIpc();
    const api = exposedApi(ipc);
    for (const op of ['session.register', 'inbox.fetch', 'constructor', '__proto__', 42 as unknown as string])
      expect(await api.call(op, {})).toEqual({ ok: false, reason: 'method_not_found', message: 'Method not found' });
    expect(ipc.invoked).toEqual([]);
    expect(await api.call('held.list')).toEqual({ ok: true, result: { echoed: ['held.list', {}] } });
    expect(ipc.invoked).toEqual([[IPC_CHANNELS.call, 'held.list', {}]]);
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.keys(api).sort()).toEqual(['call', 'onEvent']);
  });

  it('passes only event data to the page and every subscription has its disposer', () => {
    const ipc = new FakeIpc();
    const api = exposedApi(ipc);
    const seen: unknown[] = [];
    const dispose = api.onEvent((e) => seen.push(e));
    const sender = { sender: { send: () => undefined }, ports: [] };
    for (const l of ipc.listeners.get(IPC_CHANNELS.event)!) l(sender, { type: 'held.changed', count: 1 });
    expect(seen).toEqual([{ type: 'held.changed', count: 1 }]);
    dispose();
    expect(ipc.listeners.get(IPC_CHANNELS.event)!.size).toBe(0);
    expect(api.onEvent('not a function' as unknown as () => void)()).toBeUndefined();
  });
});
