// One held message as a card: who sent it (agent, permission mode, project
// directory, machine), to whom, why it is held, a countdown and the whole
// text (scrollable). Deny is the default: it takes focus where the view says
// so, Enter never approves, Esc denies this card. While its request is in
// flight both buttons are disabled; once decided, the card keeps its place
// and its size and says what happened instead of offering buttons, so a
// second click at the same spot lands on words, never on another card.
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import type { HeldView } from '../../core/protocol/methods.js';
import { countdown } from '../ui/hooks.js';

/** What became of a card's decision, in words the card shows. */
export type CardOutcome = { kind: 'approved' | 'denied' | 'gone' | 'dropped' | 'failed'; text: string };

export const OUTCOME_TEXT: Record<CardOutcome['kind'], string> = {
  approved: 'Approved ✓ — handed to its inbox',
  denied: 'Denied ✓ — not delivered',
  gone: 'Already decided or expired — nothing was done here',
  dropped: 'Approved, but it could not be delivered (dropped)',
  failed: 'Not decided',
};

/** The rules a card offers (Deny once and Allow once are its own buttons). Block wins over allow. */
const RULE_CHOICES = [
  ['allow', 'hour', 'Allow for 1 hour'],
  ['allow', 'sessions', 'Allow until either session ends'],
  ['allow', 'always', 'Always allow'],
  ['block', 'hour', 'Block for 1 hour'],
  ['block', 'always', 'Always block'],
] as const;

/** The sender's agent, mode, project directory and machine, as far as the hub knows them. */
export function senderFacts(h: HeldView): string[] {
  const s = h.sender;
  const facts: string[] = [];
  if (s.agent !== null) facts.push(s.agent);
  if (s.mode !== null) facts.push(s.mode === 'unknown' ? 'mode unknown' : `mode ${s.mode}`);
  if (s.cwd !== null) facts.push(s.cwd);
  facts.push(s.machine === null ? 'this machine' : `on ${s.machine}`);
  if (!s.verified) facts.push('unverified writer');
  return facts;
}

export function HeldCard({
  h,
  now,
  focusDeny,
  highlighted,
  busy,
  outcome,
  sameSender,
  decide,
  decideAll,
  makeRule,
}: {
  h: HeldView;
  now: number;
  /** Put focus on Deny (the oldest undecided card when the view opens, or the one a notification named). */
  focusDeny: boolean;
  highlighted: boolean;
  busy: boolean;
  outcome: CardOutcome | undefined;
  /** Undecided messages from this sender, this one included. */
  sameSender: number;
  decide: (approve: boolean) => void;
  decideAll: (approve: boolean) => void;
  /** Makes a rule for this sender → receiver (the card's own message and the others it covers are decided by it). */
  makeRule: (effect: 'allow' | 'block', lifetime: 'hour' | 'sessions' | 'always') => void;
}): ReactNode {
  const deny = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!focusDeny) return;
    deny.current?.scrollIntoView({ block: 'nearest' });
    deny.current?.focus();
  }, [focusDeny]);
  const onKey = (e: KeyboardEvent): void => {
    if (e.key !== 'Escape' || outcome !== undefined || busy) return;
    e.preventDefault();
    decide(false);
  };
  const sender = h.sender.name ?? h.sender.address;
  const decided = outcome !== undefined && outcome.kind !== 'failed';
  return (
    <li
      className={`held${highlighted ? ' focused' : ''}${decided ? ' decided' : ''}`}
      data-testid={decided ? 'held-decided' : 'held-item'}
      data-id={h.id}
      onKeyDown={onKey}
    >
      <div className="held-head">
        <span className="mono">{sender}</span> → <span className="mono">{h.receiver.label}</span>
        <span className="countdown" data-testid="countdown">
          {decided ? '' : countdown(h.expiresAt, now)}
        </span>
      </div>
      <div className="sender-facts" data-testid="sender-facts">
        {senderFacts(h).join(' · ')}
      </div>
      <div className="reason">Held because {h.reason}.</div>
      {h.summary && <div className="summary">{h.summary}</div>}
      <pre className="text" tabIndex={0} aria-label={`Text from ${sender}`}>
        {h.text}
      </pre>
      {decided ? (
        <div className="actions decided-note" role="status" data-testid="outcome">
          {outcome.text}
        </div>
      ) : (
        <div className="actions">
          {outcome?.kind === 'failed' && (
            <span className="error" role="alert">
              {outcome.text}
            </span>
          )}
          <button ref={deny} className="deny" disabled={busy} onClick={() => decide(false)}>
            Deny
          </button>
          <button
            className="approve"
            disabled={busy}
            onClick={() => decide(true)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') e.preventDefault(); // Enter never approves
            }}
          >
            Approve
          </button>
          {h.sender.sessionId !== null && h.sender.machine === null && (
            <details className="rule-actions">
              <summary>
                Decide for {sender} → {h.receiver.name} from now on…
              </summary>
              {RULE_CHOICES.map(([effect, lifetime, text]) => (
                <button
                  key={`${effect}-${lifetime}`}
                  className={effect === 'allow' ? 'approve' : 'deny'}
                  disabled={busy}
                  onClick={() => makeRule(effect, lifetime)}
                >
                  {text}
                </button>
              ))}
            </details>
          )}
          {sameSender > 1 && (
            <span className="all-actions">
              <button disabled={busy} onClick={() => decideAll(false)}>
                Deny all {sameSender} from {sender}…
              </button>
              <button className="approve" disabled={busy} onClick={() => decideAll(true)}>
                Approve all {sameSender} from {sender}…
              </button>
            </span>
          )}
        </div>
      )}
    </li>
  );
}
