// Messages that leave this hub without passing its admission: sends to other
// machines (relay), to stock Claude Code sessions, to another program's
// socket, and to team mailboxes. Each is recorded as it goes out (before the
// send, so a receipt that races the send's answer finds it) and its result
// becomes the outcome; a failed send is recorded `dropped` with the reason,
// one that timed out `unknown` (it may still arrive; a receipt settles it).
// Queues only (the recorder's rules): never awaits, never throws into a send.

import { CodedError } from '../protocol/coded-error.js';
import { HubError } from '../protocol/errors.js';
import type { HistoryRecorder } from './recorder.js';

/** What of the recorder an outbound seam needs (the hub passes its recorder). */
export type OutboundHistory = Pick<HistoryRecorder, 'enabled' | 'message' | 'outcome'>;

export interface OutboundMessage {
  msgId: string;
  at: number;
  sender: { id: string; name: string; address: string; team: string | null };
  /** `id`: the receiver's address (peer:…, uds:…) or `team:<team>/<member>`; `name`: how a person knows it. */
  receiver: { id: string; name: string; team: string | null };
  summary: string | null;
  text: string;
}

const FAILED_REASON_CHARS = 300; // a reason is one line in a view

/** Records `m` going out, runs the send, and records its status (or the failure) as the outcome. */
export async function recordOutbound<R extends { status: string; reason?: string | undefined }>(
  history: OutboundHistory,
  m: OutboundMessage | null,
  send: () => Promise<R>,
  note = '',
): Promise<R> {
  if (m === null || !history.enabled) return send();
  const recorded = history.message(
    {
      msgId: m.msgId,
      at: m.at,
      fromSessionId: m.sender.id,
      fromName: m.sender.name,
      fromAddress: m.sender.address,
      summary: m.summary,
      body: m.text,
    },
    m.receiver,
    m.sender.team,
  );
  if (!recorded) return send(); // counted as a gap: no outcome without its message
  let r: R;
  try {
    r = await send();
  } catch (err) {
    const timedOut = err instanceof HubError && err.reason === 'timeout';
    history.outcome(m.msgId, timedOut ? 'unknown' : 'dropped', failure(err));
    throw err;
  }
  history.outcome(m.msgId, r.status, r.reason ?? note);
  return r;
}

/** A failed send's reason: the fixed text of our own errors (never an internal error's text). */
function failure(err: unknown): string {
  let text = 'the send failed';
  if (err instanceof HubError) {
    const detail = (err.data as { detail?: unknown } | undefined)?.detail;
    text = `${err.reason}: ${err.message}${typeof detail === 'string' ? ` (${detail})` : ''}`;
  } else if (err instanceof CodedError) {
    text = `${err.code}: ${err.message}`;
  }
  return text.slice(0, FAILED_REASON_CHARS);
}
