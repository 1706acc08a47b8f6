// The sender-side rules of docs/design.md#6-sending-and-statuses, checked before anything is
// resolved or sent. Pure; throws HubError with the specific reason.

import { HubError } from '../protocol/errors.js';
import { isProtocolFrame } from '../protocol/frames.js';
import type { Limits } from '../protocol/limits.js';
import { checkTo } from '../registry/resolution.js';

export interface SendInput {
  to: string;
  summary?: string | undefined;
  message?: string | undefined;
  notify_when_idle?: boolean | undefined;
}

export interface ValidSend {
  to: string;
  summary: string | null;
  message: string | null;
  notifyWhenIdle: boolean;
}

export function validateSend(input: SendInput, limits: Pick<Limits, 'summaryChars' | 'messageBytes'>): ValidSend {
  checkTo(input.to);
  const message = input.message ?? null;
  const notifyWhenIdle = input.notify_when_idle === true;
  if (message === null && !notifyWhenIdle) throw new HubError('message_missing');
  const summary = input.summary?.trim() ?? '';
  if (message !== null) {
    if (message.trim() === '') throw new HubError('message_missing');
    if (summary === '') throw new HubError('summary_missing');
    // A UTF-16 code unit is at most 3 UTF-8 bytes: only a long message needs counting.
    const bytes = message.length * 3 > limits.messageBytes ? Buffer.byteLength(message, 'utf8') : 0;
    if (bytes > limits.messageBytes)
      throw new HubError('message_too_large', { bytes, limitBytes: limits.messageBytes });
    if (isProtocolFrame(message)) throw new HubError('message_is_frame');
  }
  // Code points never outnumber code units: only a long summary needs counting.
  if (summary.length > limits.summaryChars && [...summary].length > limits.summaryChars)
    throw new HubError('summary_too_long');
  return { to: input.to.trim(), summary: summary === '' ? null : summary, message, notifyWhenIdle };
}
