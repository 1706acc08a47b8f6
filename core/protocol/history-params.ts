// The params of the history methods (core/history): who may read what, the
// filters a search or a conversation takes, the picture's window, and what
// the person may delete.

import { z } from 'zod';
import { OUTCOMES } from './history.js';
import { Id, Name, Token, UiToken } from './param-atoms.js';

/** History: a session's token reads its own messages only; the UI token reads and deletes all. */
const HistoryAuth = {
  sessionId: Id.optional(),
  token: Token.optional(),
  uiToken: z.string().min(1).max(128).optional(),
};
const HistoryFilter = {
  /** Words to find in the text, summary or names (all must match). */
  text: z.string().min(1).max(1000).optional(),
  /** A session (id or name) on the other side. */
  with: Name.optional(),
  outcome: z.array(z.enum(OUTCOMES)).max(OUTCOMES.length).optional(),
  since: z.number().int().min(0).optional(),
  until: z.number().int().min(0).optional(),
  /** Paging by `seq`: older than (search) or newer than (conversation). */
  before: z.number().int().min(0).optional(),
  after: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(500).default(100),
};
export const HistorySearchParams = z.strictObject({
  ...HistoryAuth,
  ...HistoryFilter,
  /** UI token only: one session's messages. */ session: Name.optional(),
});
export const HistoryConversationParams = z.strictObject({
  ...HistoryAuth,
  ...HistoryFilter,
  /** UI token only: the two sessions (ids or names), either direction. */
  between: z.tuple([Name, Name]).optional(),
  team: Name.optional(),
});
/** The picture: messages of the last `windowMs` counted per sender, receiver and outcome; UI token only. */
export const HISTORY_EDGE_WINDOW_MAX_MS = 7 * 24 * 3_600_000; // a week: beyond it the picture is history, not "recent"
export const HistoryEdgesParams = z.strictObject({
  ...UiToken,
  windowMs: z.number().int().min(1000).max(HISTORY_EDGE_WINDOW_MAX_MS).default(3_600_000),
});
export const HistoryDeleteParams = z.union([
  z.strictObject({ ...UiToken, all: z.literal(true) }),
  z.strictObject({ ...UiToken, between: z.tuple([Name, Name]) }),
]);
