// The history's data shapes: the records the hub queues (cheap to build on
// the send path, applied later in one transaction) and what queries return.
// Types only, plus the outcome vocabulary; no I/O.

/** Where a message stands: its route result, then the latest receipt. */
export const OUTCOMES = [
  'queued',
  'delivered',
  'held',
  'approved',
  'denied',
  'expired',
  'refused',
  'dropped',
  'failed',
  'unknown',
  'sent',
  'confirm-denied',
  'confirm-expired',
  'stored',
] as const;
// 'unknown': it left this hub but no answer came (a relay send that timed out); a later receipt settles it.
// 'failed': the hub could not store it (its reason: storage_full, …) and answered the sender with that error.
// 'stored': the relay keeps it for a machine that is away; a later receipt settles it (delivered, expired).
// 'sent': it left this hub (a stock Claude Code session's socket, a team mailbox, another program's socket); confirm-*: a send to another machine the user did not allow.
export type Outcome = (typeof OUTCOMES)[number];

export type HistoryRecord =
  /** A message entering admission (text is the body until it is delivered). */
  | {
      t: 'm';
      msgId: string;
      at: number;
      senderSession: string | null;
      senderName: string | null;
      senderAddress: string;
      senderTeam: string | null;
      receiverSession: string;
      receiverName: string;
      receiverTeam: string | null;
      summary: string | null;
      text: string;
    }
  /** The framed text as it was put in the receiver's inbox. */
  | { t: 'x'; msgId: string; text: string }
  /** The admission result (queued, held, refused, dropped). */
  | { t: 'o'; msgId: string; at: number; status: string; reason: string }
  /** A receipt or a policy decision (the hub's activity entries). */
  | {
      t: 'e';
      at: number;
      kind: 'receipt' | 'decision';
      status: string;
      msgId: string;
      sender: string;
      receiver: string;
      reason: string;
    };

export interface HistoryEvent {
  at: number;
  kind: 'receipt' | 'decision';
  status: string;
  reason: string;
}

export interface HistoryMessage {
  /** Insertion order: stable, increasing, usable as a cursor. */
  seq: number;
  msgId: string;
  at: number;
  sender: { sessionId: string | null; name: string | null; address: string; team: string | null };
  receiver: { sessionId: string; name: string; team: string | null };
  summary: string | null;
  text: string;
  outcome: string;
  reason: string;
  outcomeAt: number;
  /** Its decisions and receipts, oldest first. */
  trail: HistoryEvent[];
}

/** Messages in a window counted per sender, receiver and outcome: one edge of the picture. */
export interface HistoryEdge {
  from: { sessionId: string | null; name: string | null; address: string; team: string | null };
  to: { sessionId: string; name: string; team: string | null };
  outcome: string;
  count: number;
  /** The newest message's time. */
  last: number;
}

/**
 * One change to the picture's counts, pushed as a `history.moved`
 * event the moment the hub records it: a message entered the history
 * (`previous` null) or its outcome changed from `previous` to `outcome`. `seq`
 * counts the moves of this hub run (`epoch`) with no gaps, and `history.edges`
 * answers with the last one it includes, so a user interface applies each
 * move exactly once. `reset`: the counts changed in a way no single move
 * says (a deleted conversation, a lost batch, retention, a receipt for a
 * message this run does not know) — fetch `history.edges` again.
 */
export type HistoryMove = { epoch: string; seq: number } & (
  | {
      kind: 'count';
      msgId: string;
      /** The message's time (what the picture's window compares). */
      at: number;
      from: HistoryEdge['from'];
      to: HistoryEdge['to'];
      outcome: string;
      previous: string | null;
    }
  | { kind: 'reset' }
);

/** Where `history.edges` stands in the moves: every move up to `seq` of `epoch` is in its counts. */
export interface HistoryCursor {
  epoch: string;
  seq: number;
}

/** One query; every field narrows. Sessions are matched by id or by name. */
export interface HistoryQuery {
  /** Full-text search over text, summary and names (words, all must match). */
  text?: string;
  /** Only messages this session sent or received (a session's own scope: ids only). */
  scope?: string;
  /** Messages with this session on either side (or, with `scope`, on the other side). */
  with?: string;
  /** Messages between these two sessions, either direction. */
  between?: readonly [string, string];
  /** Messages to or from a member of this team. */
  team?: string;
  outcome?: readonly string[];
  since?: number;
  until?: number;
  /** Only messages with a smaller seq (newest-first paging) or larger (in-order paging). */
  before?: number;
  after?: number;
  limit: number;
  /** `newest` (search results) or `oldest` (a conversation, in order). */
  order: 'newest' | 'oldest';
}

export interface RetentionPolicy {
  /** Messages and events older than this are removed. */
  maxAgeMs: number;
  /** Live database pages above this are freed, oldest messages first. */
  maxBytes: number;
}

export interface HistoryStats {
  messages: number;
  events: number;
  bytes: number;
}

export interface HistoryStatus {
  enabled: boolean;
  /** Why it is off (null while on). */
  reason: string | null;
  file: string;
  queued: number;
  written: number;
  /** Records not kept because the queue was full, and since when (wall clock). */
  gap: { records: number; since: number | null };
  /** The last write or retention failure (the hub keeps running). */
  lastError: string | null;
  /** Why history writes nothing for now (its disk is short of the reserve messages need), or null. */
  paused: string | null;
  /** Event-loop milliseconds spent writing batches since the hub started. */
  writeMs: number;
}
