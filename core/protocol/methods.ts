// The hub socket's methods: one strict, bounded zod schema per method's
// params, and the result types. This is the single source both the server
// (core/host) and the client (core/client) are typed from.

import { z } from 'zod';
import { BoundedJsonValue, boundedJsonObject } from './bounded-json.js';
import { LIMITS } from './limits.js';
import type { HistoryEdge, HistoryMessage, HistoryStatus } from './history.js';
import type { ActivityEntry, HubEvent, UserNotice } from './events.js';
import { AGENT_KINDS, PERMISSION_MODES, SESSION_STATES } from './vocabulary.js';

export { AGENT_KINDS, PERMISSION_MODES, SESSION_STATES };

const Id = z.string().min(1).max(64);
const Token = z.string().min(1).max(128);
const Path = z.string().min(1).max(4096);
const Name = z.string().min(1).max(256);

const Auth = { sessionId: Id, token: Token };

export const RegisterParams = z.strictObject({
  name: Name.optional(),
  cwd: Path,
  pid: z
    .number()
    .int()
    .positive()
    .max(2 ** 31)
    .optional(),
  permissionMode: z.enum(PERMISSION_MODES).default('default'),
  /** false: the agent did not say its mode (permissionMode is a placeholder); the policy fails closed. */
  modeKnown: z.boolean().default(true),
  bypassAvailable: z.boolean().default(false),
  interactive: z.boolean().default(true),
  agent: z.enum(AGENT_KINDS).default('other'),
  team: Name.optional(),
  member: Name.optional(),
  settings: boundedJsonObject(128).optional(),
  /** `connection`: lives while this connection is open; `pid`: while pid lives. */
  liveness: z.enum(['connection', 'pid']).default('connection'),
  resume: z.strictObject(Auth).optional(),
  /** Sent by the agent's hook commands: proves they run (Codex and Gemini skip untrusted hooks silently). */
  hook: z.boolean().optional(),
});
export type RegisterParams = z.input<typeof RegisterParams>;

export const SessionAuth = z.strictObject(Auth);
export const StateParams = z.strictObject({
  ...Auth,
  state: z.enum(SESSION_STATES),
  hook: z.boolean().optional(),
  /** The agent's own session (Codex: thread) id from the hook input; with `hook` only. */
  agentSessionId: z
    .string()
    .regex(/^[0-9A-Za-z_-]{1,128}$/)
    .optional(),
});
export const ModeParams = z.strictObject({
  ...Auth,
  permissionMode: z.enum(PERMISSION_MODES),
  bypassAvailable: z.boolean().optional(),
});
export const RenameParams = z.strictObject({ ...Auth, name: Name });
export const ListParams = z.strictObject({ sessionId: Id.optional(), token: Token.optional() });

export const SendParams = z.strictObject({
  ...Auth,
  to: z.string().max(4096),
  // Code points are counted by validateSend (summary_too_long, message_too_large); one is at most 2 UTF-16 units.
  summary: z
    .string()
    .max(LIMITS.summaryChars * 2)
    .optional(),
  message: z.string().max(LIMITS.frameBytes).optional(),
  notify_when_idle: z.boolean().optional(),
});
export type SendParams = z.input<typeof SendParams>;

export const FetchParams = z.strictObject({
  ...Auth,
  limit: z.number().int().min(1).max(1000).default(100),
  waitMs: z.number().int().min(0).max(LIMITS.fetchWaitMs).default(0),
});
export const AckParams = z.strictObject({ ...Auth, ids: z.array(z.string().min(1).max(128)).max(1000) });
export const SubscribeParams = z.strictObject(Auth);
export const InfoParams = z.strictObject({}).optional();

/** User-interface methods: they need the hub's UI token, never a session's. */
const UiToken = { uiToken: z.string().min(1).max(128) };
export const UiParams = z.strictObject(UiToken);
export const UiItemParams = z.strictObject({ ...UiToken, id: z.string().min(1).max(128) });
export const UiSettingsParams = z.strictObject({ ...UiToken, sessionId: Id.optional() });
export const UiSetSettingParams = z.strictObject({
  ...UiToken,
  key: z.enum([
    'crossSessionInbound',
    'dialogExpiry',
    'isolatePeerMachines',
    'throttle',
    'idleSubscriptionMinutes',
    'publishToClaudeCode',
    'relay',
    'historyRetentionDays',
    'historyMaxMegabytes',
  ]),
  /** null removes the key from the user scope. */
  value: BoundedJsonValue,
});

/** Team and task methods: optional session credentials name the actor; without them it is "user". */
const Actor = { sessionId: Id.optional(), token: Token.optional() };
const TeamName = z.string().min(1).max(256);
const TaskId = z.string().regex(/^\d{1,15}$/);
const TaskStatus = z.enum(['pending', 'in_progress', 'completed']);
export const TeamsListParams = z.strictObject({}).optional();
export const TeamShowParams = z.strictObject({ team: TeamName });
export const TasksListParams = z.strictObject({ list: TeamName, includeInternal: z.boolean().optional() });
export const TaskGetParams = z.strictObject({ list: TeamName, id: TaskId });
export const TaskCreateParams = z.strictObject({
  ...Actor,
  list: TeamName,
  subject: z.string().min(1).max(10_000),
  description: z.string().max(1_000_000).default(''),
  activeForm: z.string().max(10_000).optional(),
  blockedBy: z.array(TaskId).max(1000).optional(),
  metadata: boundedJsonObject(256).optional(),
});
export const TaskUpdateParams = z.strictObject({
  ...Actor,
  list: TeamName,
  id: TaskId,
  subject: z.string().min(1).max(10_000).optional(),
  description: z.string().max(1_000_000).optional(),
  activeForm: z.string().max(10_000).optional(),
  status: TaskStatus.optional(),
  owner: z.string().min(1).max(256).nullable().optional(),
  metadata: boundedJsonObject(256).optional(),
  /** Claude Code's TaskUpdate addBlocks/addBlockedBy: both sides of each edge are written. */
  addBlocks: z.array(TaskId).max(1000).optional(),
  addBlockedBy: z.array(TaskId).max(1000).optional(),
});
export const TaskClaimParams = z.strictObject({
  ...Actor,
  list: TeamName,
  id: TaskId,
  owner: z.string().min(1).max(256).optional(),
  busyCheck: z.boolean().optional(),
});
export const TaskAssignParams = z.strictObject({
  ...Actor,
  team: TeamName,
  id: TaskId,
  owner: z.string().min(1).max(256),
});
export const TaskDeleteParams = z.strictObject({ ...Actor, list: TeamName, id: TaskId });
export const TaskReleaseParams = z.strictObject({ ...Actor, list: TeamName, owner: z.string().min(1).max(256) });
export const TeamSendParams = z.strictObject({
  ...Auth,
  team: TeamName,
  to: z.string().min(1).max(256),
  text: z.string().min(1).max(1_000_000),
  summary: z.string().max(LIMITS.summaryChars).optional(),
});

/** History (issue 18): a session's token reads its own messages only; the UI token reads and deletes all. */
const HISTORY_OUTCOMES = [
  'queued',
  'delivered',
  'held',
  'approved',
  'denied',
  'expired',
  'refused',
  'dropped',
  'sent',
  'confirm-denied',
  'confirm-expired',
] as const;
const HistoryAuth = {
  sessionId: Id.optional(),
  token: Token.optional(),
  uiToken: z.string().min(1).max(128).optional(),
};
const HistoryFilter = {
  /** Words to find in the text, summary or names (all must match). */
  text: z.string().min(1).max(1000).optional(),
  /** A session (id or name) on the other side. */
  with: Name.optional(),
  outcome: z.array(z.enum(HISTORY_OUTCOMES)).max(HISTORY_OUTCOMES.length).optional(),
  since: z.number().int().min(0).optional(),
  until: z.number().int().min(0).optional(),
  /** Paging by `seq`: older than (search) or newer than (conversation). */
  before: z.number().int().min(0).optional(),
  after: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(500).default(100),
};
export const HistorySearchParams = z.strictObject({
  ...HistoryAuth,
  ...HistoryFilter,
  /** UI token only: one session's messages. */ session: Name.optional(),
});
export const HistoryConversationParams = z.strictObject({
  ...HistoryAuth,
  ...HistoryFilter,
  /** UI token only: the two sessions (ids or names), either direction. */
  between: z.tuple([Name, Name]).optional(),
  team: Name.optional(),
});
/** The picture (issue 18): messages of the last `windowMs` counted per sender, receiver and outcome; UI token only. */
export const HISTORY_EDGE_WINDOW_MAX_MS = 7 * 24 * 3_600_000; // a week: beyond it the picture is history, not "recent"
export const HistoryEdgesParams = z.strictObject({
  ...UiToken,
  windowMs: z.number().int().min(1000).max(HISTORY_EDGE_WINDOW_MAX_MS).default(3_600_000),
});
export const HistoryDeleteParams = z.union([
  z.strictObject({ ...UiToken, all: z.literal(true) }),
  z.strictObject({ ...UiToken, between: z.tuple([Name, Name]) }),
]);

/**
 * Who may call a method, declared once per method below; one dispatcher
 * (core/host/api/dispatch.ts) checks it and hands the handler the caller:
 * `none` needs no credentials; `session` a session's id and token; `actor`
 * either a session's credentials or none (the actor is then the user); `ui`
 * the hub's UI token; `reader` the UI token (everything) or a session's
 * credentials (its own records only).
 */
export const AUTH_KINDS = ['none', 'session', 'actor', 'ui', 'reader'] as const;
export type AuthKind = (typeof AUTH_KINDS)[number];

function method<A extends AuthKind, S extends z.ZodType>(auth: A, params: S): { readonly auth: A; readonly params: S } {
  return { auth, params };
}

export const METHODS = {
  'hub.info': method('none', InfoParams),
  'session.register': method('none', RegisterParams),
  'session.state': method('session', StateParams),
  'session.mode': method('session', ModeParams),
  'session.rename': method('session', RenameParams),
  'session.unregister': method('session', SessionAuth),
  'agents.list': method('actor', ListParams),
  'message.send': method('session', SendParams),
  'inbox.fetch': method('session', FetchParams),
  'inbox.ack': method('session', AckParams),
  'inbox.subscribe': method('session', SubscribeParams),
  'ui.attach': method('ui', UiParams),
  'held.list': method('ui', UiParams),
  'held.approve': method('ui', UiItemParams),
  'held.deny': method('ui', UiItemParams),
  'subscriptions.list': method('ui', UiParams),
  'subscriptions.cancel': method('ui', UiItemParams),
  'settings.effective': method('ui', UiSettingsParams),
  'activity.list': method('ui', UiParams),
  'settings.set': method('ui', UiSetSettingParams),
  'inbound.pause': method('ui', z.strictObject({ ...UiToken, paused: z.boolean() })),
  'confirmations.list': method('ui', UiParams),
  'confirmations.allow': method('ui', UiItemParams),
  'confirmations.deny': method('ui', UiItemParams),
  'setup.detect': method('ui', UiParams),
  'setup.plan': method(
    'ui',
    z.strictObject({
      uiToken: z.string().min(1).max(128),
      agent: z.enum(['claude-code', 'codex', 'gemini']),
      uninstall: z.boolean().optional(),
    }),
  ),
  'setup.apply': method(
    'ui',
    z.strictObject({
      uiToken: z.string().min(1).max(128),
      agent: z.enum(['claude-code', 'codex', 'gemini']),
      uninstall: z.boolean().optional(),
    }),
  ),
  'user.send': method(
    'ui',
    z.strictObject({
      uiToken: z.string().min(1).max(128),
      to: z.string().min(1).max(4096),
      message: z.string().min(1).max(LIMITS.messageBytes),
    }),
  ),
  'user.subscribe': method(
    'ui',
    z.strictObject({ uiToken: z.string().min(1).max(128), to: z.string().min(1).max(4096) }),
  ),
  'teams.list': method('none', TeamsListParams),
  'teams.show': method('none', TeamShowParams),
  'teams.send': method('session', TeamSendParams),
  'tasks.list': method('none', TasksListParams),
  'tasks.get': method('none', TaskGetParams),
  'tasks.create': method('actor', TaskCreateParams),
  'tasks.update': method('actor', TaskUpdateParams),
  'tasks.claim': method('actor', TaskClaimParams),
  'tasks.assign': method('actor', TaskAssignParams),
  'tasks.delete': method('actor', TaskDeleteParams),
  'tasks.release': method('actor', TaskReleaseParams),
  'history.search': method('reader', HistorySearchParams),
  'history.conversation': method('reader', HistoryConversationParams),
  'history.delete': method('ui', HistoryDeleteParams),
  'history.edges': method('ui', HistoryEdgesParams),
  'history.status': method('ui', UiParams),
} as const;
export type MethodName = keyof typeof METHODS;
export type MethodParams<M extends MethodName> = z.output<(typeof METHODS)[M]['params']>;
export type MethodInput<M extends MethodName> = z.input<(typeof METHODS)[M]['params']>;
export type AuthOf<M extends MethodName> = (typeof METHODS)[M]['auth'];

export function isMethodName(name: string): name is MethodName {
  return Object.prototype.hasOwnProperty.call(METHODS, name);
}

// ---- results ----------------------------------------------------------------

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

export interface Registration {
  sessionId: string;
  token: string;
  name: string;
  ref: string;
  address: string;
  resumed: boolean;
}

export interface AgentRow {
  name: string;
  ref: string;
  /** `name [ref]`, the label a sender can use as `to`. */
  label: string;
  address: string;
  machine: string | null;
  cwd: string;
  agent: (typeof AGENT_KINDS)[number];
  kind: 'switchboard' | 'claude-code';
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
  /** Its class under mode parity (DESIGN.md §6.3); 'unknown' receives as bypass and sends unclassed; absent where `mode` is null. */
  modeClass?: 'prompting' | 'bypass' | 'unknown';
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
  /** One sentence for the agent: what happened and what to expect. */
  note: string;
}

export const RECEIPT_STATUSES = [
  'held',
  'delivered',
  'approved',
  'denied',
  'refused',
  'expired',
  'dropped',
  'undelivered',
  'waiting',
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

export interface HeldView {
  id: string;
  sender: { name: string | null; address: string; sessionId: string | null; verified: boolean };
  receiver: { sessionId: string; name: string; label: string };
  reason: string;
  /** The first 200 characters of the message. */
  preview: string;
  text: string;
  summary: string | null;
  heldAt: number;
  /** Wall-clock deadline, or null while no interface is attached or expiry is "never". */
  expiresAt: number | null;
}

export interface SubscriptionView {
  id: string;
  subscriber: { sessionId: string; name: string | null };
  target: { sessionId: string; label: string };
  createdAt: number;
  expiresAt: number;
}

export interface TaskView {
  id: string;
  subject: string;
  description: string;
  activeForm?: string;
  owner?: string;
  status: 'pending' | 'in_progress' | 'completed';
  blocks: string[];
  blockedBy: string[];
  metadata?: Record<string, unknown>;
}

export interface MethodResults {
  'hub.info': HubInfo;
  'session.register': Registration;
  'session.state': { state: string };
  'session.mode': { permissionMode: string };
  'session.rename': { name: string; ref: string };
  'session.unregister': { ok: true };
  'agents.list': { rows: AgentRow[] };
  'message.send': SendResult;
  'inbox.fetch': { items: InboxItem[] };
  'inbox.ack': { acked: number };
  'inbox.subscribe': { subscribed: true };
  'ui.attach': { attached: true; held: number };
  'held.list': { items: HeldView[] };
  'held.approve': { status: 'queued' | 'dropped' };
  'held.deny': { status: 'denied' };
  'subscriptions.list': { items: SubscriptionView[] };
  'subscriptions.cancel': { cancelled: boolean };
  'settings.effective': {
    effective: unknown;
    problems: Array<{ file: string; key: string | null; message: string }>;
    paused: boolean;
  };
  'activity.list': { entries: ActivityEntry[]; notices: UserNotice[] };
  'settings.set': { effective: unknown };
  'inbound.pause': { paused: boolean };
  'confirmations.list': {
    items: ConfirmationView[];
    relay: { configured: boolean; connected: boolean; machine: string | null };
  };
  'confirmations.allow': { decided: true };
  'confirmations.deny': { decided: true };
  /** Which agents are on the hub's PATH and whether setup is already in their configuration. */
  'setup.detect': {
    agents: Array<{
      agent: 'claude-code' | 'codex' | 'gemini';
      command: string;
      path: string | null;
      configured: boolean;
      problem: string | null;
    }>;
  };
  'setup.plan': { changes: Array<{ file: string; diff: string }> };
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

/** One page of history: messages with their outcome and trail; `next` is the cursor for more (before/after). */
export interface HistoryPage {
  messages: HistoryMessage[];
  next: number | null;
}
/** The picture's edges: `address` is the receiver's while the hub knows it (null once forgotten); `truncated` when rows were left out. */
export interface HistoryEdgesView {
  since: number;
  edges: Array<HistoryEdge & { to: HistoryEdge['to'] & { address: string | null } }>;
  truncated: boolean;
}
export interface HistoryStatusView extends HistoryStatus {
  messages: number;
  events: number;
  bytes: number;
  retention: { days: number; maxMegabytes: number };
}

/** Notifications the hub pushes to subscribed connections. */
export interface HubNotifications {
  'inbox.item': { sessionId: string; item: InboxItem };
  /** To user-interface connections (ui.attach): see core/host/events.ts. */
  'ui.event': HubEvent;
}
