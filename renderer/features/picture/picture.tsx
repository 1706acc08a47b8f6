// The picture: who talks to whom right now. Sessions are dots
// grouped by machine and team, coloured busy or idle; a line per sender →
// receiver for the chosen window, thicker with more messages, coloured by
// outcome; held lines pulse until you decide. A dot opens the session, a
// line its conversation. The list beside it says the same for the keyboard
// and screen readers. Live updates (live.ts) patch only what moved; each
// notes its time from the hub's event reaching the page on the graph's box
// (`data-apply-ms`, `data-update-ms`: the scale test reads both).
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { Stores } from '../../stores/stores.js';
import { PICTURE_WINDOWS } from '../../stores/picture.js';
import { NoGraphics, readPalette, sigmaGraph, type GraphFactory, type GraphView } from './graph.js';
import { follow, LivePicture, PAGE_SCHEDULER, type Scheduler } from './live.js';
import { countsText, edgeOrder, TONE_WORDS, TONES, type Picture, type PictureEdge } from './model.js';

const LIST_ROWS = 200; // the list shows the most pressing conversations; the graph shows all

export interface PictureViewProps {
  stores: Stores;
  /** Opens a session (the Sessions view with its detail). */
  onOpenSession: (address: string) => void;
  /** Opens the conversation of two sessions (ids, else names), either direction. */
  onOpenConversation: (between: readonly [string, string]) => void;
  /** What draws the graph (tests pass a fake). */
  graph?: GraphFactory;
  /** When updates run (tests pass their own; the page: a task, or the next animation frame in a burst). */
  schedule?: Scheduler;
}

export function PictureView({
  stores,
  onOpenSession,
  onOpenConversation,
  graph = sigmaGraph,
  schedule = PAGE_SCHEDULER,
}: PictureViewProps): ReactNode {
  const sessions = useStore(stores.sessions);
  const edges = useStore(stores.picture);
  const [filter, setFilter] = useState('');
  const [gfx, setGfx] = useState<{ view: GraphView | null; problem: string | null }>({ view: null, problem: null });
  const [, setRevision] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  const live = useMemo(() => new LivePicture(stores), [stores]);
  const picture = live.picture;
  const opens = useRef({ onOpenSession, onOpenConversation });
  opens.current = { onOpenSession, onOpenConversation };
  const drawn = useRef<GraphView | null>(null);
  drawn.current = gfx.view;

  useEffect(() => stores.picture.getState().activate(), [stores]);
  useEffect(
    () =>
      follow(
        live,
        stores,
        () => ({ graph: drawn.current, box: box.current }),
        () => setRevision((r) => r + 1),
        schedule,
      ),
    [live, stores, schedule, gfx.view],
  );
  useEffect(() => {
    const el = box.current;
    if (el === null) return;
    let disposed = false;
    let made: GraphView | null = null;
    const events = {
      onNode: (key: string) => {
        const address = live.picture.nodes.get(key)?.address;
        if (address != null) opens.current.onOpenSession(address);
      },
      onEdge: (key: string) => {
        const e = live.picture.edges.get(key);
        if (e !== undefined) opens.current.onOpenConversation(e.between);
      },
    };
    graph(el, events, readPalette(el)).then(
      (v) => {
        if (disposed) return v.dispose();
        made = v;
        setGfx({ view: v, problem: null });
      },
      (err: unknown) =>
        !disposed &&
        setGfx({
          view: null,
          problem: err instanceof NoGraphics ? err.message : `The picture could not be drawn: ${String(err)}`,
        }),
    );
    const dark = matchMedia('(prefers-color-scheme: dark)');
    const recolour = (): void => made?.setPalette(readPalette(el));
    dark.addEventListener('change', recolour);
    return () => {
      disposed = true;
      dark.removeEventListener('change', recolour);
      made?.dispose();
    };
  }, [graph]);

  const f = filter.trim().toLowerCase();
  const list = [...picture.edges.values()]
    .filter((e) => f === '' || `${e.fromLabel} ${e.toLabel}`.toLowerCase().includes(f))
    .sort(edgeOrder);
  const windowText = PICTURE_WINDOWS.find((w) => w.ms === edges.windowMs)?.text.toLowerCase() ?? 'the window';
  const empty = !sessions.loading && picture.nodes.size === 0;
  return (
    <section aria-labelledby="picture-h" className="picture-view">
      <header className="view-head">
        <h2 id="picture-h">Picture</h2>
        <select
          aria-label="Messages of"
          value={edges.windowMs}
          onChange={(e) => void stores.picture.getState().setWindow(Number(e.target.value))}
        >
          {PICTURE_WINDOWS.map((w) => (
            <option key={w.ms} value={w.ms}>
              {w.text}
            </option>
          ))}
        </select>
        <ul className="legend" aria-label="Legend">
          {TONES.map((t) => (
            <li key={t}>
              <span className={`swatch tone-${t}`} />
              {TONE_WORDS[t]}{' '}
              <span className="count" data-testid={`total-${t}`}>
                {picture.totals[t]}
              </span>
            </li>
          ))}
          <li>
            <span className="dot busy" />
            busy
          </li>
          <li>
            <span className="dot idle" />
            idle
          </li>
        </ul>
      </header>
      {edges.error !== null && (
        <p className="error" role="alert">
          Could not load the messages: {edges.error}
        </p>
      )}
      {edges.off !== null && (
        <p className="dim" role="status">
          {edges.off}
        </p>
      )}
      {gfx.problem !== null && (
        <p className="dim" role="status">
          {gfx.problem}
        </p>
      )}
      {empty && (
        <div className="empty" data-testid="picture-empty">
          <p>
            Nothing to draw yet. Each session shows here as a dot, grouped by its machine and team; each message between
            two sessions draws a line: green when delivered or approved, blue while queued and not read yet, amber
            (pulsing) while held for you, red when refused, denied or expired, grey when dropped.
          </p>
          <p>Start an agent session set up for Switchboard and it appears here.</p>
        </div>
      )}
      <div className={`picture-body ${empty ? 'hidden' : ''}`}>
        <div
          className="picture-graph"
          ref={box}
          data-testid="picture-graph"
          role="img"
          aria-label={`${picture.nodes.size} sessions and ${picture.edges.size} conversations, ${picture.messages} messages in the ${windowText}`}
        />
        <aside className="picture-list" aria-label="Conversations">
          <p className="dim" data-testid="picture-summary">
            {picture.nodes.size} session{picture.nodes.size === 1 ? '' : 's'}, {picture.messages} message
            {picture.messages === 1 ? '' : 's'} in the {windowText}
            {edges.counts.truncated ? ' (the oldest left out)' : ''}
          </p>
          {picture.nodes.size > 0 && picture.edges.size === 0 && !edges.loading && (
            <p className="dim">No messages in the {windowText}. A line appears when one session messages another.</p>
          )}
          {picture.edges.size > 0 && (
            <input
              type="search"
              className="filter"
              placeholder="Filter by session"
              aria-label="Filter conversations by session"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
            />
          )}
          <ul data-testid="picture-edges">
            {list.slice(0, LIST_ROWS).map((e) => (
              <EdgeRow
                key={e.key}
                edge={e}
                picture={picture}
                onOpenSession={onOpenSession}
                onOpenConversation={onOpenConversation}
              />
            ))}
          </ul>
          {list.length > LIST_ROWS && (
            <p className="dim">and {list.length - LIST_ROWS} more (held and stopped ones first; filter to find one)</p>
          )}
        </aside>
      </div>
    </section>
  );
}

function EdgeRow({
  edge: e,
  picture,
  onOpenSession,
  onOpenConversation,
}: { edge: PictureEdge; picture: Picture } & Pick<
  PictureViewProps,
  'onOpenSession' | 'onOpenConversation'
>): ReactNode {
  const side = (key: string, label: string): ReactNode => {
    const address = picture.nodes.get(key)?.address ?? null;
    return address === null ? (
      <span className="mono dim">{label}</span>
    ) : (
      <button className="link mono" onClick={() => onOpenSession(address)} title="Open this session">
        {label}
      </button>
    );
  };
  return (
    <li data-testid="picture-edge" data-tone={e.tone} data-count={e.count} className={`tone-${e.tone}`}>
      <span className={`swatch tone-${e.tone}`} aria-hidden="true" />
      <span className="ends">
        {side(e.from, e.fromLabel)} → {side(e.to, e.toLabel)}
      </span>
      <button
        className="link conv"
        onClick={() => onOpenConversation(e.between)}
        aria-label={`Open the conversation of ${e.fromLabel} and ${e.toLabel}`}
      >
        {countsText(e)}
      </button>
    </li>
  );
}
