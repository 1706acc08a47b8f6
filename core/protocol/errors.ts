// The closed vocabulary of errors the hub answers with. Each reason has a
// fixed JSON-RPC code and a fixed text; `data` carries only values the hub
// computed itself (candidates, limits), never an internal error's message.

export const ERRORS = {
  parse_error: [-32700, 'Parse error: the line is not valid JSON'],
  invalid_request: [-32600, 'Invalid request: expected a JSON-RPC 2.0 request object'],
  method_not_found: [-32601, 'Method not found'],
  invalid_params: [-32602, 'Invalid params'],
  internal: [-32603, 'Internal error'],
  frame_too_large: [-32000, 'Frame too large: the connection is closed'],
  overloaded: [-32001, 'The hub is at its connection or session limit'],
  unauthorized: [-32002, 'Unauthorized: unknown session or wrong token'],
  pid_not_alive: [-32003, 'The given pid is not a live process'],
  name_invalid: [-32004, 'Invalid name: use 1-64 visible characters, no "@", not an address or reserved name'],
  idle_timeout: [-32005, 'The connection sent no request, or left a line unfinished, for too long: it is closed'],
  name_taken: [-32006, 'Another live session holds that name; choose another one'],
  to_empty: [-32010, '"to" is empty'],
  to_broadcast: [-32011, 'Broadcast is not supported: address each recipient separately'],
  to_has_at: [-32012, '"to" must not contain "@": use a name, "name [ref]" or an address from the agent listing'],
  to_reserved: [-32013, '"to" is a reserved name that no session can hold'],
  to_self: [-32014, 'A session cannot send to itself'],
  summary_missing: [-32015, '"summary" is required when "message" is given'],
  summary_too_long: [-32016, '"summary" is longer than 200 characters'],
  message_missing: [-32017, 'Nothing to send: give "message", or notify_when_idle alone to subscribe'],
  message_too_large: [-32018, '"message" is larger than the size limit (data.bytes, data.limitBytes)'],
  message_is_frame: [-32019, '"message" is a team protocol frame; send plain text'],
  // The resolution errors' data: `to` (what was typed) and `candidates` (name [ref]: what it matched, or the closest names).
  target_not_found: [-32020, 'No live session matches "to"; list agents to see who is reachable'],
  target_ambiguous: [-32021, '"to" matches more than one session; send again with one of the "name [ref]" candidates'],
  to_too_short: [
    -32043,
    '"to" is only the start of a name, shorter than 3 characters: type at least 3, or the whole name (data.candidates)',
  ],
  pin_mismatch: [
    -32022,
    'That name now belongs to a different session than the one you sent to before; name it with its [ref] to confirm',
  ],
  target_gone: [-32023, 'The target session has ended'],
  unreachable: [-32024, 'The target address does not answer'],
  timeout: [-32025, 'The target did not take the message within the timeout'],
  idle_not_local: [
    -32026,
    "notify_when_idle needs a session on this machine: one of Switchboard's, or a Claude Code session of 2.1.332 or later",
  ],
  item_not_found: [-32027, 'No such item'],
  team_not_found: [-32030, 'No such team'],
  member_not_found: [-32031, 'No such member in that team'],
  not_a_member: [-32032, 'This session is not a member of that team'],
  frame_not_allowed: [
    -32033,
    'That structured frame cannot be sent; send plain text or a shutdown or plan-approval response',
  ],
  frame_role: [-32034, 'Only team-lead may send that frame'],
  task_not_found: [-32035, 'No such task'],
  already_claimed: [-32036, 'The task is already claimed by another owner'],
  already_resolved: [-32037, 'The task is already completed'],
  blocked: [-32038, 'The task is blocked by an unfinished task'],
  agent_busy: [-32039, 'The claimer already owns an unfinished task'],
  lock_timeout: [-32040, 'A team file stayed locked past the deadline; nothing was written'],
  team_exists: [-32041, 'A team with that name exists'],
  blocker_not_found: [-32065, 'A task named in blocks or blockedBy does not exist in that list'],
  blocker_self: [-32066, 'A task cannot block itself'],
  blocker_cycle: [-32067, 'That dependency would make tasks block each other in a cycle'],
  task_too_large: [
    -32068,
    'That would make a task file too large or too deeply nested to read back (its metadata); nothing was written',
  ],
  not_hosted: [
    -32042,
    'That is a Claude Code session with its own messaging: type in its terminal, or send from one of your sessions',
  ],
  // Other programs' files: data names the file and the problem the hub found.
  inbox_unreadable: [-32060, 'The inbox file exists but cannot be read as an inbox; nothing was written to it'],
  team_unreadable: [-32061, 'The team roster (config.json) exists but cannot be read; nothing was written to it'],
  task_unreadable: [-32062, 'A task list file exists but cannot be read; nothing was written to it'],
  task_id_unavailable: [
    -32063,
    'No new task id can be allocated safely (the next id is past 2^53 - 1 or its file exists); nothing was written',
  ],
  history_off: [-32070, 'History is off on this hub; history.status says why'],
  storage_full: [-32080, 'The disk holding the state directory is full; nothing was stored (data.directory names it)'],
  storage_readonly: [-32081, 'The state directory is read-only; nothing was stored (data.directory names it)'],
  not_lead: [-32064, 'Only the session the team roster names as its lead may write as team-lead'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorReason = keyof typeof ERRORS;

/** A failure the hub reports to a client with a fixed code and text. */
export class HubError extends Error {
  readonly reason: ErrorReason;
  readonly data: unknown;
  constructor(reason: ErrorReason, data?: unknown, options?: { cause?: unknown }) {
    super(ERRORS[reason][1], options);
    this.name = 'HubError';
    this.reason = reason;
    this.data = data;
  }
}

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: { reason: ErrorReason } & Record<string, unknown>;
}

/** A size for people: bytes under 1 KiB, KiB (rounded up, so just over a limit never reads as the limit) above. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KiB`;
  return `${Math.ceil((bytes / (1024 * 1024)) * 10) / 10} MiB`;
}

/** The oversize sentence, the same whether a client measured it first or the hub answered message_too_large. */
export function messageTooLargeText(bytes: number, limitBytes: number): string {
  return `The message is ${sizeText(bytes)}; the limit is ${sizeText(limitBytes)}. Nothing was sent.`;
}

/**
 * A send's `to` errors in words, so a person can correct the send: what was typed (`data.to`, quoted) and the names it matched
 * or came close to (`data.candidates`); undefined when the data does not carry them.
 */
function toText(reason: ErrorReason, data: Record<string, unknown>): string | undefined {
  if (typeof data.to !== 'string') return undefined;
  const to = JSON.stringify(data.to);
  const names = Array.isArray(data.candidates) ? data.candidates.filter((c) => typeof c === 'string') : [];
  const oneOf = names.length === 1 ? String(names[0]) : `one of ${names.join(', ')}`;
  if (reason === 'target_not_found')
    return names.length > 0
      ? `No live session matches ${to}. Did you mean ${names.join(' or ')}?`
      : `No live session matches ${to}; list the agents to see who is reachable.`;
  if (names.length === 0) return undefined;
  if (reason === 'to_too_short')
    return `${to} is too short to pick a session: the start of a name needs at least ${typeof data.minChars === 'number' ? data.minChars : 3} characters. Did you mean ${names.join(' or ')}?`;
  if (reason === 'target_ambiguous') return `${to} matches more than one session: send again to ${oneOf}.`;
  if (reason === 'pin_mismatch')
    return `${to} now names a different session than the one you sent to before; send to ${oneOf} to confirm.`;
  return undefined;
}

/**
 * The text of `reason`: fixed, except where the data says what a person must know — a full or read-only
 * disk names its directory; a send's `to` errors say what was typed and the closest names; an oversize
 * message says both sizes.
 */
export function errorText(reason: ErrorReason, data?: unknown): string {
  const d = data !== null && typeof data === 'object' ? (data as Record<string, unknown>) : {};
  const about = toText(reason, d);
  if (about !== undefined) return about;
  if (reason === 'invalid_params' && Array.isArray(d.issues) && typeof d.issues[0] === 'string')
    return `Invalid params: ${d.issues.slice(0, 3).join('; ')}`;
  if (reason === 'message_too_large' && typeof d.bytes === 'number' && typeof d.limitBytes === 'number')
    return messageTooLargeText(d.bytes, d.limitBytes);
  const directory = (data as { directory?: unknown } | undefined)?.directory;
  if (typeof directory === 'string' && reason === 'storage_full')
    return `The disk holding the state directory ${directory} is full: nothing was stored. Free some space and try again.`;
  if (typeof directory === 'string' && reason === 'storage_readonly')
    return `The state directory ${directory} is read-only: nothing was stored.`;
  return ERRORS[reason][1];
}

export function errorObject(reason: ErrorReason, data?: unknown): RpcErrorObject {
  const code = ERRORS[reason][0];
  const message = errorText(reason, data);
  const extra = data !== null && typeof data === 'object' ? (data as Record<string, unknown>) : {};
  return { code, message, data: { ...extra, reason } };
}
