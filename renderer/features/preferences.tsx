// Preferences: every effective setting with the scope it came from, locked
// with an explanation when managed settings decide, and the problems found
// in settings files. Editing comes with the desktop shell (settings store).
import type { ReactNode } from 'react';
import type { Stores } from '../stores/stores.js';
import { useLoadable } from '../ui/hooks.js';
import { Status } from '../ui/state.js';

interface Sourced {
  value: unknown;
  source: string;
}

function show(v: unknown): string {
  if (v === null) return 'mode parity (no explicit value)';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

export function PreferencesView({ stores }: { stores: Stores }): ReactNode {
  const s = useLoadable(stores.settings);
  const e = s.data.effective as Record<string, Sourced>;
  const rows = Object.entries(e).filter(([, v]) => v !== null && typeof v === 'object' && 'source' in v);
  return (
    <section aria-labelledby="prefs-h">
      <header className="view-head"><h2 id="prefs-h">Preferences</h2></header>
      <Status loading={s.loading} error={s.error} empty={rows.length === 0} emptyText={<p>No settings.</p>}>
        <table className="grid" data-testid="preferences">
          <thead><tr><th>Setting</th><th>Value</th><th>From</th></tr></thead>
          <tbody>
            {rows.map(([k, v]) => (
              <tr key={k}>
                <td className="mono">{k === 'inbound' ? 'crossSessionInbound' : k}</td>
                <td className="mono">{show(v.value)}</td>
                <td>{v.source}{v.source === 'managed' && <span className="lock" title="Set by your administrator's managed settings; it cannot be changed here"> 🔒 managed</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="dim">User settings live in <code>~/.switchboard/settings.json</code>; changes apply within a second. Repository settings can only make the inbound policy stricter.</p>
        {s.data.problems.length > 0 && (
          <div className="problems" role="alert">
            <h3>Problems in settings files (those values count as “hold”)</h3>
            <ul>{s.data.problems.map((p, i) => <li key={i}><code>{p.file}</code>{p.key ? ` · ${p.key}` : ''}: {p.message}</li>)}</ul>
          </div>
        )}
      </Status>
    </section>
  );
}
