// The object the preload exposes, built over a narrow IPC port so tests can
// check it without Electron: unknown operations are refused before any IPC,
// inputs are structured-cloned by Electron, and listeners get only the
// event's data (never the IpcRendererEvent with its sender).

import { BRIDGE_OPERATION_NAMES, DESKTOP_OPERATION_NAMES, IPC_CHANNELS } from '../core/contract/operations.js';

export type CallResult = { ok: true; result: unknown } | { ok: false; reason: string; message: string };

export interface IpcPort {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, data: unknown) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, data: unknown) => void): unknown;
}

/** Every operation the page may ask for: the contract's names, nothing else. */
export const ALLOWED_OPERATIONS: ReadonlySet<string> = new Set<string>([
  ...BRIDGE_OPERATION_NAMES,
  ...DESKTOP_OPERATION_NAMES,
]);

export function exposedApi(ipc: IpcPort): {
  call(op: string, input?: unknown): Promise<CallResult>;
  onEvent(listener: (e: unknown) => void): () => void;
} {
  return Object.freeze({
    async call(op: string, input?: unknown): Promise<CallResult> {
      if (typeof op !== 'string' || !ALLOWED_OPERATIONS.has(op))
        return { ok: false, reason: 'method_not_found', message: 'Method not found' };
      return (await ipc.invoke(IPC_CHANNELS.call, op, input ?? {})) as CallResult;
    },
    onEvent(listener: (e: unknown) => void): () => void {
      if (typeof listener !== 'function') return () => undefined;
      const wrapped = (_event: unknown, data: unknown): void => listener(data);
      ipc.on(IPC_CHANNELS.event, wrapped);
      return () => {
        ipc.removeListener(IPC_CHANNELS.event, wrapped);
      };
    },
  });
}
