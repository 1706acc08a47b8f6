// The picture's counts for the chosen window, live. They are fetched
// (history.edges) only when a picture view opens, the window changes, the
// bridge reconnects (resync), once a minute (the window slides), and when a
// move cannot be placed; between fetches each `history.moved` event is
// applied in place (features/picture/counts.ts). A move arriving while a
// fetch is out is applied and kept: the answer says the last move it
// includes (its cursor) and the kept ones after it are applied again on top,
// so none counts twice or goes missing. Fetches are coalesced: one in
// flight, at most one more after it, no closer than RELOAD_GAP_MS apart.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { BridgeError, type Bridge, type HubEvent } from '../bridge/bridge.js';
import { applyMove, countsOf, type CountMove, type Counts } from '../features/picture/counts.js';

/** The windows a person can pick; the first is the default. */
export const PICTURE_WINDOWS = [
  { ms: 3_600_000, text: 'Last hour' },
  { ms: 15 * 60_000, text: 'Last 15 minutes' },
  { ms: 24 * 3_600_000, text: 'Last 24 hours' },
] as const;

const REFRESH_MS = 60_000; // with nothing moving, lines older than the window still leave within a minute
const RELOAD_GAP_MS = 250; // a lone fallback is fetched at once; a stream of them at most four times a second
const KEPT_MOVES = 50_000; // moves kept while a fetch is out; beyond it the answer is fetched again

const empty = (): Counts => ({
  rows: new Map(),
  since: 0,
  truncated: false,
  cursor: { epoch: '', seq: 0 },
});

export interface PictureState {
  /** The live counts (mutated in place by moves; replaced by each fetch). */
  counts: Counts;
  /** Bumped each time `counts` is replaced: a view rebuilds, rather than patches, then. */
  version: number;
  loading: boolean;
  error: string | null;
  /** Why there is nothing to count (history is off), or null. */
  off: string | null;
  windowMs: number;
  /** performance.now() when the oldest change not yet drawn arrived (mutable, never re-renders; the view measures each update from it). */
  timing: { eventAt: number | null };
  load(): Promise<void>;
  setWindow(ms: number): Promise<void>;
  /** A view opened: loads and follows events until the returned disposer runs. */
  activate(): () => void;
  /** The moves applied since the last drain, and the version they apply to (the view patches with them). */
  drain(): { version: number; moves: CountMove[] };
  /** Called after every applied move or replaced counts (the view schedules its frame). */
  onChange(listener: () => void): () => void;
}

export function createPictureStore(bridge: Bridge): StoreApi<PictureState> {
  let running: Promise<void> | null = null;
  let again = false;
  let active = 0;
  let moves: CountMove[] = [];
  /** Moves that arrived while a fetch was out (null: none is); replayed over its answer. */
  let kept: unknown[] | null = null;
  /** The live counts could not take a move while a fetch was out: wait for its answer (and the replay). */
  let stale = false;
  const listeners = new Set<() => void>();
  const changed = (): void => listeners.forEach((l) => l());

  const replace = (counts: Counts, patch: Partial<PictureState> = {}): void => {
    moves = [];
    stale = false;
    store.setState((s: PictureState) => ({ counts, version: s.version + 1, ...patch }));
    changed();
  };
  const fetchOnce = async (): Promise<void> => {
    kept = [];
    try {
      const view = await bridge.call('picture.edges', { windowMs: store.getState().windowMs });
      const counts = countsOf(view);
      const replay = kept;
      kept = null;
      for (const m of replay) if (applyMove(counts, m).kind === 'refetch') again = true;
      replace(counts, { loading: false, error: null, off: null });
    } catch (err) {
      kept = null;
      if (err instanceof BridgeError && err.reason === 'history_off')
        replace(empty(), {
          loading: false,
          error: null,
          off: 'The message history is off on this hub, so there are no messages to draw (Preferences → History).',
        });
      else store.setState({ loading: false, error: err instanceof Error ? err.message : String(err) });
    }
  };
  const store: StoreApi<PictureState> = createStore<PictureState>(() => ({
    counts: empty(),
    version: 0,
    loading: true,
    error: null,
    off: null,
    windowMs: PICTURE_WINDOWS[0].ms,
    timing: { eventAt: null },
    load() {
      if (running !== null) {
        again = true;
        return running;
      }
      running = (async () => {
        do {
          again = false;
          const started = performance.now();
          await fetchOnce();
          if (again)
            await new Promise((r) => setTimeout(r, Math.max(0, RELOAD_GAP_MS - (performance.now() - started))));
        } while (again);
        running = null;
      })();
      return running;
    },
    async setWindow(ms) {
      store.setState({ windowMs: ms });
      await store.getState().load();
    },
    activate() {
      active++;
      void store.getState().load();
      const refresh = setInterval(() => void store.getState().load(), REFRESH_MS);
      return () => {
        clearInterval(refresh);
        active--;
      };
    },
    drain() {
      const out: { version: number; moves: CountMove[] } = { version: store.getState().version, moves };
      moves = [];
      return out;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  }));
  const refetch = (): void => {
    store.getState().timing.eventAt ??= performance.now();
    void store.getState().load();
  };
  bridge.onEvent((e: HubEvent) => {
    if (active === 0) return;
    if (e.type === 'resync') return refetch();
    if (e.type !== 'history.moved') return;
    const timing = store.getState().timing;
    if (kept !== null) {
      if (kept.length < KEPT_MOVES) kept.push(e.move);
      else again = true;
      if (stale) return void (timing.eventAt ??= performance.now());
    }
    const applied = applyMove(store.getState().counts, e.move);
    if (applied.kind === 'refetch') {
      if (kept === null) return refetch();
      stale = true; // the answer on its way is replayed with this move
      return void (timing.eventAt ??= performance.now());
    }
    if (applied.kind === 'skip') return;
    timing.eventAt ??= performance.now();
    moves.push(applied.move);
    changed();
  });
  return store;
}
