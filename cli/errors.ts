// The CLI's exit codes and its two error classes: a usage error (exit 2,
// the invocation is wrong) and a failure with a stable reason for --json.
// Kept apart from common.ts so that leaf modules (secrets.ts) can throw
// them without an import cycle.

export const EXIT = { ok: 0, failure: 1, usage: 2, noHub: 3 } as const;

/** What the hub's error data adds for a person or an agent: the detail, the msg_id a receipt will name, the candidates. */
export function errorDataText(data: Record<string, unknown>): string {
  const detail = typeof data.detail === 'string' ? ` (${data.detail})` : '';
  const msgId = typeof data.msg_id === 'string' ? ` msg_id ${data.msg_id}.` : '';
  const issues = Array.isArray(data.issues) ? ` (${data.issues.join('; ')})` : '';
  const candidates =
    Array.isArray(data.candidates) && data.candidates.length > 0 ? ` Candidates: ${data.candidates.join(', ')}` : '';
  return `${detail}${msgId}${issues}${candidates}`;
}

/** A size for people: bytes under 1 KiB, KiB (rounded up, so just over a limit never reads as the limit) above. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KiB`;
  return `${Math.ceil((bytes / (1024 * 1024)) * 10) / 10} MiB`;
}

/** The oversize sentence, the same whether the CLI measured it first or the hub answered message_too_large. */
export function messageTooLargeText(bytes: number, limitBytes: number): string {
  return `The message is ${sizeText(bytes)}; the limit is ${sizeText(limitBytes)}. Nothing was sent.`;
}

/**
 * An error from the hub in words: the ones about `to` say what was typed and
 * which names it matched or came close to; an oversize message says both
 * sizes; everything else is the hub's fixed text with its data.
 */
export function hubErrorText(reason: string, message: string, data: Record<string, unknown>): string {
  const to = typeof data.to === 'string' ? JSON.stringify(data.to) : undefined;
  const names = Array.isArray(data.candidates) ? data.candidates.filter((c) => typeof c === 'string') : [];
  const oneOf = names.length === 1 ? (names[0] as string) : `one of ${names.join(', ')}`;
  if (reason === 'target_not_found' && to !== undefined)
    return names.length > 0
      ? `No live session matches ${to}. Did you mean ${names.join(' or ')}?`
      : `No live session matches ${to}; list the agents to see who is reachable.`;
  if (reason === 'to_too_short' && to !== undefined)
    return `${to} is too short to pick a session: a name's start needs at least ${typeof data.minChars === 'number' ? data.minChars : 3} characters. Did you mean ${names.join(' or ')}?`;
  if (reason === 'target_ambiguous' && to !== undefined && names.length > 0)
    return `${to} matches more than one session: send again to ${oneOf}.`;
  if (reason === 'pin_mismatch' && to !== undefined && names.length > 0)
    return `${to} now names a different session than the one you sent to before; send to ${oneOf} to confirm.`;
  if (reason === 'message_too_large' && typeof data.bytes === 'number' && typeof data.limitBytes === 'number')
    return messageTooLargeText(data.bytes, data.limitBytes);
  return `${message}${errorDataText(data)}`;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A failure with a message for the person and a stable reason for --json. */
export class CliFailure extends Error {
  readonly reason: string;
  readonly code: number;
  constructor(reason: string, message: string, code: number = EXIT.failure) {
    super(message);
    this.name = 'CliFailure';
    this.reason = reason;
    this.code = code;
  }
}
