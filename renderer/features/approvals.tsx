// Approvals: held messages with sender, receiver, why, a countdown from the
// hub's expiresAt, and the text on expand. Deny is the default everywhere:
// the Deny button has focus, Enter on it denies, Esc denies the item in
// focus; Approve needs its own click. Approve or deny all from one sender.
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { HeldView } from '../../core/protocol/methods.js';
import type { Stores } from '../stores/stores.js';
import { countdown, useLoadable, useNow } from '../ui/hooks.js';
import { Status } from '../ui/state.js';
import { ConfirmationsSection } from './confirmations.js';

export function ApprovalsView({ stores }: { stores: Stores }): ReactNode {
  const s = useLoadable(stores.held);
  const now = useNow();
  const focused = useStore(stores.focus, (f) => f.itemId);
  const waitingToLeave = useStore(stores.confirmations, (c) => c.data.items.length);
  const [error, setError] = useState<string | null>(null);
  const decide = async (ids: string[], approve: boolean): Promise<void> => {
    setError(null);
    try {
      for (const id of ids) await stores.bridge.call(approve ? 'held.approve' : 'held.deny', { id });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
    await stores.held.getState().load();
  };
  const bySender = new Map<string, HeldView[]>();
  for (const h of s.data) bySender.set(h.sender.address, [...(bySender.get(h.sender.address) ?? []), h]);
  return (
    <section aria-labelledby="approvals-h">
      <header className="view-head">
        <h2 id="approvals-h">
          Approvals <span className="count">{s.data.length + waitingToLeave}</span>
        </h2>
      </header>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <ConfirmationsSection stores={stores} />
      <Status
        loading={s.loading}
        error={s.error}
        empty={s.data.length === 0}
        emptyText={
          waitingToLeave > 0 ? (
            <p>No held messages.</p>
          ) : (
            <p>
              Nothing waits for you. A message lands here when a session's inbound policy holds it — for example when a
              session that skips permission prompts receives from one that does not — and waits for your Approve or
              Deny.
            </p>
          )
        }
      >
        {[...bySender.entries()].map(([address, items]) => (
          <div key={address} className="sender-group">
            <div className="group-head">
              <span>
                From <strong>{items[0]!.sender.name ?? address}</strong>
                {items[0]!.sender.verified ? '' : ' (unverified writer)'} — {items.length} held
              </span>
              {items.length > 1 && (
                <span className="actions">
                  <button
                    onClick={() =>
                      void decide(
                        items.map((i) => i.id),
                        false,
                      )
                    }
                  >
                    Deny all from sender
                  </button>
                  <button
                    className="approve"
                    onClick={() =>
                      void decide(
                        items.map((i) => i.id),
                        true,
                      )
                    }
                  >
                    Approve all from sender
                  </button>
                </span>
              )}
            </div>
            <ul className="held-list">
              {items.map((h, i) => (
                <HeldItem
                  key={h.id}
                  h={h}
                  now={now}
                  first={i === 0 && focused === null}
                  focused={focused === h.id}
                  decide={decide}
                />
              ))}
            </ul>
          </div>
        ))}
      </Status>
    </section>
  );
}

function HeldItem({
  h,
  now,
  first,
  focused,
  decide,
}: {
  h: HeldView;
  now: number;
  first: boolean;
  focused: boolean;
  decide: (ids: string[], approve: boolean) => Promise<void>;
}): ReactNode {
  const [open, setOpen] = useState(focused);
  const deny = useRef<HTMLButtonElement>(null);
  // A notification asked for this item: bring it into view with Deny in focus.
  useEffect(() => {
    if (!focused) return;
    setOpen(true);
    deny.current?.scrollIntoView({ block: 'center' });
    deny.current?.focus();
  }, [focused]);
  const onKey = (e: KeyboardEvent): void => {
    if (e.key === 'Escape') {
      e.preventDefault();
      void decide([h.id], false);
    }
  };
  return (
    <li className={focused ? 'held focused' : 'held'} data-testid="held-item" onKeyDown={onKey}>
      <div className="held-head">
        <span className="mono">{h.sender.name ?? h.sender.address}</span> →{' '}
        <span className="mono">{h.receiver.label}</span>
        <span className="countdown" data-testid="countdown">
          {countdown(h.expiresAt, now)}
        </span>
      </div>
      <div className="reason">Held because {h.reason}.</div>
      {h.summary && <div className="summary">{h.summary}</div>}
      <button className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide text' : 'Show full text'}
      </button>
      <pre className={open ? 'text' : 'preview'}>{open ? h.text : h.preview}</pre>
      <div className="actions">
        <button ref={deny} autoFocus={first} className="deny" onClick={() => void decide([h.id], false)}>
          Deny
        </button>
        <button
          className="approve"
          onClick={() => void decide([h.id], true)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') e.preventDefault(); // Enter never approves
          }}
        >
          Approve
        </button>
      </div>
    </li>
  );
}
