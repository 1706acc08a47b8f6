// The one dispatcher of hub methods. Each method's auth kind is declared
// once in METHODS (core/protocol/methods.ts); this checks it before any
// handler runs and hands the handler its caller: the session (its lease
// renewed), whether the UI token came, and the connection. A method without
// a handler, or a handler that expects a caller its auth kind cannot give,
// is a compile error.

import { HubError } from '../../protocol/errors.js';
import { wired } from './wire-errors.js';
import {
  METHODS,
  type AuthKind,
  type AuthOf,
  type MethodName,
  type MethodParams,
  type MethodResults,
} from '../../protocol/methods.js';
import type { SessionRecord } from '../../registry/session.js';
import type { SessionTable } from '../../registry/table.js';
import type { Clock } from '../../kit/clock.js';
import { sameSecret } from '../../kit/secret.js';
import type { Dispatch, RpcConnection } from '../../transport/rpc-server.js';

/** What a handler knows about its caller, by the method's auth kind. */
export interface Caller<K extends AuthKind = AuthKind> {
  conn: RpcConnection;
  /** `session`: always; `actor`, `reader`: when session credentials came; never for `ui` and `none`. */
  session: K extends 'session' ? SessionRecord : K extends 'actor' | 'reader' ? SessionRecord | undefined : undefined;
  /** The UI token came and matched (`ui` always; `reader` when it was given). */
  ui: K extends 'ui' ? true : K extends 'reader' ? boolean : false;
}

export type Handler<M extends MethodName> = (
  params: MethodParams<M>,
  caller: Caller<AuthOf<M>>,
) => MethodResults[M] | Promise<MethodResults[M]>;
export type Handlers = { [M in MethodName]: Handler<M> };

export interface DispatchPorts {
  readonly table: Pick<SessionTable, 'auth'>;
  readonly clock: Clock;
  readonly uiToken: string;
}

interface Credentials {
  sessionId?: string | undefined;
  token?: string | undefined;
  uiToken?: string | undefined;
}

export function createDispatch(ports: DispatchPorts, handlers: Handlers): Dispatch {
  const session = (c: Credentials): SessionRecord => {
    if (c.sessionId === undefined || c.token === undefined) throw new HubError('unauthorized');
    const s = ports.table.auth(c.sessionId, c.token);
    s.lastSeen = ports.clock.now();
    return s;
  };
  const ui = (c: Credentials): true => {
    if (c.uiToken === undefined || !sameSecret(c.uiToken, ports.uiToken)) throw new HubError('unauthorized');
    return true;
  };
  const callerFor = (kind: AuthKind, c: Credentials, conn: RpcConnection): Caller => {
    switch (kind) {
      case 'none':
        return { conn, session: undefined, ui: false };
      case 'session':
        return { conn, session: session(c), ui: false };
      case 'actor':
        return {
          conn,
          session: c.sessionId !== undefined && c.token !== undefined ? session(c) : undefined,
          ui: false,
        };
      case 'ui':
        return { conn, session: undefined, ui: ui(c) };
      case 'reader':
        return c.uiToken !== undefined
          ? { conn, session: undefined, ui: ui(c) }
          : { conn, session: session(c), ui: false };
      default: {
        const never: never = kind;
        return never;
      }
    }
  };
  return (method, params, conn) => {
    const caller = callerFor(METHODS[method].auth, (params ?? {}) satisfies Credentials, conn);
    return wired(() => (handlers[method] as (p: unknown, c: Caller) => unknown)(params, caller));
  };
}
