// The picture (issue 18): who talks to whom right now. Sessions are dots
// grouped by machine and team, coloured busy or idle; a line per sender →
// receiver for the chosen window, thicker with more messages, coloured by
// outcome; held lines pulse until you decide. A dot opens the session, a
// line its conversation. The list beside it says the same for the keyboard
// and screen readers. Live moves arriving within one frame are applied
// together, each patching its one edge (model.ts patchPicture); a new fetch
// or a change of sessions rebuilds. Each update notes how long it took from
// the hub's event reaching the page: `data-apply-ms` until the graph has it,
// `data-update-ms` until the frame that draws it (the scale test reads both).
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { Stores } from '../../stores/stores.js';
import { PICTURE_WINDOWS } from '../../stores/picture.js';
import type { AgentRow } from '../../../core/protocol/methods.js';
import { NoGraphics, readPalette, sigmaGraph, type GraphFactory, type GraphView } from './graph.js';
import {
  buildPicture,
  countsText,
  edgeOrder,
  patchPicture,
  patchSessions,
  TONES,
  type Picture,
  type PictureEdge,
} from './model.js';

const LIST_ROWS = 200; // the list shows the most pressing conversations; the graph shows all
const TONE_TEXT = {
  delivered: 'delivered',
  held: 'held for you',
  refused: 'refused or denied',
  dropped: 'dropped',
} as const;

export interface PictureViewProps {
  stores: Stores;
  /** Opens a session (the Sessions view with its detail). */
  onOpenSession: (address: string) => void;
  /** Opens the conversation of two sessions (ids, else names), either direction. */
  onOpenConversation: (between: readonly [string, string]) => void;
  /** What draws the graph (tests pass a fake). */
  graph?: GraphFactory;
  /** Runs a frame's updates (tests pass their own; the page: the next animation frame). */
  frame?: (fn: () => void) => void;
}

/** The picture as drawn, and what it was built from (a different version or sessions list: rebuild, not patch). */
interface Live {
  picture: Picture;
  version: number;
  sessions: readonly AgentRow[];
}

const nextFrame = (fn: () => void): void => void requestAnimationFrame(fn);

export function PictureView({
  stores,
  onOpenSession,
  onOpenConversation,
  graph = sigmaGraph,
  frame = nextFrame,
}: PictureViewProps): ReactNode {
  const sessions = useStore(stores.sessions);
  const edges = useStore(stores.picture);
  const [filter, setFilter] = useState('');
  const [gfx, setGfx] = useState<{ view: GraphView | null; problem: string | null }>({ view: null, problem: null });
  const [, setRevision] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  const live = useRef<Live | null>(null);
  const build = (): Live => {
    const p = stores.picture.getState();
    const rows = stores.sessions.getState().data;
    p.drain(); // the counts already hold every move applied so far
    return (live.current = { picture: buildPicture(rows, p.counts.rows.values()), version: p.version, sessions: rows });
  };
  const picture = (live.current ?? build()).picture;
  const opens = useRef({ onOpenSession, onOpenConversation });
  opens.current = { onOpenSession, onOpenConversation };
  const drawn = useRef<GraphView | null>(null);
  drawn.current = gfx.view;

  useEffect(() => stores.picture.getState().activate(), [stores]);
  // One frame's updates: the moves since the last frame patch their edges; a new fetch or sessions list rebuilds.
  useEffect(() => {
    let due = false;
    let gone = false;
    let given: GraphView | null = null; // the graph that has this picture (a new one gets all of it)
    const run = (): void => {
      due = false;
      if (gone) return;
      const p = stores.picture.getState();
      const rows = stores.sessions.getState().data;
      let l = live.current;
      const touched = new Set<string>();
      let dots: string[] = [];
      let full = l === null || l.version !== p.version;
      if (!full && l!.sessions !== rows) {
        const changed = patchSessions(l!.picture, l!.sessions, rows); // an inbox depth changes nothing drawn
        if (changed === null) full = true;
        else [dots, l!.sessions] = [changed, rows];
      }
      if (!full) {
        for (const m of p.drain().moves) {
          const key = patchPicture(l!.picture, m);
          if (key === null) {
            full = true;
            break;
          }
          touched.add(key);
        }
      }
      if (full) l = build();
      const view = drawn.current;
      const el = box.current;
      if (view !== null && el !== null) {
        if (full || view !== given) view.apply(l!.picture);
        else view.patch(l!.picture, touched, dots);
        given = view;
        const at = p.timing.eventAt;
        p.timing.eventAt = null;
        if (at !== null) el.dataset.applyMs = (performance.now() - at).toFixed(1);
        requestAnimationFrame(() => {
          el.dataset.revision = String(Number(el.dataset.revision ?? '0') + 1);
          if (at !== null) el.dataset.updateMs = (performance.now() - at).toFixed(1);
        });
      }
      setRevision((r) => r + 1);
    };
    const schedule = (): void => {
      if (due) return;
      due = true;
      frame(run);
    };
    const offMoves = stores.picture.getState().onChange(schedule);
    const offSessions = stores.sessions.subscribe(schedule);
    schedule();
    return () => {
      gone = true;
      offMoves();
      offSessions();
    };
  }, [stores, frame, gfx.view]);
  useEffect(() => {
    const el = box.current;
    if (el === null) return;
    let disposed = false;
    let made: GraphView | null = null;
    const events = {
      onNode: (key: string) => {
        const address = live.current?.picture.nodes.get(key)?.address;
        if (address != null) opens.current.onOpenSession(address);
      },
      onEdge: (key: string) => {
        const e = live.current?.picture.edges.get(key);
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
              {TONE_TEXT[t]}{' '}
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
            two sessions draws a line: green when delivered, amber (pulsing) while held for you, red when refused or
            denied, grey when dropped.
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
