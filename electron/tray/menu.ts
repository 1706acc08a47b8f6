// The tray menu as a pure function of the hub's state: what the person sees
// in the menu bar. Actions are data; electron/main.ts turns them into
// clicks. Nothing here approves a message: "Held messages" opens the view.

import type { AgentRow } from '../../core/protocol/methods.js';

export interface TrayState {
  sessions: Array<Pick<AgentRow, 'label' | 'agent' | 'state' | 'kind' | 'address'>>;
  held: number;
  confirmations: number;
  paused: boolean;
}

export type TrayAction =
  | { kind: 'open'; view: 'sessions' | 'approvals' | 'preferences' }
  | { kind: 'pause'; paused: boolean }
  | { kind: 'quit' };

export interface TrayItem {
  label?: string;
  type?: 'normal' | 'separator' | 'checkbox' | 'submenu';
  enabled?: boolean;
  checked?: boolean;
  action?: TrayAction;
  submenu?: TrayItem[];
}

const MENU_SESSIONS = 20; // more than this are summarised: a menu is not a list view

const AGENT_NAMES: Record<AgentRow['agent'], string> = {
  claude: 'Claude Code',
  codex: 'Codex',
  gemini: 'Gemini CLI',
  other: 'agent',
};

export function sessionLine(s: TrayState['sessions'][number]): string {
  const kind = s.kind === 'claude-code' ? 'Claude Code (its own messaging)' : AGENT_NAMES[s.agent];
  return `${s.state === 'busy' ? '●' : '○'} ${s.label} — ${kind}, ${s.state}`;
}

export function buildTrayMenu(state: TrayState): TrayItem[] {
  const waiting = state.held + state.confirmations;
  const shown = state.sessions.slice(0, MENU_SESSIONS);
  const sessions: TrayItem[] =
    shown.length === 0
      ? [{ label: 'No live sessions', enabled: false }]
      : shown.map((s) => ({ label: sessionLine(s), action: { kind: 'open', view: 'sessions' } }));
  if (state.sessions.length > shown.length)
    sessions.push({
      label: `… and ${state.sessions.length - shown.length} more`,
      action: { kind: 'open', view: 'sessions' },
    });
  return [
    {
      label: `${state.sessions.length} live session${state.sessions.length === 1 ? '' : 's'}${state.paused ? ' — inbound paused' : ''}`,
      enabled: false,
    },
    { label: 'Sessions', type: 'submenu', submenu: sessions },
    { type: 'separator' },
    {
      label: waiting > 0 ? `Held messages (${waiting})…` : 'Held messages…',
      action: { kind: 'open', view: 'approvals' },
    },
    {
      label: 'Pause inbound (refuse all)',
      type: 'checkbox',
      checked: state.paused,
      action: { kind: 'pause', paused: !state.paused },
    },
    { type: 'separator' },
    { label: 'Preferences…', action: { kind: 'open', view: 'preferences' } },
    { label: 'Quit Switchboard', action: { kind: 'quit' } },
  ];
}

/** The tray icon file: template images on macOS (tinted by the system), an alert variant while something waits. */
export function trayIconFile(state: TrayState, platform: NodeJS.Platform): string {
  const alert = state.held + state.confirmations > 0 ? 'Alert' : '';
  return platform === 'darwin' ? `tray${alert}Template.png` : `tray${alert}.png`;
}

/** The tooltip and the badge text (macOS tray title) for the current state. */
export function trayStatus(state: TrayState): { tooltip: string; badge: string } {
  const waiting = state.held + state.confirmations;
  const parts = [`${state.sessions.length} session${state.sessions.length === 1 ? '' : 's'}`];
  if (waiting > 0) parts.push(`${waiting} waiting for you`);
  if (state.paused) parts.push('inbound paused');
  return { tooltip: `Switchboard — ${parts.join(', ')}`, badge: waiting > 0 ? String(waiting) : '' };
}

/** Calls fn once, `ms` after the last of a burst of calls (menu rebuilds on hub events). */
export function debounce(
  fn: () => void,
  ms: number,
  timers: { set: (f: () => void, ms: number) => unknown; clear: (h: unknown) => void } = {
    set: setTimeout,
    clear: (h) => clearTimeout(h as NodeJS.Timeout),
  },
): { (): void; cancel(): void } {
  let handle: unknown;
  const run = (): void => {
    if (handle !== undefined) timers.clear(handle);
    handle = timers.set(() => {
      handle = undefined;
      fn();
    }, ms);
  };
  run.cancel = (): void => {
    if (handle !== undefined) timers.clear(handle);
    handle = undefined;
  };
  return run;
}
