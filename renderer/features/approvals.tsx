// Approvals: held messages, oldest first, as cards (held-card.tsx). Nothing
// moves under the pointer: a decided card keeps its place and size until the
// view is left, and new messages join at the end. When the view opens, the
// oldest undecided card's Deny has focus (Deny is the default; Esc denies
// the card in focus, never one the person has not seen). "Approve all from
// a sender" first says how many and shows their first lines, then decides
// them as one request and reports what became of each.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { HeldView } from '../../core/protocol/methods.js';
import type { Stores } from '../stores/stores.js';
import { useLoadable, useNow } from '../ui/hooks.js';
import { Status } from '../ui/state.js';
import { ConfirmationsSection } from './confirmations.js';
import { NotifyButton, QuietToggle } from './alerts.js';
import { HeldCard, OUTCOME_TEXT, type CardOutcome } from './held-card.js';

type BatchStatus = 'queued' | 'dropped' | 'denied' | 'gone';
const BATCH_OUTCOME: Record<BatchStatus, CardOutcome['kind']> = {
  queued: 'approved',
  dropped: 'dropped',
  denied: 'denied',
  gone: 'gone',
};

const firstLine = (h: HeldView): string => (h.summary ?? h.text).split('\n')[0]!.slice(0, 80);
const senderOf = (h: HeldView): string => h.sender.name ?? h.sender.address;

export function ApprovalsView({ stores }: { stores: Stores }): ReactNode {
  const s = useLoadable(stores.held);
  const now = useNow();
  const focused = useStore(stores.focus, (f) => f.itemId);
  const waitingToLeave = useStore(stores.confirmations, (c) => c.data.items.length);
  // Cards decided while the view is open stay where they were (their last view of the message).
  const [kept, setKept] = useState<Map<string, HeldView>>(new Map());
  const [outcomes, setOutcomes] = useState<Map<string, CardOutcome>>(new Map());
  const [busy, setBusy] = useState<Set<string>>(new Set());
  const [asking, setAsking] = useState<{ items: HeldView[]; approve: boolean } | null>(null);
  const [report, setReport] = useState<string | null>(null);
  const cards = useMemo(() => {
    const byId = new Map(kept);
    for (const h of s.data) byId.set(h.id, h);
    // Held in the same millisecond: the hub's order (each receiver's in the order held), not the random ids'.
    const rank = new Map(s.data.map((h, i) => [h.id, i]));
    const place = (h: HeldView): number => rank.get(h.id) ?? Number.MAX_SAFE_INTEGER;
    return [...byId.values()].sort((a, b) => a.heldAt - b.heldAt || place(a) - place(b) || a.id.localeCompare(b.id));
  }, [s.data, kept]);
  const undecided = cards.filter((h) => !outcomes.has(h.id) || outcomes.get(h.id)!.kind === 'failed');
  // Focus once when the view opens: the oldest undecided card; later, only a card a notification names.
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  const oldest = undecided[0]?.id ?? null;
  useEffect(() => {
    if (focusTarget === null && oldest !== null) setFocusTarget(focused ?? oldest);
  }, [oldest, focused, focusTarget]);
  useEffect(() => {
    if (focused !== null) setFocusTarget(focused);
  }, [focused]);

  const mark = (ids: string[], on: boolean): void =>
    setBusy((b) => {
      const next = new Set(b);
      for (const id of ids)
        if (on) next.add(id);
        else next.delete(id);
      return next;
    });
  const settle = (items: HeldView[], outcome: (h: HeldView) => CardOutcome): void => {
    setKept((k) => new Map([...k, ...items.map((h) => [h.id, h] as const)]));
    setOutcomes((o) => new Map([...o, ...items.map((h) => [h.id, outcome(h)] as const)]));
  };

  const decideOne = async (h: HeldView, approve: boolean): Promise<void> => {
    if (busy.has(h.id)) return;
    mark([h.id], true);
    try {
      const r = await stores.bridge.call('held.decide', { ids: [h.id], approve });
      const kind = BATCH_OUTCOME[r.results[0]?.status ?? 'gone'];
      settle([h], () => ({ kind, text: OUTCOME_TEXT[kind] }));
    } catch (err) {
      settle([h], () => ({ kind: 'failed', text: `Not decided: ${err instanceof Error ? err.message : String(err)}` }));
    } finally {
      mark([h.id], false);
    }
  };

  const decideAll = async (items: HeldView[], approve: boolean): Promise<void> => {
    setAsking(null);
    const ids = items.map((h) => h.id);
    mark(ids, true);
    try {
      const r = await stores.bridge.call('held.decide', { ids, approve });
      const status = new Map(r.results.map((x) => [x.id, x.status]));
      settle(items, (h) => {
        const kind = BATCH_OUTCOME[status.get(h.id) ?? 'gone'];
        return { kind, text: OUTCOME_TEXT[kind] };
      });
      const done = r.results.filter((x) => x.status !== 'gone').length;
      const gone = r.results.length - done;
      setReport(
        `${approve ? 'Approved' : 'Denied'} ${done} from ${senderOf(items[0]!)}` +
          (gone > 0 ? `; ${gone} had already been decided or expired.` : '.'),
      );
    } catch (err) {
      setReport(`Nothing was decided: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      mark(ids, false);
    }
  };

  const makeRule = async (h: HeldView, effect: 'allow' | 'block', lifetime: 'hour' | 'sessions' | 'always') => {
    mark([h.id], true);
    try {
      const r = await stores.bridge.call('rules.add', { heldId: h.id, effect, lifetime });
      const byRule = new Set(r.decided);
      const text = `${effect === 'allow' ? 'Approved' : 'Denied'} by rule "${r.rule.label}" ✓`;
      const kind = effect === 'allow' ? 'approved' : 'denied';
      settle(
        cards.filter((c) => byRule.has(c.id)),
        () => ({ kind, text }),
      );
      setReport(
        `Rule "${r.rule.label}" made; it decided ${r.decided.length} held message${r.decided.length === 1 ? '' : 's'}.`,
      );
    } catch (err) {
      setReport(`No rule was made: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      mark([h.id], false);
    }
  };

  const fromSender = (h: HeldView): HeldView[] => undecided.filter((x) => x.sender.address === h.sender.address);
  return (
    <section aria-labelledby="approvals-h">
      <header className="view-head">
        <h2 id="approvals-h">
          Approvals <span className="count">{s.data.length + waitingToLeave}</span>
        </h2>
        <NotifyButton />
        <QuietToggle />
      </header>
      {report && (
        <p className="report" role="status" data-testid="decide-report">
          {report}
        </p>
      )}
      {asking && <ConfirmAll asking={asking} onCancel={() => setAsking(null)} onConfirm={decideAll} />}
      <ConfirmationsSection stores={stores} />
      <Status
        loading={s.loading}
        error={s.error}
        empty={cards.length === 0}
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
        <ul className="held-list">
          {cards.map((h) => (
            <HeldCard
              key={h.id}
              h={h}
              now={now}
              focusDeny={focusTarget === h.id}
              highlighted={focused === h.id}
              busy={busy.has(h.id)}
              outcome={outcomes.get(h.id)}
              sameSender={fromSender(h).length}
              decide={(approve) => void decideOne(h, approve)}
              decideAll={(approve) => setAsking({ items: fromSender(h), approve })}
              makeRule={(effect, lifetime) => void makeRule(h, effect, lifetime)}
            />
          ))}
        </ul>
      </Status>
    </section>
  );
}

/** "Approve all 4 from web?" with their first lines; Cancel has focus. */
function ConfirmAll({
  asking,
  onCancel,
  onConfirm,
}: {
  asking: { items: HeldView[]; approve: boolean };
  onCancel: () => void;
  onConfirm: (items: HeldView[], approve: boolean) => Promise<void>;
}): ReactNode {
  const verb = asking.approve ? 'Approve' : 'Deny';
  const question = `${verb} all ${asking.items.length} from ${senderOf(asking.items[0]!)}?`;
  return (
    <div className="confirm-all" role="alertdialog" aria-label={question} data-testid="confirm-all">
      <p>
        <strong>{question}</strong>
      </p>
      <ol>
        {asking.items.map((h) => (
          <li key={h.id}>{firstLine(h)}</li>
        ))}
      </ol>
      <div className="actions">
        <button autoFocus onClick={onCancel}>
          Cancel
        </button>
        <button
          className={asking.approve ? 'approve' : 'deny'}
          onClick={() => void onConfirm(asking.items, asking.approve)}
        >
          {verb} all {asking.items.length}
        </button>
      </div>
    </div>
  );
}
