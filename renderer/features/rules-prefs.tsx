// The person's rules in Preferences: each with what it covers, how it was
// made, its lifetime left, how many messages it decided and when last, and
// one-click Revoke. Follows `rules.changed` (a rule made from a card, the
// CLI or the desktop app shows at once). Only the person reaches this list.
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { RuleView } from '../../core/protocol/methods.js';
import type { Stores } from '../stores/stores.js';
import { ago, useNow } from '../ui/hooks.js';

function lifetimeLeft(r: RuleView, now: number): string {
  if (r.lifetime === 'always') return 'always';
  if (r.lifetime === 'sessions') return 'until either session ends';
  const m = Math.max(0, Math.ceil(((r.expiresAt ?? now) - now) / 60_000));
  return `${m} min left`;
}

function covers(r: RuleView): string {
  const end = (e: RuleView['from']) => (e.sessionId !== null ? e.name : `${e.agent} in ${e.cwd}`);
  return `${end(r.from)} → ${end(r.to)}`;
}

export function RulesPrefs({ stores }: { stores: Stores }): ReactNode {
  const now = useNow();
  const [rules, setRules] = useState<RuleView[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const load = useCallback(async (): Promise<void> => {
    try {
      const r = await stores.bridge.call('rules.list');
      setRules(r.rules);
      setProblem(r.problem);
    } catch (err) {
      setProblem(err instanceof Error ? err.message : String(err));
    }
  }, [stores]);
  useEffect(() => void load(), [load]);
  useEffect(() => stores.bridge.onEvent((e) => void (e.type === 'rules.changed' && load())), [stores, load]);
  const revoke = async (id: string): Promise<void> => {
    await stores.bridge.call('rules.revoke', { id }).catch((err: unknown) => setProblem(String(err)));
    await load();
  };
  return (
    <div className="agent-setup" data-testid="rules-prefs">
      <h3>Rules for held messages</h3>
      <p className="dim">
        Made from a held card (or <code>switchboard rules</code>): they allow or block one sender → receiver for an
        hour, until either session ends, or always. Block wins over allow; a repository that holds still holds.
      </p>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      {rules === null ? (
        <p className="dim">Loading…</p>
      ) : rules.length === 0 ? (
        <p className="dim">No rules: every held message waits for you.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Rule</th>
              <th>Covers</th>
              <th>Lifetime</th>
              <th>Made with</th>
              <th>Decided</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rules.map((r) => (
              <tr key={r.id} data-testid="rule">
                <td>
                  <span className={`pill ${r.effect === 'allow' ? 'tone-ok' : 'tone-bad'}`}>{r.effect}</span> {r.label}
                </td>
                <td className="mono">{covers(r)}</td>
                <td>{lifetimeLeft(r, now)}</td>
                <td>{r.madeWith}</td>
                <td>
                  {r.decided}
                  {r.lastDecidedAt !== null && ` (last ${ago(r.lastDecidedAt, now)} ago)`}
                </td>
                <td>
                  <button onClick={() => void revoke(r.id)}>Revoke</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
