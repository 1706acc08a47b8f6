// Activity: receipts and policy decisions, newest first, filterable by
// session and status (the hub keeps the last 500), and notices meant for you.
import { useState, type ReactNode } from 'react';
import type { Stores } from '../stores/stores.js';
import { ago, useLoadable, useNow } from '../ui/hooks.js';
import { StatusPill } from '../ui/pill.js';
import { Status } from '../ui/state.js';

export function ActivityView({ stores }: { stores: Stores }): ReactNode {
  const s = useLoadable(stores.activity);
  const now = useNow(5000);
  const [who, setWho] = useState('');
  const [status, setStatus] = useState('');
  const statuses = [...new Set(s.data.entries.map((e) => e.status))].sort();
  const rows = s.data.entries.filter(
    (e) =>
      (who === '' || `${e.sender} ${e.receiver}`.toLowerCase().includes(who.toLowerCase())) &&
      (status === '' || e.status === status),
  );
  return (
    <section aria-labelledby="activity-h">
      <header className="view-head">
        <h2 id="activity-h">Activity</h2>
        <input
          type="search"
          className="filter"
          placeholder="Filter by session"
          aria-label="Filter by session"
          value={who}
          onChange={(e) => setWho(e.target.value)}
        />
        <select aria-label="Filter by status" value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="">All statuses</option>
          {statuses.map((x) => (
            <option key={x} value={x}>
              {x}
            </option>
          ))}
        </select>
      </header>
      {s.data.notices.length > 0 && (
        <ul className="notices">
          {s.data.notices.map((n) => (
            <li key={n.id}>
              {n.text} <span className="dim">{ago(n.at, now)} ago</span>
            </li>
          ))}
        </ul>
      )}
      <Status
        loading={s.loading}
        error={s.error}
        empty={rows.length === 0}
        emptyText={
          s.data.entries.length > 0 ? (
            <p>
              Nothing matches these filters.{' '}
              <button
                className="link"
                onClick={() => {
                  setWho('');
                  setStatus('');
                }}
              >
                Show everything
              </button>
            </p>
          ) : (
            <p>
              No messages yet. Every message between sessions shows up here: delivered, held for you, refused or
              dropped, and why. The hub keeps the last 500.
            </p>
          )
        }
      >
        <table className="grid" data-testid="activity">
          <thead>
            <tr>
              <th>When</th>
              <th>Kind</th>
              <th>Status</th>
              <th>From</th>
              <th>To</th>
              <th>Why</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e, i) => (
              <tr key={`${e.msgId}-${e.at}-${i}`}>
                <td>{ago(e.at, now)} ago</td>
                <td>{e.kind}</td>
                <td>
                  <StatusPill status={e.status} />
                </td>
                <td className="mono">{e.sender}</td>
                <td className="mono">{e.receiver}</td>
                <td className="dim">{e.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Status>
    </section>
  );
}
