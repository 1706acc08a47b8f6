// Subscriptions: idle-notification subscriptions with subscriber, target,
// age and time left; cancel one.
import type { ReactNode } from 'react';
import type { Stores } from '../stores/stores.js';
import { ago, countdown, useLoadable, useNow } from '../ui/hooks.js';
import { Status } from '../ui/state.js';

export function SubscriptionsView({ stores }: { stores: Stores }): ReactNode {
  const s = useLoadable(stores.subscriptions);
  const now = useNow();
  const cancel = async (id: string): Promise<void> => {
    await stores.bridge.call('subscriptions.cancel', { id });
    await stores.subscriptions.getState().load();
  };
  return (
    <section aria-labelledby="subs-h">
      <header className="view-head">
        <h2 id="subs-h">
          Subscriptions <span className="count">{s.data.length}</span>
        </h2>
      </header>
      <Status
        loading={s.loading}
        error={s.error}
        empty={s.data.length === 0}
        emptyText={
          <p>
            No idle subscriptions. A session that sends with <code>notify_when_idle</code> waits here for one notice
            when its target next goes idle.
          </p>
        }
      >
        <table className="grid" data-testid="subscriptions">
          <thead>
            <tr>
              <th>Subscriber</th>
              <th>Target</th>
              <th>Age</th>
              <th>Time left</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {s.data.map((x) => (
              <tr key={x.id}>
                <td>{x.subscriber.name ?? x.subscriber.sessionId}</td>
                <td className="mono">{x.target.label}</td>
                <td>{ago(x.createdAt, now)}</td>
                <td>{countdown(x.expiresAt, now)}</td>
                <td>
                  <button onClick={() => void cancel(x.id)}>Cancel</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Status>
    </section>
  );
}
