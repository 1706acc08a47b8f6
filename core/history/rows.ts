// The read side of history.sqlite without the database: the WHERE clause of
// a message query (with its arguments, never spliced into the SQL) and the
// database's rows as the protocol's shapes. Pure; store.ts runs the SQL.

import type { HistoryEdge, HistoryEvent, HistoryMessage, HistoryQuery } from '../protocol/history.js';

export type Row = Record<string, string | number | null>;

/** Words of one full-text query. */
export const QUERY_TERMS = 16;

/** Words of the user's text as quoted FTS5 terms (all must match); null when there is no word. */
export function ftsQuery(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}_]+/gu)?.slice(0, QUERY_TERMS) ?? [];
  return words.length === 0 ? null : words.map((w) => `"${w}"`).join(' ');
}

/** The conditions on `messages m` a query asks for, and their arguments in order; null when nothing can match. */
export function messageFilter(q: HistoryQuery): { where: string[]; args: Array<string | number> } | null {
  const where: string[] = [];
  const args: Array<string | number> = [];
  const side = (col: 'sender' | 'receiver', who: string): string => {
    args.push(who, who);
    return `(m.${col}_session = ? OR m.${col}_name = ?)`;
  };
  if (q.text !== undefined) {
    const match = ftsQuery(q.text);
    if (match === null) return null;
    where.push('m.seq IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?)');
    args.push(match);
  }
  if (q.scope !== undefined) {
    if (q.with !== undefined) {
      args.push(q.scope);
      const a = `(m.sender_session = ? AND ${side('receiver', q.with)})`;
      args.push(q.scope);
      where.push(`(${a} OR (m.receiver_session = ? AND ${side('sender', q.with)}))`);
    } else {
      where.push('(m.sender_session = ? OR m.receiver_session = ?)');
      args.push(q.scope, q.scope);
    }
  } else if (q.with !== undefined) {
    where.push(`(${side('sender', q.with)} OR ${side('receiver', q.with)})`);
  }
  if (q.between !== undefined) {
    const [a, b] = q.between;
    where.push(
      `((${side('sender', a)} AND ${side('receiver', b)}) OR (${side('sender', b)} AND ${side('receiver', a)}))`,
    );
  }
  if (q.team !== undefined) {
    where.push('(m.sender_team = ? OR m.receiver_team = ?)');
    args.push(q.team, q.team);
  }
  if (q.outcome !== undefined && q.outcome.length > 0) {
    where.push(`m.outcome IN (${q.outcome.map(() => '?').join(',')})`);
    args.push(...q.outcome);
  }
  const bound = (sql: string, v: number | undefined): void => {
    if (v === undefined) return;
    where.push(sql);
    args.push(v);
  };
  bound('m.at >= ?', q.since);
  bound('m.at <= ?', q.until);
  bound('m.seq < ?', q.before);
  bound('m.seq > ?', q.after);
  return { where, args };
}

const str = (v: string | number | null | undefined): string | null =>
  v === null || v === undefined ? null : String(v);

/** The sender and receiver columns, the same in every row that has them. */
const senderOf = (r: Row): HistoryMessage['sender'] => ({
  sessionId: str(r.sender_session),
  name: str(r.sender_name),
  address: String(r.sender_address),
  team: str(r.sender_team),
});
const receiverOf = (r: Row): HistoryMessage['receiver'] => ({
  sessionId: String(r.receiver_session),
  name: String(r.receiver_name),
  team: str(r.receiver_team),
});

/** A row of the edges query (per sender, receiver and outcome). */
export function edgeOf(r: Row): HistoryEdge {
  return {
    from: senderOf(r),
    to: receiverOf(r),
    outcome: String(r.outcome),
    count: Number(r.n),
    last: Number(r.last),
  };
}

export function eventOf(e: Row): HistoryEvent {
  return {
    at: Number(e.at),
    kind: e.kind === 'decision' ? 'decision' : 'receipt',
    status: String(e.status),
    reason: String(e.reason),
  };
}

/** A row of `messages` with its trail of events. */
export function messageOf(r: Row, trail: HistoryEvent[]): HistoryMessage {
  return {
    seq: Number(r.seq),
    msgId: String(r.msg_id),
    at: Number(r.at),
    sender: senderOf(r),
    receiver: receiverOf(r),
    summary: str(r.summary),
    text: String(r.text),
    outcome: String(r.outcome),
    reason: String(r.reason),
    outcomeAt: Number(r.outcome_at),
    trail,
  };
}
