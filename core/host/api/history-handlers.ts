// The history methods. A session's credentials read only messages that
// session sent or received (the scope is forced here, never taken from the
// params); the UI token reads everything, deletes and sees the status.
// Neither credential: unauthorized. History off: `history_off`, never a crash.

import { HubError } from '../../protocol/errors.js';
import type { HistoryPage, MethodParams } from '../../protocol/methods.js';
import type { HistoryMessage, HistoryQuery } from '../../protocol/history.js';
import type { Hub } from '../hub.js';
import type { Caller, Handler } from './dispatch.js';

type HistoryMethod = 'history.search' | 'history.conversation' | 'history.delete' | 'history.edges' | 'history.status';
export type HistoryHandlers = { [M in HistoryMethod]: Handler<M> };

export function createHistoryHandlers(hub: Hub): HistoryHandlers {
  /** The caller's scope: null for the UI token (everything), else its own session id. */
  const scopeOf = (caller: Caller<'reader'>): string | null => {
    if (caller.ui) return null;
    if (caller.session === undefined) throw new HubError('unauthorized');
    return caller.session.id;
  };
  const page = (q: HistoryQuery): HistoryPage => {
    const limit = Math.min(q.limit, hub.limits.historyQueryRows);
    const messages: HistoryMessage[] = hub.history.query({ ...q, limit });
    return { messages, next: messages.length === limit ? messages[messages.length - 1]!.seq : null };
  };
  const filters = (
    p: MethodParams<'history.search'> | MethodParams<'history.conversation'>,
  ): Omit<HistoryQuery, 'order'> => ({
    ...(p.text !== undefined ? { text: p.text } : {}),
    ...(p.with !== undefined ? { with: p.with } : {}),
    ...(p.outcome !== undefined ? { outcome: p.outcome } : {}),
    ...(p.since !== undefined ? { since: p.since } : {}),
    ...(p.until !== undefined ? { until: p.until } : {}),
    ...(p.before !== undefined ? { before: p.before } : {}),
    ...(p.after !== undefined ? { after: p.after } : {}),
    limit: p.limit,
  });

  return {
    'history.search': (p, caller) => {
      const scope = scopeOf(caller);
      if (scope !== null && p.session !== undefined) throw new HubError('unauthorized');
      const own = scope ?? p.session;
      return page({ ...filters(p), ...(own !== undefined ? { scope: own } : {}), order: 'newest' });
    },

    'history.conversation': (p, caller) => {
      const scope = scopeOf(caller);
      if (scope !== null && p.between !== undefined) throw new HubError('unauthorized');
      if (p.with === undefined && p.between === undefined && p.team === undefined)
        throw new HubError('invalid_params', { issues: ['give "with", "between" or "team"'] });
      return page({
        ...filters(p),
        ...(scope !== null ? { scope } : {}),
        ...(p.between !== undefined ? { between: p.between } : {}),
        ...(p.team !== undefined ? { team: p.team } : {}),
        order: 'oldest',
      });
    },

    'history.delete': (p) => {
      return hub.history.delete('all' in p ? { all: true } : { between: p.between });
    },

    'history.edges': (p) => {
      const since = hub.clock.now() - p.windowMs;
      const { rows, cursor } = hub.history.edges(since, hub.limits.historyEdgeRows);
      return {
        since,
        edges: rows.map((e) => ({ ...e, to: { ...e.to, address: hub.addressOf(e.to.sessionId) } })),
        truncated: rows.length === hub.limits.historyEdgeRows,
        cursor,
      };
    },

    'history.status': () => {
      const admin = hub.adminSettings();
      const stats = hub.history.stats() ?? { messages: 0, events: 0, bytes: 0 };
      return {
        ...hub.history.status(),
        ...stats,
        retention: { days: admin.historyRetentionDays.value, maxMegabytes: admin.historyMaxMegabytes.value },
      };
    },
  };
}
