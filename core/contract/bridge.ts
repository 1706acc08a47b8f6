// The user-interface bridge contract, defined once: every operation a user
// interface may call (its input schema and the hub method behind it) and
// the events it receives. The HTTP bridge (core/host/ui/web.ts) serves it
// today; the Electron preload and the renderer's two Bridge implementations
// derive from the same map. Operations never take a session token: they act
// with the user-interface capability only.

import { formatIssues } from '../kit/issues.js';
import { z } from 'zod';
import type { MethodName, MethodResults } from '../protocol/methods.js';
import { METHODS } from '../protocol/methods.js';
import { errorText, type ErrorReason } from '../protocol/errors.js';
import type { BridgeOperationName } from './operations.js';

/** Operation name → the hub method it runs (the UI token is added by the bridge). */
export const BRIDGE_OPERATIONS = {
  'sessions.list': 'agents.list',
  'held.list': 'held.list',
  'held.approve': 'held.approve',
  'held.deny': 'held.deny',
  'held.decide': 'held.decide',
  'rules.list': 'rules.list',
  'rules.add': 'rules.add',
  'rules.revoke': 'rules.revoke',
  'subscriptions.list': 'subscriptions.list',
  'subscriptions.cancel': 'subscriptions.cancel',
  'settings.effective': 'settings.effective',
  'settings.set': 'settings.set',
  'inbound.pause': 'inbound.pause',
  'user.send': 'user.send',
  'setup.detect': 'setup.detect',
  'setup.plan': 'setup.plan',
  'setup.apply': 'setup.apply',
  'user.subscribe': 'user.subscribe',
  'activity.list': 'activity.list',
  'teams.list': 'teams.list',
  'teams.show': 'teams.show',
  'teams.create': 'teams.create',
  'tasks.list': 'tasks.list',
  'tasks.create': 'tasks.create',
  'tasks.update': 'tasks.update',
  'tasks.assign': 'tasks.assign',
  'confirmations.list': 'confirmations.list',
  'confirmations.allow': 'confirmations.allow',
  'confirmations.deny': 'confirmations.deny',
  'picture.edges': 'history.edges',
  'history.search': 'history.search',
  'history.conversation': 'history.conversation',
  'history.status': 'history.status',
  'history.delete': 'history.delete',
} as const satisfies Record<BridgeOperationName, MethodName>;

export type BridgeOperation = keyof typeof BRIDGE_OPERATIONS;
export type BridgeResult<O extends BridgeOperation> = MethodResults[(typeof BRIDGE_OPERATIONS)[O]];

/** Methods the UI token opens (their auth kind in METHODS) take it in params; the bridge fills it in. */
function needsUiToken(method: MethodName): boolean {
  const auth = METHODS[method].auth;
  return auth === 'ui' || auth === 'reader';
}

/** What a bridge operation answers: its result, or a fixed reason and text (never an internal error's text). */
export type BridgeOutcome<R = unknown> =
  { ok: true; result: R } | { ok: false; reason: ErrorReason; message: string; data?: unknown };

/** The outcome of operation `O`: its result type when `O` is a known operation. */
export type OutcomeOf<O extends string> = BridgeOutcome<O extends BridgeOperation ? BridgeResult<O> : unknown>;

export function failure(reason: ErrorReason, data?: unknown): BridgeOutcome<never> {
  return { ok: false, reason, message: errorText(reason, data), ...(data === undefined ? {} : { data }) };
}

export function isBridgeOperation(name: string): name is BridgeOperation {
  return Object.prototype.hasOwnProperty.call(BRIDGE_OPERATIONS, name);
}

/**
 * Validates a UI's input for an operation against the hub method's own
 * schema (with the UI token added where the method needs it). Session
 * credentials are refused: a UI acts as the user, never as a session.
 */
export function bridgeParams(
  op: BridgeOperation,
  input: unknown,
  uiToken: string,
): { ok: true; method: MethodName; params: unknown } | { ok: false; issues: string[] } {
  const method = BRIDGE_OPERATIONS[op];
  if (input !== undefined && (input === null || typeof input !== 'object' || Array.isArray(input)))
    return { ok: false, issues: ['(input): expected an object'] };
  const given = (input ?? {}) as Record<string, unknown>;
  if ('sessionId' in given || 'token' in given || 'uiToken' in given)
    return { ok: false, issues: ['(input): credentials are not accepted from a user interface'] };
  const params = needsUiToken(method) ? { ...given, uiToken } : given;
  const parsed = (METHODS[method].params as z.ZodType).safeParse(params);
  if (!parsed.success)
    return {
      ok: false,
      issues: formatIssues(parsed.error, '(input)'),
    };
  return { ok: true, method, params: parsed.data };
}

/** Pushed to interfaces (Server-Sent Events over HTTP, IPC in Electron). */
export const BRIDGE_EVENT = 'ui.event';
