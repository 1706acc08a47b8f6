// The tray menu as a pure function of the hub's state: what the person sees
// in the menu bar. Actions are data; electron/main.ts turns them into
// clicks. "Held messages" opens the view; "Decide from here" lists the held
// messages (sender → receiver and the start of the agent's text, so the
// person decides what is on screen) with Approve once, Deny, and an
// hour-long Allow or Block rule for that sender → receiver. "Quiet" stops
// notifications while the count and the badge still show.

import type { AgentRow } from '../../core/protocol/methods.js';
import type { NotificationDecision } from '../notifications/route.js';

/** A held message as the tray shows it. */
export interface TrayHeld {
  id: string;
  sender: string;
  receiver: string;
  preview: string;
}

export interface TrayState {
  sessions: Array<Pick<AgentRow, 'label' | 'agent' | 'state' | 'kind' | 'address'>>;
  held: number;
  /** The oldest held messages, at most MENU_HELD of them. */
  heldItems: TrayHeld[];
  confirmations: number;
  paused: boolean;
  /** No notifications for now (the person is focused); counts still show. */
  quiet: boolean;
}

export type HeldDecision = 'approve' | 'deny' | 'allow-hour' | 'block-hour';

export type TrayAction =
  | { kind: 'open'; view: 'sessions' | 'approvals' | 'preferences' }
  | { kind: 'pause'; paused: boolean }
  | { kind: 'quiet'; quiet: boolean }
  | { kind: 'held'; id: string; decision: HeldDecision }
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
export const MENU_HELD = 10; // the oldest ten; the rest are decided in Approvals
const PREVIEW_CHARS = 60;

/** One held message's submenu: what it is (the agent's words, cut short), then the decisions. */
function heldItem(h: TrayHeld): TrayItem {
  const text = h.preview.length > PREVIEW_CHARS ? `${h.preview.slice(0, PREVIEW_CHARS - 1)}…` : h.preview;
  const pair = `${h.sender} → ${h.receiver}`;
  const act = (decision: HeldDecision): TrayAction => ({ kind: 'held', id: h.id, decision });
  return {
    label: `${pair}: "${text}"`,
    type: 'submenu',
    submenu: [
      { label: 'Approve once', action: act('approve') },
      { label: 'Deny', action: act('deny') },
      { type: 'separator' },
      { label: `Allow ${pair} for an hour`, action: act('allow-hour') },
      { label: `Block ${pair} for an hour`, action: act('block-hour') },
      { type: 'separator' },
      { label: 'Open in Approvals…', action: { kind: 'open', view: 'approvals' } },
    ],
  };
}

const AGENT_NAMES: Record<AgentRow['agent'], string> = {
  claude: 'Claude Code',
  codex: 'Codex',
  gemini: 'Gemini CLI',
  opencode: 'OpenCode',
  qwen: 'Qwen Code',
  other: 'agent',
};

export function sessionLine(s: TrayState['sessions'][number]): string {
  const kind =
    s.kind === 'claude-code'
      ? 'Claude Code (its own messaging)'
      : s.kind === 'qwen-code'
        ? 'Qwen Code (its own messaging)'
        : AGENT_NAMES[s.agent];
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
    ...(state.heldItems.length > 0
      ? [{ label: 'Decide from here', type: 'submenu' as const, submenu: state.heldItems.map(heldItem) }]
      : []),
    {
      label: 'Quiet (no notifications)',
      type: 'checkbox',
      checked: state.quiet,
      action: { kind: 'quiet', quiet: !state.quiet },
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
export function trayIconFile(state: Pick<TrayState, 'held' | 'confirmations'>, platform: NodeJS.Platform): string {
  const alert = state.held + state.confirmations > 0 ? 'Alert' : '';
  return platform === 'darwin' ? `tray${alert}Template.png` : `tray${alert}.png`;
}

/** A held message's decision from the tray, as a notification's button would make it (notifier.ts carries it out). */
export function trayDecision(a: Extract<TrayAction, { kind: 'held' }>): NotificationDecision {
  if (a.decision === 'approve' || a.decision === 'deny') return { kind: a.decision, item: 'held', itemId: a.id };
  return { kind: 'rule', effect: a.decision === 'allow-hour' ? 'allow' : 'block', itemId: a.id };
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
