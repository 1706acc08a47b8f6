// The CLI's exit codes and its two error classes, both coded errors: a
// usage error (exit 2, the invocation is wrong) and a failure with a stable
// reason for --json. cli/main.ts turns any coded error into its report.
// Kept apart from common.ts so that leaf modules (secrets.ts) can throw
// them without an import cycle.

import { CodedError } from '../core/protocol/coded-error.js';

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

export { messageTooLargeText } from '../core/protocol/errors.js';

/** Reasons whose hub text already says what the data holds (errorText in core/protocol/errors.ts). */
const SPOKEN = new Set(['target_not_found', 'target_ambiguous', 'to_too_short', 'pin_mismatch', 'message_too_large']);

/**
 * An error from the hub in words: its text, and what its data adds (detail,
 * msg_id, issues, candidates) unless the text already says it (a send's
 * `to` errors, an oversize message).
 */
export function hubErrorText(reason: string, message: string, data: Record<string, unknown>): string {
  if (SPOKEN.has(reason) && (typeof data.to === 'string' || typeof data.bytes === 'number')) return message;
  return `${message}${errorDataText(data)}`;
}

export class UsageError extends CodedError<'usage'> {
  override readonly name = 'UsageError';
  constructor(message: string) {
    super('usage', message);
  }
}

/** A failure with a message for the person and a stable reason (its code) for --json. */
export class CliFailure extends CodedError<string> {
  override readonly name = 'CliFailure';
  readonly exitCode: number;
  constructor(reason: string, message: string, exitCode: number = EXIT.failure, options?: { cause?: unknown }) {
    super(reason, message, options);
    this.exitCode = exitCode;
  }
}
