// The app shell: navigation, the connection state, and the views. Talks to
// the hub only through the stores (and they only through the Bridge). The
// navigation is one tab stop: arrow keys, Home and End move between views.
// While the hub refuses this tab's token (none, wrong, or from before a
// restart) only the sign-in screen shows, until the hub accepts one; while
// the hub does not answer, the views are greyed out and take no input, so
// nothing looks live that is not.
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { ConnectionState } from './bridge/bridge.js';
import type { Stores } from './stores/stores.js';
import { ActivityView } from './features/activity.js';
import { Banners, useAlerts } from './features/alerts.js';
import { ApprovalsView } from './features/approvals.js';
import { PictureView } from './features/picture/picture.js';
import { HistoryView } from './features/history.js';
import { PreferencesView } from './features/preferences.js';
import { SessionsView } from './features/sessions.js';
import { SignIn } from './features/sign-in.js';
import { SubscriptionsView } from './features/subscriptions.js';
import { TeamsView } from './features/teams.js';

const VIEWS = [
  'sessions',
  'approvals',
  'picture',
  'subscriptions',
  'teams',
  'activity',
  'history',
  'preferences',
] as const;
type View = (typeof VIEWS)[number];
const CONNECTION_TEXT: Record<ConnectionState, string> = {
  connected: 'Connected',
  connecting: 'Connecting…',
  reconnecting: 'The hub is not answering; reconnecting…',
  unauthorized: 'Not signed in',
};

export function App({ stores }: { stores: Stores }): ReactNode {
  const [view, setView] = useState<View>(() =>
    (VIEWS as readonly string[]).includes(location.hash.slice(1)) ? (location.hash.slice(1) as View) : 'sessions',
  );
  const connection = useStore(stores.connection, (s) => s.state);
  // Signed out from a refusal (or a tab without a token) until the hub accepts a token: no app with zeros meanwhile.
  const [signedOut, setSignedOut] = useState(() => stores.bridge.hasToken?.() === false);
  useEffect(() => {
    if (connection === 'unauthorized' && stores.bridge.signIn !== undefined) setSignedOut(true);
    if (connection === 'connected') setSignedOut(false);
  }, [connection, stores]);
  const navRef = useRef<HTMLElement>(null);
  const onNavKey = (e: KeyboardEvent): void => {
    const i = VIEWS.indexOf(view);
    const next =
      e.key === 'ArrowDown' || e.key === 'ArrowRight'
        ? (i + 1) % VIEWS.length
        : e.key === 'ArrowUp' || e.key === 'ArrowLeft'
          ? (i + VIEWS.length - 1) % VIEWS.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? VIEWS.length - 1
              : -1;
    if (next < 0 || !(e.target instanceof HTMLButtonElement) || e.target.dataset.view === undefined) return;
    e.preventDefault();
    setView(VIEWS[next]!);
    navRef.current?.querySelector<HTMLButtonElement>(`button[data-view="${VIEWS[next]!}"]`)?.focus();
  };
  const heldCount =
    useStore(stores.held, (s) => s.data.length) + useStore(stores.confirmations, (s) => s.data.items.length);
  useEffect(() => {
    for (const name of ['sessions', 'held', 'confirmations', 'subscriptions', 'activity', 'settings', 'teams'] as const)
      void stores[name].getState().load();
  }, [stores]);
  useEffect(() => {
    location.hash = view;
  }, [view]);
  const openHeld = useCallback(
    (itemId: string) => {
      setView('approvals');
      stores.focus.setState({ itemId });
    },
    [stores],
  );
  useAlerts(stores, heldCount, openHeld);
  // Another view opened a conversation or a search (stores/history.ts): show it.
  useEffect(
    () =>
      stores.history.subscribe((s, prev) => {
        if (s.shown !== prev.shown) setView('history');
      }),
    [stores],
  );
  // The desktop shell (tray, notifications) asks for a view: { type: 'ui.focus', view, itemId? }.
  useEffect(
    () =>
      stores.bridge.onEvent((e) => {
        if (e.type === 'ui.focus' && typeof e.view === 'string' && (VIEWS as readonly string[]).includes(e.view)) {
          setView(e.view as View);
          if (typeof e.itemId === 'string') stores.focus.setState({ itemId: e.itemId });
        }
      }),
    [stores],
  );
  if (signedOut)
    return (
      <SignIn
        bridge={stores.bridge}
        connection={connection}
        origin={location.origin}
        open={(url) => location.assign(url)}
      />
    );
  const stale = connection === 'reconnecting';
  return (
    <div className="app">
      <nav aria-label="Views" ref={navRef} onKeyDown={onNavKey}>
        <h1>Switchboard</h1>
        {VIEWS.map((v) => (
          <button
            key={v}
            data-view={v}
            tabIndex={v === view ? 0 : -1}
            className={v === view ? 'active' : ''}
            aria-current={v === view ? 'page' : undefined}
            onClick={() => setView(v)}
          >
            {v[0]!.toUpperCase() + v.slice(1)}
            {v === 'approvals' && heldCount > 0 && <span className="badge alert">{heldCount}</span>}
          </button>
        ))}
        <PauseToggle stores={stores} />
        <div className={`conn ${connection}`} role="status">
          {CONNECTION_TEXT[connection]}
        </div>
      </nav>
      <main aria-busy={stale}>
        {stale && (
          <p className="banner" role="alert" data-testid="stale">
            The hub is not answering. What you see may be out of date, and nothing here can be changed until it answers
            again.
          </p>
        )}
        <div className={stale ? 'views stale' : 'views'} inert={stale}>
          <Banners stores={stores} openApprovals={() => setView('approvals')} />
          {view === 'sessions' && <SessionsView stores={stores} />}
          {view === 'approvals' && <ApprovalsView stores={stores} />}
          {view === 'picture' && (
            <PictureView
              stores={stores}
              onOpenSession={(address) => {
                stores.focus.setState({ itemId: address }); // Sessions opens its detail
                setView('sessions');
              }}
              onOpenConversation={(between) =>
                void stores.history.getState().open({ kind: 'pair', a: between[0], b: between[1] })
              }
            />
          )}
          {view === 'subscriptions' && <SubscriptionsView stores={stores} />}
          {view === 'teams' && <TeamsView stores={stores} />}
          {view === 'activity' && <ActivityView stores={stores} />}
          {view === 'history' && <HistoryView stores={stores} />}
          {view === 'preferences' && <PreferencesView stores={stores} />}
        </div>
      </main>
    </div>
  );
}

/** "Pause inbound": every new message is refused until resumed; held ones stay for you to decide. */
function PauseToggle({ stores }: { stores: Stores }): ReactNode {
  const paused = useStore(stores.settings, (s) => s.data.paused === true);
  const toggle = async (): Promise<void> => {
    await stores.bridge.call('inbound.pause', { paused: !paused }).catch(() => undefined);
    await stores.settings.getState().load();
  };
  return (
    <label
      className={`pause ${paused ? 'on' : ''}`}
      title="Refuse every new inbound message until you resume; held messages stay held"
    >
      <input type="checkbox" checked={paused} onChange={() => void toggle()} /> Pause inbound
    </label>
  );
}
