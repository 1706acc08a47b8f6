// One message of the history as a person reads it: who to whom, when, what,
// and where it ended — the path its outcome took (queued → delivered,
// held → approved/denied/expired, dropped with the reason). Pure rendering of
// a HistoryMessage; list behaviour (keys, opening) lives in history.tsx.
import type { ReactNode } from 'react';
import type { HistoryMessage } from '../../core/protocol/history.js';
import { ago } from '../ui/hooks.js';
import { StatusPill } from '../ui/pill.js';

/** Outcomes whose reason a person needs to read (why it did not simply arrive). */
const EXPLAINED = new Set(['held', 'approved', 'refused', 'dropped', 'failed', 'denied', 'expired']); // approved: by whom (its user, or a rule)
const DECISION_STEP: Record<string, string> = { deliver: 'queued', hold: 'held', refuse: 'refused', drop: 'dropped' };

/** The outcome path of a message, oldest first, without repeats: e.g. ['held', 'approved', 'delivered']. */
export function outcomePath(m: Pick<HistoryMessage, 'trail' | 'outcome'>): string[] {
  const steps: string[] = [];
  for (const e of m.trail) {
    const step = e.kind === 'decision' ? (DECISION_STEP[e.status] ?? e.status) : e.status;
    if (steps[steps.length - 1] !== step) steps.push(step);
  }
  if (!steps.includes(m.outcome)) steps.push(m.outcome);
  return steps;
}

/** The body a person wrote: the text inside the cross-session frame, or the text as stored. */
export function bodyOf(text: string): string {
  const m = /^<cross-session-message[^>]*>\n?([\s\S]*?)\n?<\/cross-session-message>\s*$/.exec(text.trim());
  return m ? m[1]! : text;
}

export function senderName(m: HistoryMessage): string {
  return m.sender.name ?? m.sender.address;
}

export function MessageBody({ m, now }: { m: HistoryMessage; now: number }): ReactNode {
  const path = outcomePath(m);
  const why = EXPLAINED.has(m.outcome) && m.reason !== '' ? m.reason : null;
  return (
    <>
      <div className="msg-head">
        <span className="mono">
          {senderName(m)} → {m.receiver.name}
        </span>
        <time className="dim" dateTime={new Date(m.at).toISOString()} title={new Date(m.at).toLocaleString()}>
          {ago(m.at, now)} ago
        </time>
        <span className="outcome-path" data-testid="outcome-path" aria-label={`Outcome: ${path.join(' then ')}`}>
          {path.map((s, i) => (
            <span key={`${s}-${i}`}>
              {i > 0 && (
                <span className="arrow" aria-hidden="true">
                  {' '}
                  →{' '}
                </span>
              )}
              <StatusPill status={s} />
            </span>
          ))}
        </span>
      </div>
      {m.summary !== null && <div className="summary">{m.summary}</div>}
      <pre className="text msg-text">{bodyOf(m.text)}</pre>
      {why !== null && (
        <div className="reason" data-testid="outcome-reason">
          {m.outcome === 'held' ? 'Held: ' : `${m.outcome[0]!.toUpperCase()}${m.outcome.slice(1)}: `}
          {why}
        </div>
      )}
    </>
  );
}
