// What each hub method answers and what the hub pushes: result types, the
// send and receipt status vocabularies, inbox items and the views user
// interfaces show. Re-exported by methods.ts, so both sides are typed from
// one place (the params schemas are there). The views of rules, held
// messages, subscriptions, tasks and history are in views.ts.

import type { ActivityEntry, HubEvent, UserNotice } from './events.js';
import type { AGENT_KINDS, MODE_SOURCES, PERMISSION_MODES, SESSION_STATES } from './vocabulary.js';
import type {
  HeldView,
  HistoryEdgesView,
  HistoryPage,
  HistoryStatusView,
  RuleView,
  SubscriptionView,
  TaskView,
} from './views.js';

export type * from './views.js';

export interface HubInfo {
  version: string;
  pid: number;
  socket: string;
  runtimeDir: string;
  stateDir: string;
  sessions: number;
  startedAt: number;
  /** The web UI's loopback port when this hub serves one (`serve --ui`); the UI token is never part of hub.info. */
  uiPort?: number;
}

/** Set when a session got another name than the one it asked for: `rewritten` (normalized: case, spaces,
 * Unicode) and/or `taken` (a live session holds it, so `-2`, `-3` … was added). `note` says so in one sentence. */
export interface NameChange {
  requested: string;
  reasons: Array<'rewritten' | 'taken'>;
  note: string;
}

export interface Registration {
  sessionId: string;
  token: string;
  name: string;
  ref: string;
  address: string;
  resumed: boolean;
  nameChange?: NameChange;
}

export interface AgentRow {
  name: string;
  ref: string;
  /** `name [ref]`, the label a sender can use as `to`. */
  label: string;
  address: string;
  machine: string | null;
  /** Another machine's session whose machine is away since then (epoch ms): a send to it is stored by the relay. */
  awaySince?: number;
  cwd: string;
  agent: (typeof AGENT_KINDS)[number];
  kind: 'switchboard' | 'claude-code' | 'qwen-code';
  /** The app that runs it, when not a terminal (from a Claude Code session's registry `entrypoint`). */
  host?: 'Claude Desktop';
  /** Whether the agent's hooks have reported ('never': not trusted or not set up); null where there are none to expect. */
  hooks: 'reported' | 'never' | null;
  /** Its permission mode as the hub knows it; 'unknown' when the agent has not said (fail closed); null when not ours. */
  mode: (typeof PERMISSION_MODES)[number] | 'unknown' | null;
  state: (typeof SESSION_STATES)[number];
  stateSince: number;
  canReceive: boolean;
  self: boolean;
  /** Unacknowledged items in its inbox. */
  inboxDepth: number;
  /** Messages waiting for it while it is idle and cannot be woken (its user was told); 0 otherwise. */
  waiting?: number;
  /** Its effective crossSessionInbound: a value, or null for mode parity, and the scope that decided. */
  inbound: { value: 'accept' | 'hold' | 'refuse' | null; source: string };
  /** Its class under mode parity (docs/design.md#7-inbound-policy); 'unknown' receives as bypass and sends unclassed; absent where `mode` is null. */
  modeClass?: 'prompting' | 'bypass' | 'unknown';
  /**
   * Where `mode` came from (vocabulary.ts MODE_SOURCES); null while nothing told it (a flag-less Claude Code
   * before its first prompt); absent where `mode` is null.
   */
  modeSource?: (typeof MODE_SOURCES)[number] | null;
  /** The team it registered as a member of (the picture groups by it); absent where not ours. */
  team?: string | null;
}

export const SEND_STATUSES = [
  'queued',
  'held',
  'refused',
  'dropped',
  'sent',
  'subscribed',
  'confirm-denied',
  'confirm-expired',
  'stored',
] as const;
export type SendStatus = (typeof SEND_STATUSES)[number];

/** A send waiting for the user's Allow before it leaves this machine (isolatePeerMachines). */
export interface ConfirmationView {
  id: string;
  sender: { sessionId: string; name: string };
  target: { machine: string; session: string };
  preview: string;
  text: string;
  createdAt: number;
  expiresAt: number | null;
}

export interface SendResult {
  status: SendStatus;
  msg_id: string;
  to: { name: string | null; ref: string | null; address: string };
  reason?: string;
  /** `stored` only: when the relay stops keeping it (epoch ms); its receiver is away until then, or it expires. */
  expiresAt?: number;
  /** One sentence for the agent: what happened and what to expect. */
  note: string;
}

// prettier-ignore
export const RECEIPT_STATUSES = [
  'held', 'delivered', 'approved', 'denied', 'refused', 'expired', 'dropped', 'undelivered', 'waiting',
  'kept', // its agent exited; kept for its conversation's resume
] as const;
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];

export interface InboxMessage {
  kind: 'message';
  id: string;
  from: { address: string; name: string | null; sessionId: string | null };
  summary: string | null;
  /** The framed text to hand to the agent, wrapper included. */
  text: string;
  at: number;
  approvedAfterHold: boolean;
}
export interface InboxReceipt {
  kind: 'receipt';
  id: string;
  origMsgId: string;
  status: ReceiptStatus;
  to: { name: string | null; address: string };
  reason: string;
  text: string;
  at: number;
  count: number;
}
export interface InboxNotice {
  kind: 'notice';
  id: string;
  text: string;
  at: number;
}
export type InboxItem = InboxMessage | InboxReceipt | InboxNotice;

export interface MethodResults {
  'hub.info': HubInfo;
  /** `url`: the web UI with its token in the fragment; null (with `port` null) when this hub serves no web UI. */
  'ui.address': { url: string | null; port: number | null };
  'session.register': Registration;
  'session.state': { state: string };
  'session.mode': { permissionMode: string };
  'session.rename': { name: string; ref: string; nameChange?: NameChange };
  'session.unregister': { ok: true };
  /**
   * `scope` when a session asks: which sessions it may see and reach (crossSessionScope), with the project
   * root when that is "project".
   */
  'agents.list': {
    rows: AgentRow[];
    scope?: { value: 'machine' | 'project'; source: string; project: string | null };
  };
  'message.send': SendResult;
  'inbox.fetch': { items: InboxItem[] };
  'inbox.ack': { acked: number };
  'inbox.subscribe': { subscribed: true };
  'ui.attach': { attached: true; held: number };
  'held.list': { items: HeldView[] };
  'held.approve': { status: 'queued' | 'dropped' };
  'held.deny': { status: 'denied' };
  /** Each id's outcome, in order: `gone` when it was no longer held (decided elsewhere, expired). */
  'held.decide': { results: Array<{ id: string; status: 'queued' | 'dropped' | 'denied' | 'gone' }> };
  /** Every rule in force, and why "always" rules are off when they are (an unreadable rules file). */
  'rules.list': { rules: RuleView[]; problem: string | null };
  /** The rule, and the held messages it decided at once. */
  'rules.add': { rule: RuleView; decided: string[] };
  'rules.revoke': { revoked: boolean };
  'subscriptions.list': { items: SubscriptionView[] };
  'subscriptions.cancel': { cancelled: boolean };
  'settings.effective': {
    effective: unknown;
    problems: Array<{ file: string; key: string | null; message: string }>;
    paused: boolean;
    /** Messages refused because inbound was paused, since the pause began (0 when not paused). */
    pausedRefused: number;
    /** The user settings file Preferences writes (absent from an older hub). */
    userFile?: string;
  };
  'activity.list': { entries: ActivityEntry[]; notices: UserNotice[] };
  'settings.set': { effective: unknown };
  'inbound.pause': { paused: boolean };
  'confirmations.list': {
    items: ConfirmationView[];
    /** mode: `store` keeps mail for a machine that is away (JetStream), `direct` does not; null until known. */
    relay: { configured: boolean; connected: boolean; machine: string | null; mode: 'store' | 'direct' | null };
  };
  'confirmations.allow': { decided: true };
  'confirmations.deny': { decided: true };
  /** Which agents are on the hub's PATH and whether setup is already in their configuration. */
  'setup.detect': {
    agents: Array<{
      agent: 'claude-code' | 'codex' | 'gemini' | 'opencode' | 'qwen';
      command: string;
      path: string | null;
      /** What `<path> --version` said (Claude Code only: its version decides the hooks setup writes), else null. */
      version: string | null;
      configured: boolean;
      problem: string | null;
    }>;
  };
  /** `agentVersion`: the version the plan was made for (found as `switchboard setup` finds it), null when unknown. */
  'setup.plan': { changes: Array<{ file: string; diff: string }>; agentVersion: string | null };
  'setup.apply': { changed: string[]; backups: string[] };
  'user.send': { status: 'queued' | 'dropped'; msg_id: string; to: { name: string; address: string } };
  'user.subscribe': { status: 'subscribed'; to: { name: string; address: string } };
  'teams.list': {
    root: string;
    teams: Array<{
      name: string;
      dir: string;
      members: number;
      createdAt: number;
      leadSessionId: string | null;
      problem?: { file: string; problem: string };
    }>;
  };
  'teams.show': {
    config: {
      name: string;
      members: Array<{
        name: string;
        agentId: string;
        cwd?: string;
        color?: string;
        agentType?: string;
        isActive?: boolean;
      }>;
    } & Record<string, unknown>;
    inboxes: Array<{ member: string; depth: number; unread: number; problem?: string }>;
  };
  /** The roster as written (config.json): the lead is its only member. */
  'teams.create': { config: MethodResults['teams.show']['config'] };
  'teams.send': { delivered: 'inbox' };
  'tasks.list': { tasks: TaskView[] };
  'tasks.get': { task: TaskView };
  'tasks.create': { task: TaskView };
  'tasks.update': { task: TaskView };
  'tasks.claim': { task: TaskView };
  'tasks.assign': { task: TaskView };
  'tasks.delete': { deleted: boolean };
  'tasks.release': { released: string[] };
  'history.search': HistoryPage;
  'history.conversation': HistoryPage;
  'history.delete': { deleted: number };
  'history.edges': HistoryEdgesView;
  'history.status': HistoryStatusView;
}

/** Notifications the hub pushes to subscribed connections. */
export interface HubNotifications {
  'inbox.item': { sessionId: string; item: InboxItem };
  /** To user-interface connections (ui.attach): see core/protocol/events.ts. */
  'ui.event': HubEvent;
}
