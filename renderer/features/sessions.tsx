// Sessions: every live session with name [ref], agent, where, state and for
// how long, cwd, and whether its inbox accepts messages. Filterable.
import { useState, type ReactNode } from 'react';
import type { Stores } from '../stores/stores.js';
import { ago, useLoadable, useNow } from '../ui/hooks.js';
import { Status } from '../ui/state.js';

export function SessionsView({ stores }: { stores: Stores }): ReactNode {
  const s = useLoadable(stores.sessions);
  const now = useNow();
  const [filter, setFilter] = useState('');
  const f = filter.trim().toLowerCase();
  const rows = f === '' ? s.data : s.data.filter((r) => `${r.label} ${r.cwd} ${r.agent}`.toLowerCase().includes(f));
  return (
    <section aria-labelledby="sessions-h">
      <header className="view-head">
        <h2 id="sessions-h">Sessions <span className="count">{s.data.length}</span></h2>
        <input type="search" placeholder="Filter by name, cwd, agent" aria-label="Filter sessions" value={filter} onChange={(e) => setFilter(e.target.value)} />
      </header>
      <Status loading={s.loading} error={s.error} empty={s.data.length === 0} emptyText={<p>No live sessions. Agents appear here once they start with Switchboard set up (<code>switchboard setup claude-code</code>).</p>}>
        <table className="grid" data-testid="sessions">
          <thead>
            <tr><th>Name [ref]</th><th>Agent</th><th>Where</th><th>State</th><th>Inbox</th><th>Cwd</th></tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.address}>
                <td className="mono">{r.label}</td>
                <td>{r.agent}{r.kind === 'claude-code' ? ' (Claude Code)' : ''}</td>
                <td>{r.machine ?? 'this machine'}</td>
                <td><span className={`pill ${r.state}`}>{r.state}</span> {ago(r.stateSince, now)}</td>
                <td>{r.canReceive ? 'open' : 'full'}</td>
                <td className="mono dim">{r.cwd}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Status>
    </section>
  );
}
