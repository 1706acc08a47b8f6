// The hub socket's methods: one strict, bounded zod schema per method's
// params and the auth kind that may call it; the result types are in
// results.ts (re-exported here). This is the single source both the server
// (core/host) and the client (core/client) are typed from.

import { z } from 'zod';
import { BoundedJsonValue, boundedJsonObject } from './bounded-json.js';
import { flatAccept } from './flat-params.js';
import { LIMITS } from './limits.js';
import { AGENT_KINDS, MODE_SOURCES, PERMISSION_MODES, SESSION_STATES } from './vocabulary.js';
import { Auth, Id, Name, Path, Token, UiToken } from './param-atoms.js';
import {
  TeamsListParams,
  TeamShowParams,
  TeamCreateParams,
  TasksListParams,
  TaskGetParams,
  TaskCreateParams,
  TaskUpdateParams,
  TaskClaimParams,
  TaskAssignParams,
  TaskDeleteParams,
  TaskReleaseParams,
  TeamSendParams,
} from './team-params.js';
import {
  HistorySearchParams,
  HistoryConversationParams,
  HistoryEdgesParams,
  HistoryDeleteParams,
} from './history-params.js';

export { AGENT_KINDS, MODE_SOURCES, PERMISSION_MODES, SESSION_STATES };
export * from './results.js';
export * from './team-params.js';
export * from './history-params.js';

const AgentSessionId = z.string().regex(/^[0-9A-Za-z_-]{1,128}$/);
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
  /** Where permissionMode came from (default: declared, the registering program's word). */
  modeSource: z.enum(['command-line', 'hook', 'declared']).optional(),
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
  /** The agent's conversation id (its hook input's session_id): a resumed conversation gets its session back. */
  conversation: AgentSessionId.optional(),
});
export type RegisterParams = z.input<typeof RegisterParams>;

export const SessionAuth = z.strictObject(Auth);
export const StateParams = z.strictObject({
  ...Auth,
  state: z.enum(SESSION_STATES),
  hook: z.boolean().optional(),
  /** The agent's own session (Codex: thread) id from the hook input; with `hook` only. */
  agentSessionId: AgentSessionId.optional(),
});
export const ModeParams = z.strictObject({
  ...Auth,
  permissionMode: z.enum(PERMISSION_MODES),
  bypassAvailable: z.boolean().optional(),
  /**
   * false: reported where the model itself could have written it (Claude Code's mcp_tool hooks call a tool the
   * model may call too). A change of class then makes the mode unknown, and it releases no held message.
   */
  verified: z.boolean().optional(),
  /** Where a verified report came from: the agent's own hook input, or the session's word (default). */
  source: z.enum(['hook', 'declared']).optional(),
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
export const UiParams = z.strictObject(UiToken);
export const UiItemParams = z.strictObject({ ...UiToken, id: z.string().min(1).max(128) });
/** Agent setup as the user; `transport` (Claude Code only) as `switchboard setup --transport`. */
const SetupParams = z.strictObject({
  ...UiToken,
  agent: z.enum(['claude-code', 'codex', 'gemini', 'opencode', 'qwen']),
  uninstall: z.boolean().optional(),
  transport: z.enum(['stdio', 'http']).optional(),
});
/**
 * A rule with a lifetime, made by the person: for the sender → receiver of a held message (`heldId`), or
 * for two of this machine's sessions named `from` and `to`. How it was made is shown with it.
 */
export const RuleAddParams = z
  .strictObject({
    ...UiToken,
    effect: z.enum(['allow', 'block']),
    lifetime: z.enum(['hour', 'sessions', 'always']),
    heldId: z.string().min(1).max(128).optional(),
    from: z.string().min(1).max(4096).optional(),
    to: z.string().min(1).max(4096).optional(),
    madeWith: z.enum(['web UI', 'desktop app', 'switchboard rules']).default('web UI'),
  })
  .refine((p) => (p.heldId !== undefined) !== (p.from !== undefined && p.to !== undefined), {
    message: 'give heldId, or from and to',
  });
/** Several held messages decided as one request (approve or deny all from one sender): at most the held cap. */
export const UiDecideParams = z.strictObject({
  ...UiToken,
  ids: z.array(z.string().min(1).max(128)).min(1).max(100),
  approve: z.boolean(),
});
export const UiSettingsParams = z.strictObject({ ...UiToken, sessionId: Id.optional() });
export const UiSetSettingParams = z.strictObject({
  ...UiToken,
  key: z.enum([
    'crossSessionInbound',
    'dialogExpiry',
    'isolatePeerMachines',
    'crossSessionScope',
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

/** `accept`: the fast check of flat params (flat-params.ts), when the schema has one; zod decides otherwise. */
function method<A extends AuthKind, S extends z.ZodType>(
  auth: A,
  params: S,
): { readonly auth: A; readonly params: S; readonly accept: ((x: unknown) => z.output<S> | undefined) | undefined } {
  return { auth, params, accept: flatAccept(params) };
}

export const METHODS = {
  'hub.info': method('none', InfoParams),
  /** The web UI's sign-in URL (token in the fragment) for `switchboard ui`: any caller on the 0700 socket (docs/security.md). */
  'ui.address': method('none', InfoParams),
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
  'held.decide': method('ui', UiDecideParams),
  'rules.list': method('ui', UiParams),
  'rules.add': method('ui', RuleAddParams),
  'rules.revoke': method('ui', UiItemParams),
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
  'setup.plan': method('ui', SetupParams),
  'setup.apply': method('ui', SetupParams),
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
  'teams.create': method('actor', TeamCreateParams),
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
