// The picture's edges (history.edges over the bridge) for the chosen window.
// It loads only while a picture view is open (and once a minute there, as
// the window slides), and reloads when a message
// moves (activity, held.changed, resync), coalesced: one request in flight,
// at most one more after it however many events arrive meanwhile, and no
// closer than RELOAD_GAP_MS to the one before (a busy hub is not queried flat out).
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { HistoryEdgesView } from '../../core/protocol/methods.js';
import { BridgeError, type Bridge, type HubEvent } from '../bridge/bridge.js';

/** The windows a person can pick; the first is the default. */
export const PICTURE_WINDOWS = [
  { ms: 3_600_000, text: 'Last hour' },
  { ms: 15 * 60_000, text: 'Last 15 minutes' },
  { ms: 24 * 3_600_000, text: 'Last 24 hours' },
] as const;

const REFRESH_MS = 60_000; // with nothing moving, lines older than the window still leave within a minute
const RELOAD_GAP_MS = 250; // a lone event is fetched at once; a stream of them at most four times a second
const MOVES: ReadonlySet<string> = new Set(['activity', 'held.changed', 'resync']);

export interface PictureState {
  data: HistoryEdgesView;
  loading: boolean;
  error: string | null;
  /** Why there is nothing to count (history is off), or null. */
  off: string | null;
  windowMs: number;
  /** performance.now() when the oldest event not yet drawn arrived (mutable, never re-renders; the view measures each update from it). */
  timing: { eventAt: number | null };
  load(): Promise<void>;
  setWindow(ms: number): Promise<void>;
  /** A view opened: loads and follows events until the returned disposer runs. */
  activate(): () => void;
}

export function createPictureStore(bridge: Bridge): StoreApi<PictureState> {
  let running: Promise<void> | null = null;
  let again = false;
  let active = 0;
  const fetchOnce = async (): Promise<void> => {
    try {
      const data = await bridge.call('picture.edges', { windowMs: store.getState().windowMs });
      store.setState({ data, loading: false, error: null, off: null });
    } catch (err) {
      if (err instanceof BridgeError && err.reason === 'history_off')
        store.setState({
          loading: false,
          error: null,
          off: 'The message history is off on this hub, so there are no messages to draw (Preferences → History).',
          data: { since: 0, edges: [], truncated: false },
        });
      else store.setState({ loading: false, error: err instanceof Error ? err.message : String(err) });
    }
  };
  const store = createStore<PictureState>(() => ({
    data: { since: 0, edges: [], truncated: false },
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
  }));
  bridge.onEvent((e: HubEvent) => {
    if (active === 0 || !MOVES.has(e.type)) return;
    const timing = store.getState().timing;
    timing.eventAt ??= performance.now();
    void store.getState().load();
  });
  return store;
}
