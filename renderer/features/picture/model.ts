// The picture's data, pure: sessions (agents.list rows) and the recent
// window's edge counts (history.edges) become nodes grouped by machine and
// team, and one edge per sender → receiver with its counts by outcome and a
// tone. A live move patches one edge in place (patchPicture), so an update
// costs O(1), not a rebuild. No DOM, no graph library: the graph adapter and
// the list render it.
import type { AgentRow } from '../../../core/protocol/methods.js';
import type { CountMove, EdgeRow } from './counts.js';

/** An edge's colour: one per group of outcomes (the legend names the outcomes of each, in History's words). */
export const TONES = ['delivered', 'queued', 'held', 'refused', 'dropped'] as const;
export type Tone = (typeof TONES)[number];

/** Each colour's outcomes, in the contract's words (History uses the same). */
export const TONE_WORDS: Record<Tone, string> = {
  delivered: 'delivered or approved',
  queued: 'queued (not read yet) or not known yet',
  held: 'held for you',
  refused: 'refused, denied or expired',
  dropped: 'dropped or failed (not stored)',
};

/** History outcome → colour. A queued message is not delivered until its receiver read it. */
const TONE_OF: Record<string, Tone> = {
  queued: 'queued',
  delivered: 'delivered',
  approved: 'delivered',
  sent: 'delivered',
  held: 'held',
  refused: 'refused',
  denied: 'refused',
  expired: 'refused',
  'confirm-denied': 'refused',
  'confirm-expired': 'refused',
  dropped: 'dropped',
  failed: 'dropped',
  unknown: 'queued',
  stored: 'queued',
};
/** The outcomes in the order a count names them (the contract's order). */
const OUTCOME_ORDER = [
  'queued',
  'delivered',
  'sent',
  'unknown',
  'stored',
  'held',
  'approved',
  'denied',
  'expired',
  'refused',
  'confirm-denied',
  'confirm-expired',
  'dropped',
  'failed',
];
/** An edge takes the most pressing tone present: something waiting for you, then stopped, then dropped. */
const PRECEDENCE: readonly Tone[] = ['held', 'refused', 'dropped', 'queued', 'delivered'];

export const THIS_MACHINE = 'this machine';
export const NO_TEAM = 'no team';

export interface PictureNode {
  /** Its address (or `session:<id>` once the hub has forgotten it). */
  key: string;
  label: string;
  machine: string;
  team: string;
  agent: string;
  state: string;
  /** False for a session that has ended but still has messages in the window. */
  live: boolean;
  /** The address the Sessions view opens (null when it has ended). */
  address: string | null;
}

export interface PictureEdge {
  key: string;
  from: string;
  to: string;
  fromLabel: string;
  toLabel: string;
  count: number;
  counts: Record<Tone, number>;
  /** The same messages by outcome, in History's words. */
  outcomes: Record<string, number>;
  tone: Tone;
  last: number;
  /** The two sides as history.conversation's `between` takes them (session id, else name or address). */
  between: readonly [string, string];
}

export interface Picture {
  nodes: Map<string, PictureNode>;
  edges: Map<string, PictureEdge>;
  messages: number;
  totals: Record<Tone, number>;
}

export function toneOf(outcome: string): Tone {
  return Object.prototype.hasOwnProperty.call(TONE_OF, outcome) ? TONE_OF[outcome]! : 'delivered';
}

const zero = (): Record<Tone, number> => ({ delivered: 0, queued: 0, held: 0, refused: 0, dropped: 0 });
const bump = (outcomes: Record<string, number>, outcome: string, by: number): void => {
  outcomes[outcome] = (outcomes[outcome] ?? 0) + by;
};

/** The node keys of a row's two ends: the live session's address, else `session:<id>` (or the sender's address). */
function endsOf(nodes: ReadonlyMap<string, PictureNode>, e: Pick<EdgeRow, 'from' | 'to'>): [string, string] {
  const from = nodes.has(e.from.address)
    ? e.from.address
    : e.from.sessionId !== null
      ? `session:${e.from.sessionId}`
      : e.from.address;
  const to = e.to.address !== null && nodes.has(e.to.address) ? e.to.address : `session:${e.to.sessionId}`;
  return [from, to];
}

function newEdge(p: Picture, key: string, from: string, to: string, e: Pick<EdgeRow, 'from' | 'to'>): PictureEdge {
  const edge: PictureEdge = {
    key,
    from,
    to,
    fromLabel: p.nodes.get(from)!.label,
    toLabel: p.nodes.get(to)!.label,
    count: 0,
    counts: zero(),
    outcomes: {},
    tone: 'delivered',
    last: 0,
    between: [e.from.sessionId ?? e.from.name ?? e.from.address, e.to.sessionId],
  };
  p.edges.set(key, edge);
  return edge;
}

const toneFor = (edge: PictureEdge): Tone => PRECEDENCE.find((t) => edge.counts[t] > 0) ?? 'delivered';

/**
 * Applies one live move to `p` in place and answers the edge it changed; null
 * when the move needs a node the picture lacks (a session it has not drawn):
 * then rebuild. `p` must hold the counts the move was applied over.
 */
export function patchPicture(p: Picture, m: CountMove): string | null {
  const [from, to] = endsOf(p.nodes, m);
  if (!p.nodes.has(from) || !p.nodes.has(to)) return null;
  const key = `${from}>${to}`;
  const edge = p.edges.get(key) ?? newEdge(p, key, from, to, m);
  const tone = toneOf(m.outcome);
  if (m.previous === null) {
    edge.count++;
    p.messages++;
    edge.last = Math.max(edge.last, m.at);
  } else {
    const was = toneOf(m.previous);
    if (edge.counts[was] < 1 || (edge.outcomes[m.previous] ?? 0) < 1) return null; // not the counts it was applied over
    edge.counts[was]--;
    bump(edge.outcomes, m.previous, -1);
    p.totals[was]--;
  }
  edge.counts[tone]++;
  bump(edge.outcomes, m.outcome, 1);
  p.totals[tone]++;
  edge.tone = toneFor(edge);
  return key;
}

export function buildPicture(rows: readonly AgentRow[], edgeRows: Iterable<EdgeRow>): Picture {
  const nodes = new Map<string, PictureNode>();
  for (const r of rows) nodes.set(r.address, nodeOf(r));
  const ended = (key: string, name: string, team: string | null): string => {
    if (!nodes.has(key))
      nodes.set(key, {
        key,
        label: `${name} (ended)`,
        machine: THIS_MACHINE,
        team: team ?? NO_TEAM,
        agent: 'other',
        state: 'ended',
        live: false,
        address: null,
      });
    return key;
  };
  const p: Picture = { nodes, edges: new Map(), messages: 0, totals: zero() };
  for (const e of edgeRows) {
    const [from, to] = endsOf(nodes, e);
    if (!nodes.has(from)) ended(from, e.from.name ?? e.from.address, e.from.team);
    if (!nodes.has(to)) ended(to, e.to.name, e.to.team);
    const key = `${from}>${to}`;
    const edge = p.edges.get(key) ?? newEdge(p, key, from, to, e);
    const tone = toneOf(e.outcome);
    edge.counts[tone] += e.count;
    bump(edge.outcomes, e.outcome, e.count);
    edge.count += e.count;
    edge.last = Math.max(edge.last, e.last);
    p.totals[tone] += e.count;
    p.messages += e.count;
  }
  for (const edge of p.edges.values()) edge.tone = toneFor(edge);
  return p;
}

const nodeOf = (r: AgentRow): PictureNode => ({
  key: r.address,
  label: r.label,
  machine: r.machine ?? THIS_MACHINE,
  team: r.team ?? NO_TEAM,
  agent: r.kind === 'claude-code' ? 'claude-code' : r.agent,
  state: r.state,
  live: true,
  address: r.address,
});

/**
 * A new sessions list over `p` (built from `before`): the dots whose busy or
 * idle state changed, updated in place ([] when nothing drawn changed, e.g.
 * an inbox depth); null when more changed (a session came, went, moved):
 * then rebuild.
 */
export function patchSessions(p: Picture, before: readonly AgentRow[], after: readonly AgentRow[]): string[] | null {
  if (before.length !== after.length) return null;
  const changed: AgentRow[] = [];
  for (let i = 0; i < after.length; i++) {
    const a = before[i]!;
    const b = after[i]!;
    if (a.address !== b.address || a.label !== b.label || a.machine !== b.machine || a.team !== b.team) return null;
    if (a.agent !== b.agent || a.kind !== b.kind) return null;
    if (a.state !== b.state) changed.push(b);
  }
  for (const r of changed) p.nodes.get(r.address)!.state = r.state;
  return changed.map((r) => r.address);
}

/** The list beside the graph: held first, then stopped, then the busiest and newest. */
export function edgeOrder(a: PictureEdge, b: PictureEdge): number {
  return PRECEDENCE.indexOf(a.tone) - PRECEDENCE.indexOf(b.tone) || b.count - a.count || b.last - a.last;
}

/** "12 messages: 2 queued, 8 delivered, 1 held, 1 expired" — History's words for each outcome. */
export function countsText(e: Pick<PictureEdge, 'count' | 'outcomes'>): string {
  const named = [...OUTCOME_ORDER, ...Object.keys(e.outcomes).filter((o) => !OUTCOME_ORDER.includes(o))];
  const parts = named.filter((o) => (e.outcomes[o] ?? 0) > 0).map((o) => `${e.outcomes[o]} ${o}`);
  return `${e.count} message${e.count === 1 ? '' : 's'}: ${parts.join(', ')}`;
}
