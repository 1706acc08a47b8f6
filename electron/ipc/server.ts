// The one IPC entry point (VS Code / fiddle style): every call from a
// renderer arrives here on IPC_CHANNELS.call with (operation, input). The
// sender must be the top frame of one of our windows showing app://; the
// operation must be in the contract; the input is validated by the
// contract's schema before any handler runs. Answers are envelopes with a
// fixed reason and text; internal errors are logged, never shown.

import { isBridgeOperation } from '../../core/contract/bridge.js';
import { DESKTOP_SCHEMAS, type DesktopResults } from '../../core/contract/desktop.js';
import { DESKTOP_OPERATION_NAMES, type DesktopOperationName } from '../../core/contract/operations.js';
import { failure, type BridgeOutcome } from '../../core/contract/bridge.js';
import { APP_HOST, APP_SCHEME } from '../security/harden.js';
import type { z } from 'zod';

/** What Electron's IpcMainInvokeEvent tells us about the caller. */
export interface IpcSender {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown } | null;
}

export type DesktopHandlers = {
  [O in DesktopOperationName]: (
    input: z.infer<(typeof DESKTOP_SCHEMAS)[O]>,
  ) => Promise<DesktopResults[O]> | DesktopResults[O];
};

export interface IpcServerDeps {
  /** webContents ids of our own windows. */
  trusted(): ReadonlySet<number>;
  bridge(op: string, input: unknown): Promise<BridgeOutcome>;
  desktop: DesktopHandlers;
  log(message: string, fields: Record<string, unknown>): void;
}

const MAX_OP_LENGTH = 64;

/** Why a sender is refused, or null when it is one of ours. */
export function senderProblem(e: IpcSender, trusted: ReadonlySet<number>): string | null {
  if (!trusted.has(e.sender.id)) return 'not one of our windows';
  const frame = e.senderFrame;
  if (frame === null) return 'the frame is gone';
  if (frame.parent !== null) return 'a sub-frame';
  let url: URL;
  try {
    url = new URL(frame.url);
  } catch {
    return 'an unparsable origin';
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return 'a foreign origin';
  return null;
}

function isDesktopOperation(op: string): op is DesktopOperationName {
  return (DESKTOP_OPERATION_NAMES as readonly string[]).includes(op);
}

export function createIpcServer(
  deps: IpcServerDeps,
): (e: IpcSender, op: unknown, input: unknown) => Promise<BridgeOutcome> {
  return async (e, op, input) => {
    const problem = senderProblem(e, deps.trusted());
    if (problem !== null) {
      deps.log('IPC call refused', { why: problem, url: e.senderFrame?.url ?? null });
      return failure('unauthorized');
    }
    if (typeof op !== 'string' || op.length > MAX_OP_LENGTH) return failure('invalid_request');
    if (isBridgeOperation(op)) return deps.bridge(op, input);
    if (!isDesktopOperation(op)) {
      deps.log('IPC call refused', { why: 'unknown operation', op });
      return failure('method_not_found');
    }
    const parsed = DESKTOP_SCHEMAS[op].safeParse(input ?? {});
    if (!parsed.success)
      return failure('invalid_params', {
        issues: parsed.error.issues.slice(0, 10).map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`),
      });
    try {
      const handler = deps.desktop[op] as (input: unknown) => unknown;
      return { ok: true, result: await handler(parsed.data) };
    } catch (err) {
      deps.log('IPC handler failed', { op, error: err instanceof Error ? err.stack : String(err) });
      return failure('internal');
    }
  };
}
