// The only way the renderer talks to the hub. Two implementations: HTTP +
// Server-Sent Events (headless, http.ts) and the Electron preload object.
// Operation names and results come from core/contract.

import type { BridgeOperation, BridgeResult } from '../../core/contract/bridge.js';
import type { DesktopInput, DesktopResults } from '../../core/contract/desktop.js';
import type { DesktopOperationName } from '../../core/contract/operations.js';
import type { HubEvent as CoreHubEvent } from '../../core/protocol/events.js';

/** 'unauthorized': the HTTP bridge has no token or the hub refused it (it restarted): the page shows its sign-in screen. */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'unauthorized';

/** What a bridge pushes: the hub's events (core/protocol/events.ts), `resync` after a reconnect (reload everything), and the desktop's `ui.focus` (show a view). */
export type HubEvent = CoreHubEvent | { type: 'resync' } | { type: 'ui.focus'; view?: unknown; itemId?: unknown };

export interface Bridge {
  call<O extends BridgeOperation>(op: O, input?: Record<string, unknown>): Promise<BridgeResult<O>>;
  /** Subscribes to hub events; returns the disposer. */
  onEvent(listener: (e: HubEvent) => void): () => void;
  onState(listener: (s: ConnectionState) => void): () => void;
  /** The HTTP bridge only (the sign-in screen): use this token from now on, and reconnect with it. */
  signIn?: (token: string) => void;
  /** The HTTP bridge only: whether this tab holds a token at all. */
  hasToken?: () => boolean;
  /** Desktop-only operations (launch at login, CLI launcher); absent in a browser. */
  desktop?: <O extends DesktopOperationName>(op: O, input: DesktopInput<O>) => Promise<DesktopResults[O]>;
}

export class BridgeError extends Error {
  readonly reason: string;
  constructor(reason: string, message: string) {
    super(message);
    this.name = 'BridgeError';
    this.reason = reason;
  }
}
