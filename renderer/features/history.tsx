// History: every kept message, searchable and filterable by words, session,
// outcome and time (newest first), and the conversation of one pair of
// sessions or one team (oldest first) with each message's outcome. Opened
// from the nav, a Sessions row or a search result. Keys: arrows, Home and
// End move between messages; Enter opens a result's conversation; Escape
// goes back to the search. Reads only, through the history operations.
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { OUTCOMES, type HistoryMessage } from '../../core/protocol/history.js';
import type { Stores } from '../stores/stores.js';
import { SINCE_WINDOWS, type HistoryTarget, type SinceWindow } from '../stores/history.js';
import { useLoadable, useNow } from '../ui/hooks.js';
import { MessageBody, senderName } from './history-message.js';

const TYPE_DELAY_MS = 250; // words are searched once typing pauses
const LIVE_RELOAD_MS = 1500; // new messages show within 1.5 s, coalesced: each query makes the hub write its queued history at once
const SINCE_TEXT: Record<SinceWindow, string> = {
  any: 'Any time',
  '1h': 'Last hour',
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
};

/** The pair a message belongs to, by the names (or ids) the history matches. */
function pairOf(m: HistoryMessage): HistoryTarget | null {
  const a = m.sender.name ?? m.sender.sessionId;
  return a === null ? null : { kind: 'pair', a, b: m.receiver.name };
}

function title(t: HistoryTarget): string {
  return t.kind === 'search'
    ? 'History'
    : t.kind === 'pair'
      ? `Conversation: ${t.a} ↔ ${t.b}`
      : `Team conversation: ${t.team}`;
}

export function HistoryView({ stores }: { stores: Stores }): ReactNode {
  const h = useLoadable(stores.history);
  const teams = useLoadable(stores.teams).data.teams;
  const now = useNow(5000);
  const [text, setText] = useState(h.filters.text);
  const list = useRef<HTMLOListElement>(null);
  const search = h.target.kind === 'search';

  useEffect(() => void stores.history.getState().load(), [stores]);
  useEffect(() => setText(h.filters.text), [h.filters.text, h.target]);
  useEffect(() => {
    if (text === stores.history.getState().filters.text) return;
    const t = setTimeout(() => void stores.history.getState().setFilters({ text }), TYPE_DELAY_MS);
    return () => clearTimeout(t);
  }, [text, stores]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = stores.bridge.onEvent((e) => {
      if ((e.type !== 'activity' && e.type !== 'resync') || timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        void stores.history.getState().load();
      }, LIVE_RELOAD_MS);
    });
    return () => {
      off();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [stores]);

  const open = (t: HistoryTarget | null): void => {
    if (t !== null) void stores.history.getState().open(t);
  };
  const back = (): void => void stores.history.getState().open({ kind: 'search' });
  const onListKey = (e: KeyboardEvent<HTMLOListElement>): void => {
    const items = [...(list.current?.querySelectorAll<HTMLLIElement>('li.msg') ?? [])];
    const i = items.indexOf(document.activeElement as HTMLLIElement);
    const to =
      e.key === 'ArrowDown'
        ? i + 1
        : e.key === 'ArrowUp'
          ? i - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? items.length - 1
              : null;
    if (to !== null && items.length > 0) {
      e.preventDefault();
      items[Math.max(0, Math.min(items.length - 1, to))]!.focus();
    } else if (e.key === 'Enter' && search && i >= 0 && e.target === items[i]) {
      e.preventDefault();
      open(pairOf(h.messages[i]!));
    }
  };
  const onKey = (e: KeyboardEvent): void => {
    if (e.key === 'Escape' && !search) back();
  };
  const filtered =
    h.filters.text !== '' ||
    h.filters.outcome !== '' ||
    h.filters.since !== 'any' ||
    (search && h.filters.session !== '');
  const clear = (): void =>
    void stores.history.getState().setFilters({ text: '', outcome: '', since: 'any', session: '' });

  return (
    <section aria-labelledby="history-h" onKeyDown={onKey} className="history">
      <header className="view-head">
        {!search && (
          <button onClick={back} title="Back to all history (Escape)">
            ← All history
          </button>
        )}
        <h2 id="history-h">
          {title(h.target)}{' '}
          {!h.loading && h.error === null && (
            <span className="count">
              {h.messages.length}
              {h.next !== null ? '+' : ''}
            </span>
          )}
        </h2>
        {h.target.kind === 'pair' && h.messages.length > 0 && (
          <DeletePair stores={stores} a={h.target.a} b={h.target.b} />
        )}
      </header>
      <div className="history-filters" role="search">
        <input
          type="search"
          className="filter"
          placeholder="Search words in messages"
          aria-label="Search messages"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        {search && (
          <input
            type="search"
            placeholder="Session name"
            aria-label="Filter by session"
            value={h.filters.session}
            onChange={(e) => void stores.history.getState().setFilters({ session: e.target.value })}
          />
        )}
        <select
          aria-label="Filter by outcome"
          value={h.filters.outcome}
          onChange={(e) =>
            void stores.history.getState().setFilters({ outcome: e.target.value as (typeof OUTCOMES)[number] | '' })
          }
        >
          <option value="">All outcomes</option>
          {OUTCOMES.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
        <select
          aria-label="Filter by time"
          value={h.filters.since}
          onChange={(e) => void stores.history.getState().setFilters({ since: e.target.value as SinceWindow })}
        >
          {(Object.keys(SINCE_WINDOWS) as SinceWindow[]).map((w) => (
            <option key={w} value={w}>
              {SINCE_TEXT[w]}
            </option>
          ))}
        </select>
        {teams.length > 0 && (
          <select
            aria-label="Team conversation"
            value={h.target.kind === 'team' ? h.target.team : ''}
            onChange={(e) => (e.target.value === '' ? back() : open({ kind: 'team', team: e.target.value }))}
          >
            <option value="">No team</option>
            {teams.map((t) => (
              <option key={t.name} value={t.name}>
                Team {t.name}
              </option>
            ))}
          </select>
        )}
      </div>
      {h.error !== null ? (
        <p className="error" role="alert">
          Could not load the history: {h.error}
        </p>
      ) : h.loading && h.messages.length === 0 ? (
        <p className="muted">Loading…</p>
      ) : h.messages.length === 0 ? (
        <div className="empty" data-testid="history-empty">
          {filtered ? (
            <p>
              Nothing matches these filters.{' '}
              <button className="link" onClick={clear}>
                Clear the filters
              </button>
            </p>
          ) : search ? (
            <p>
              No messages yet. Every message between sessions is kept here with where it ended (delivered, held for you,
              refused or dropped, and why), searchable for as long as Preferences → History keeps it. Open a session in
              Sessions to see its conversations.
            </p>
          ) : (
            <p>No messages in this conversation yet.</p>
          )}
        </div>
      ) : (
        <>
          <ol
            className="history-list"
            data-testid={search ? 'history-results' : 'conversation'}
            ref={list}
            onKeyDown={onListKey}
            aria-label={search ? 'Search results, newest first' : 'Messages, oldest first'}
          >
            {h.messages.map((m, i) => (
              <li
                key={m.msgId}
                className="msg"
                tabIndex={i === 0 ? 0 : -1}
                data-testid="history-msg"
                data-outcome={m.outcome}
              >
                <MessageBody m={m} now={now} />
                {search && pairOf(m) !== null && (
                  <button
                    className="link"
                    tabIndex={-1}
                    onClick={() => open(pairOf(m))}
                    aria-label={`Open the conversation of ${senderName(m)} and ${m.receiver.name}`}
                  >
                    Open conversation
                  </button>
                )}
              </li>
            ))}
          </ol>
          {h.next !== null && (
            <button onClick={() => void stores.history.getState().more()}>
              {search ? 'Older messages' : 'Later messages'}
            </button>
          )}
        </>
      )}
    </section>
  );
}

/** Deletes this pair's conversation (both directions) from the history; a second click confirms. */
function DeletePair({ stores, a, b }: { stores: Stores; a: string; b: string }): ReactNode {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async (): Promise<void> => {
    setConfirming(false);
    try {
      await stores.bridge.call('history.delete', { between: [a, b] });
      await stores.history.getState().load();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <span className="actions">
      {!confirming ? (
        <button className="deny" onClick={() => setConfirming(true)}>
          Delete this conversation…
        </button>
      ) : (
        <>
          <button className="deny" onClick={() => void remove()}>
            Delete it for good
          </button>
          <button onClick={() => setConfirming(false)}>Cancel</button>
        </>
      )}
      {error !== null && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
