// Runs one user-interface bridge operation against the hub and returns a
// result envelope with a fixed reason and text on failure. Shared by the
// HTTP bridge (core/host/ui/web.ts) and the Electron IPC server, so both
// validate the same way and neither ever shows an internal error's text.

import { bridgeParams, failure, isBridgeOperation, type OutcomeOf } from '../../contract/bridge.js';
import { HubError } from '../../protocol/errors.js';
import type { Hub } from '../hub.js';
import type { RpcConnection } from '../../transport/rpc-server.js';

/** A stand-in connection for operations that take one (no bridge operation pushes through it). */
const UI_CONNECTION: RpcConnection = { id: -1, notify: () => undefined, closed: false };

/** Runs operation `op`; the result is typed by the operation (the hub method's result in the contract). */
export async function runBridgeOperation<O extends string>(hub: Hub, op: O, input: unknown): Promise<OutcomeOf<O>> {
  if (!isBridgeOperation(op)) return failure('method_not_found');
  const p = bridgeParams(op, input, hub.uiToken);
  if (!p.ok) return failure('invalid_params', { issues: p.issues });
  try {
    // The dispatcher answers the method's result type (host/api Handlers); the contract names it per operation.
    return { ok: true, result: await hub.dispatch(p.method, p.params, UI_CONNECTION) } as OutcomeOf<O>;
  } catch (err) {
    if (err instanceof HubError) return failure(err.reason, err.data);
    hub.log.error('user-interface operation failed', { op, error: err instanceof Error ? err.stack : String(err) });
    return failure('internal');
  }
}
