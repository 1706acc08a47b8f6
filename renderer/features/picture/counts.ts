// The picture's counts, kept live: the rows of one `history.edges`
// answer, keyed as the hub groups them (sender session and address, receiver
// session, outcome), and each `history.moved` applied in place — a new
// message adds one, an outcome change moves one. A move this cannot place
// (its old row is missing, a gap in the sequence, another hub run, a reset)
// answers 'refetch': the caller fetches again rather than draw something
// wrong. Pure: no bridge, no DOM, no timers.
import type { HistoryEdgesView } from '../../../core/protocol/methods.js';
import type { PictureMove } from '../../../core/protocol/events.js';

export type EdgeRow = HistoryEdgesView['edges'][number];
export type CountMove = Extract<PictureMove, { kind: 'count' }>;

export interface Counts {
  rows: Map<string, EdgeRow>;
  since: number;
  truncated: boolean;
  /** The last move in these counts. */
  cursor: { epoch: string; seq: number };
}

/** What applying one move did: `moved` (the picture changes by it), `skip` (nothing to draw), or `refetch`. */
export type Applied = { kind: 'moved'; move: CountMove } | { kind: 'skip' } | { kind: 'refetch' };

const rowKey = (m: Pick<EdgeRow, 'from' | 'to'>, outcome: string): string =>
  `${m.from.sessionId ?? ''}\u0000${m.from.address}\u0000${m.to.sessionId}\u0000${outcome}`;

export function countsOf(view: HistoryEdgesView): Counts {
  const rows = new Map<string, EdgeRow>();
  for (const r of view.edges) rows.set(rowKey(r, r.outcome), { ...r });
  return { rows, since: view.since, truncated: view.truncated, cursor: { ...view.cursor } };
}

/** Applies `move` to `c` in place (nothing changes when the answer is 'refetch'). */
export function applyMove(c: Counts, raw: unknown): Applied {
  const move = parseMove(raw);
  if (move === null || move.epoch !== c.cursor.epoch) return { kind: 'refetch' };
  if (move.seq <= c.cursor.seq) return { kind: 'skip' }; // already counted (the fetch's answer had it)
  if (move.seq !== c.cursor.seq + 1 || move.kind === 'reset') return { kind: 'refetch' };
  if (move.at < c.since) {
    c.cursor.seq = move.seq; // a message older than the window: not drawn
    return { kind: 'skip' };
  }
  const old = move.previous === null ? undefined : c.rows.get(rowKey(move, move.previous));
  if (move.previous !== null && (old === undefined || old.count < 1)) {
    if (!c.truncated) return { kind: 'refetch' };
    c.cursor.seq = move.seq; // its row was among those left out: so is the message
    return { kind: 'skip' };
  }
  c.cursor.seq = move.seq;
  if (old !== undefined) {
    old.count--;
    if (old.count === 0) c.rows.delete(rowKey(move, move.previous!));
  }
  const key = rowKey(move, move.outcome);
  const row = c.rows.get(key);
  if (row === undefined)
    c.rows.set(key, { from: move.from, to: move.to, outcome: move.outcome, count: 1, last: move.at });
  else {
    row.count++;
    row.last = Math.max(row.last, move.at);
    if (row.to.address === null && move.to.address !== null) row.to = move.to;
  }
  return { kind: 'moved', move };
}

const str = (v: unknown): v is string => typeof v === 'string';
const strOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';
const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The move as the hub sends it, or null for anything else (the bridge does not check event payloads). */
export function parseMove(v: unknown): PictureMove | null {
  if (!obj(v) || !str(v.epoch) || !Number.isSafeInteger(v.seq)) return null;
  if (v.kind === 'reset') return v as PictureMove;
  if (v.kind !== 'count' || !str(v.msgId) || typeof v.at !== 'number' || !str(v.outcome)) return null;
  if (!strOrNull(v.previous) || !obj(v.from) || !obj(v.to)) return null;
  const f = v.from;
  const t = v.to;
  if (!strOrNull(f.sessionId) || !strOrNull(f.name) || !str(f.address) || !strOrNull(f.team)) return null;
  if (!str(t.sessionId) || !str(t.name) || !strOrNull(t.team) || !strOrNull(t.address)) return null;
  return v as PictureMove;
}
