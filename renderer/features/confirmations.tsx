// Cross-machine confirmations (isolatePeerMachines): sends that wait for
// your Allow before they leave this machine. Deny is the default: it has
// focus, Esc denies, Enter never allows. The sender gets confirm-denied or
// confirm-expired when you deny or let it run out.
import { useState, type ReactNode } from 'react';
import type { ConfirmationView } from '../../core/protocol/methods.js';
import type { Stores } from '../stores/stores.js';
import { countdown, useLoadable, useNow } from '../ui/hooks.js';

export function ConfirmationsSection({ stores }: { stores: Stores }): ReactNode {
  const s = useLoadable(stores.confirmations);
  const now = useNow();
  const [error, setError] = useState<string | null>(null);
  const decide = async (id: string, allow: boolean): Promise<void> => {
    setError(null);
    try {
      await stores.bridge.call(allow ? 'confirmations.allow' : 'confirmations.deny', { id });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
    await stores.confirmations.getState().load();
  };
  const { items, relay } = s.data;
  if (items.length === 0 && !relay.configured) return null;
  return (
    <section aria-labelledby="confirm-h" className="confirmations" data-testid="confirmations">
      <h3 id="confirm-h">
        Sends to other machines <span className="count">{items.length}</span>
      </h3>
      <p className="dim">
        Relay:{' '}
        {relay.configured
          ? `${relay.connected ? 'connected' : 'not connected'} as ${relay.machine ?? '?'}${modeWords(relay.mode)}`
          : 'not configured'}
        .
        {items.length === 0 &&
          ' With isolatePeerMachines on, every message to another machine waits here for your Allow.'}
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <ul className="held-list">
        {items.map((c, i) => (
          <Item key={c.id} c={c} now={now} first={i === 0} decide={decide} />
        ))}
      </ul>
    </section>
  );
}

function Item({
  c,
  now,
  first,
  decide,
}: {
  c: ConfirmationView;
  now: number;
  first: boolean;
  decide: (id: string, allow: boolean) => Promise<void>;
}): ReactNode {
  const [open, setOpen] = useState(false);
  return (
    <li
      className="held"
      data-testid="confirmation-item"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          void decide(c.id, false);
        }
      }}
    >
      <div className="held-head">
        <span className="mono">{c.sender.name}</span> → <span className="mono">{c.target.session}</span>
        <span className="countdown" data-testid="countdown">
          {c.expiresAt === null ? 'no expiry' : countdown(c.expiresAt, now)}
        </span>
      </div>
      <div className="reason">Leaving this machine needs your confirmation (isolatePeerMachines).</div>
      <button className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide text' : 'Show full text'}
      </button>
      <pre className={open ? 'text' : 'preview'}>{open ? c.text : c.preview}</pre>
      <div className="actions">
        <button autoFocus={first} className="deny" onClick={() => void decide(c.id, false)}>
          Deny
        </button>
        <button
          className="approve"
          onClick={() => void decide(c.id, true)}
          onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
        >
          Allow once
        </button>
      </div>
    </li>
  );
}

/** Which mode the relay runs in, in words. */
function modeWords(mode: 'store' | 'direct' | null): string {
  if (mode === 'store') return '; mail for a machine that is away is stored until it is back (JetStream)';
  if (mode === 'direct') return '; a machine that is away cannot be reached (the broker has no JetStream)';
  return '';
}
