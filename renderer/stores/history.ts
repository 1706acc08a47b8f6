// The history view's store: what is shown (search results, one pair's
// conversation, or one team's), the filters, and the page loaded through the
// bridge's history operations. Other views open it with `open()`, which also
// asks the shell to switch to the History view. Never holds more than the
// pages the person asked for (the hub caps each page).

import { createStore, type StoreApi } from 'zustand/vanilla';
import type { HistoryMessage, Outcome } from '../../core/protocol/history.js';
import { BridgeError, type Bridge } from '../bridge/bridge.js';

export type HistoryTarget =
  { kind: 'search' } | { kind: 'pair'; a: string; b: string } | { kind: 'team'; team: string };

/** Time windows the filter offers, as milliseconds back from now (0: any time). */
export const SINCE_WINDOWS = { any: 0, '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 } as const;
export type SinceWindow = keyof typeof SINCE_WINDOWS;

export interface HistoryFilters {
  text: string;
  /** A session name: search shows its messages; a conversation ignores it. */
  session: string;
  outcome: Outcome | '';
  since: SinceWindow;
}

export interface HistoryState {
  target: HistoryTarget;
  filters: HistoryFilters;
  messages: HistoryMessage[];
  /** The cursor for the next page, or null when everything is shown. */
  next: number | null;
  loading: boolean;
  error: string | null;
  /** Counts requests to show the History view (the shell switches to it when this changes). */
  shown: number;
  load(): Promise<void>;
  more(): Promise<void>;
  open(target: HistoryTarget, filters?: Partial<HistoryFilters>): Promise<void>;
  setFilters(patch: Partial<HistoryFilters>): Promise<void>;
}

const PAGE = 100; // messages per page; the hub caps a page at LIMITS.historyQueryRows
export const NO_FILTERS: HistoryFilters = { text: '', session: '', outcome: '', since: 'any' };

export function createHistoryStore(bridge: Bridge, now: () => number = Date.now): StoreApi<HistoryState> {
  let generation = 0; // a newer load wins over an older answer that arrives late
  const params = (s: HistoryState, cursor: number | null): Record<string, unknown> => {
    const f = s.filters;
    const since = SINCE_WINDOWS[f.since];
    const common = {
      limit: PAGE,
      ...(f.text.trim() !== '' ? { text: f.text.trim() } : {}),
      ...(f.outcome !== '' ? { outcome: [f.outcome] } : {}),
      ...(since > 0 ? { since: Math.max(0, now() - since) } : {}),
    };
    const t = s.target;
    // `with` matches the session by name or id on either side (`session` is a scope by id only).
    if (t.kind === 'search')
      return {
        ...common,
        ...(f.session.trim() !== '' ? { with: f.session.trim() } : {}),
        ...(cursor !== null ? { before: cursor } : {}),
      };
    return {
      ...common,
      ...(t.kind === 'pair' ? { between: [t.a, t.b] } : { team: t.team }),
      ...(cursor !== null ? { after: cursor } : {}),
    };
  };
  const fetchPage = async (
    s: HistoryState,
    cursor: number | null,
  ): Promise<{ messages: HistoryMessage[]; next: number | null }> =>
    s.target.kind === 'search'
      ? bridge.call('history.search', params(s, cursor))
      : bridge.call('history.conversation', params(s, cursor));

  const store = createStore<HistoryState>((set, get) => ({
    target: { kind: 'search' },
    filters: NO_FILTERS,
    messages: [],
    next: null,
    loading: true,
    error: null,
    shown: 0,
    async load() {
      const gen = ++generation;
      set({ loading: true });
      try {
        const r = await fetchPage(get(), null);
        if (gen === generation) set({ messages: r.messages, next: r.next, loading: false, error: null });
      } catch (err) {
        if (gen === generation) set({ loading: false, error: describe(err) });
      }
    },
    async more() {
      const s = get();
      if (s.next === null) return;
      const gen = generation;
      try {
        const r = await fetchPage(s, s.next);
        if (gen === generation) set((cur) => ({ messages: [...cur.messages, ...r.messages], next: r.next }));
      } catch (err) {
        if (gen === generation) set({ error: describe(err) });
      }
    },
    async open(target, filters = {}) {
      set((s) => ({ target, filters: { ...NO_FILTERS, ...filters }, messages: [], next: null, shown: s.shown + 1 }));
      await get().load();
    },
    async setFilters(patch) {
      set((s) => ({ filters: { ...s.filters, ...patch } }));
      await get().load();
    },
  }));
  return store;
}

/** An error as a person reads it; history being off points to where it says why. */
function describe(err: unknown): string {
  if (err instanceof BridgeError && err.reason === 'history_off')
    return 'history is off on this hub (Preferences → Message history says why)';
  return err instanceof Error ? err.message : String(err);
}
