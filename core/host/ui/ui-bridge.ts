// Runs one user-interface bridge operation against the hub and returns a
// result envelope with a fixed reason and text on failure. Shared by the
// HTTP bridge (core/host/ui/web.ts) and the Electron IPC server, so both
// validate the same way and neither ever shows an internal error's text.

import { bridgeParams, failure, isBridgeOperation, type BridgeOutcome } from '../../contract/bridge.js';
import { HubError } from '../../protocol/errors.js';
import type { Hub } from '../hub.js';
import type { RpcConnection } from '../../transport/rpc-server.js';

/** A stand-in connection for operations that take one (no bridge operation pushes through it). */
const UI_CONNECTION: RpcConnection = { id: -1, notify: () => undefined, closed: false };

export async function runBridgeOperation(hub: Hub, op: string, input: unknown): Promise<BridgeOutcome> {
  if (!isBridgeOperation(op)) return failure('method_not_found');
  const p = bridgeParams(op, input, hub.uiToken);
  if (!p.ok) return failure('invalid_params', { issues: p.issues });
  try {
    return { ok: true, result: await hub.dispatch(p.method, p.params, UI_CONNECTION) };
  } catch (err) {
    if (err instanceof HubError) return failure(err.reason, err.data);
    hub.log.error('user-interface operation failed', { op, error: err instanceof Error ? err.stack : String(err) });
    return failure('internal');
  }
}
