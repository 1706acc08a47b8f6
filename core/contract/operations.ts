// The names of the user-interface bridge, zod-free so the Electron preload
// (which may import no npm code) can allow-list them. core/contract/bridge.ts
// maps each bridge name to its hub method and schema; electron/ipc serves
// the desktop names. Adding a name without its schema and handler does not
// compile (see the `satisfies` clauses there).

/** Operations every user interface has (desktop and headless web). */
export const BRIDGE_OPERATION_NAMES = [
  'sessions.list',
  'held.list',
  'held.approve',
  'held.deny',
  'held.decide',
  'rules.list',
  'rules.add',
  'rules.revoke',
  'subscriptions.list',
  'subscriptions.cancel',
  'settings.effective',
  'settings.set',
  'inbound.pause',
  'user.send',
  'setup.detect',
  'setup.plan',
  'setup.apply',
  'user.subscribe',
  'activity.list',
  'teams.list',
  'teams.show',
  'teams.create',
  'tasks.list',
  'tasks.create',
  'tasks.update',
  'tasks.assign',
  'confirmations.list',
  'confirmations.allow',
  'confirmations.deny',
  'picture.edges',
  'history.search',
  'history.conversation',
  'history.status',
  'history.delete',
] as const;

/** Operations only the desktop app serves (launch at login, the CLI link). */
export const DESKTOP_OPERATION_NAMES = ['desktop.get', 'desktop.set', 'desktop.linkCli'] as const;

export type BridgeOperationName = (typeof BRIDGE_OPERATION_NAMES)[number];
export type DesktopOperationName = (typeof DESKTOP_OPERATION_NAMES)[number];

/** The two IPC channels between preload and main: one for calls, one for pushed events. */
export const IPC_CHANNELS = { call: 'switchboard:call', event: 'switchboard:event' } as const;
