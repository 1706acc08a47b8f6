// One vanilla zustand store per domain, fed by the bridge: each loads on
// start, reloads when a matching hub event arrives (coalesced), and keeps
// the last error to show. Testable without React.

import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  AgentRow,
  ConfirmationView,
  HeldView,
  MethodResults,
  SubscriptionView,
  TaskView,
} from '../../core/protocol/methods.js';
import type { Bridge, ConnectionState, HubEvent } from '../bridge/bridge.js';
import type { ActivityEntry } from '../../core/protocol/events.js';

export type { ActivityEntry };
import { createPictureStore, type PictureState } from './picture.js';
import { createHistoryStore, type HistoryState } from './history.js';

export interface Loadable<T> {
  data: T;
  loading: boolean;
  error: string | null;
  load(): Promise<void>;
}

function loadable<T>(initial: T, fetcher: () => Promise<T>): StoreApi<Loadable<T>> {
  const store = createStore<Loadable<T>>((set) => ({
    data: initial,
    loading: true,
    error: null,
    async load() {
      try {
        const data = await fetcher();
        set({ data, loading: false, error: null });
      } catch (err) {
        set({ loading: false, error: err instanceof Error ? err.message : String(err) });
      }
    },
  }));
  return store;
}

export interface TeamsData {
  teams: Array<{ name: string; members: number; createdAt: number }>;
  selected: string | null;
  view: {
    config: { name: string; members: Array<{ name: string; agentType?: string; cwd?: string }> };
    inboxes: Array<{ member: string; depth: number; problem?: string }>;
  } | null;
  tasks: TaskView[];
}

export interface Stores {
  connection: StoreApi<{ state: ConnectionState }>;
  sessions: StoreApi<Loadable<AgentRow[]>>;
  held: StoreApi<Loadable<HeldView[]>>;
  confirmations: StoreApi<Loadable<{ items: ConfirmationView[]; relay: MethodResults['confirmations.list']['relay'] }>>;
  subscriptions: StoreApi<Loadable<SubscriptionView[]>>;
  activity: StoreApi<Loadable<{ entries: ActivityEntry[]; notices: Array<{ id: string; at: number; text: string }> }>>;
  settings: StoreApi<
    Loadable<{
      effective: Record<string, unknown>;
      problems: Array<{ file: string; key: string | null; message: string }>;
      paused: boolean;
      pausedRefused: number;
      userFile: string | null;
    }>
  >;
  teams: StoreApi<Loadable<TeamsData> & { select(team: string | null): Promise<void> }>;
  /** The item a notification asked to show (Approvals highlights it). */
  focus: StoreApi<{ itemId: string | null }>;
  /** The picture's edges; loads only while the Picture view shows. */
  picture: StoreApi<PictureState>;
  /** Search results and conversations; loaded when the History view shows. */
  history: StoreApi<HistoryState>;
  bridge: Bridge;
}

/** Which stores reload on each pushed event (keys checked against the event types). */
const RELOADS: Partial<
  Record<HubEvent['type'], Array<keyof Omit<Stores, 'connection' | 'bridge' | 'focus' | 'picture' | 'history'>>>
> = {
  'sessions.changed': ['sessions'],
  'held.changed': ['held'],
  'confirmations.changed': ['confirmations'],
  'subscriptions.changed': ['subscriptions'],
  'settings.changed': ['settings', 'held', 'sessions'],
  'inbound.paused': ['settings'],
  'teams.changed': ['teams'],
  activity: ['activity'],
  'user.notice': ['activity'],
  resync: ['sessions', 'held', 'confirmations', 'subscriptions', 'activity', 'settings', 'teams'],
};

export function createStores(bridge: Bridge): Stores {
  const connection = createStore<{ state: ConnectionState }>(() => ({ state: 'connecting' }));
  const sessions = loadable<AgentRow[]>([], async () => (await bridge.call('sessions.list')).rows);
  const held = loadable<HeldView[]>([], async () => (await bridge.call('held.list')).items);
  const noRelay: MethodResults['confirmations.list']['relay'] = {
    configured: false,
    connected: false,
    machine: null,
    mode: null,
  };
  const confirmations = loadable({ items: [] as ConfirmationView[], relay: noRelay }, async () => {
    const r = await bridge.call('confirmations.list');
    return { items: r?.items ?? [], relay: r?.relay ?? noRelay };
  });
  const subscriptions = loadable<SubscriptionView[]>([], async () => (await bridge.call('subscriptions.list')).items);
  const activity = loadable(
    { entries: [] as ActivityEntry[], notices: [] as Array<{ id: string; at: number; text: string }> },
    async () => {
      const r = await bridge.call('activity.list');
      return {
        entries: r.entries.slice().reverse(),
        notices: r.notices.slice().reverse(),
      };
    },
  );
  const settings = loadable(
    {
      effective: {},
      problems: [] as Array<{ file: string; key: string | null; message: string }>,
      paused: false,
      pausedRefused: 0,
      userFile: null as string | null,
    },
    async () => {
      const r = await bridge.call('settings.effective');
      return {
        effective: r.effective as Record<string, unknown>,
        problems: r.problems,
        paused: r.paused,
        pausedRefused: r.pausedRefused ?? 0,
        userFile: r.userFile ?? null,
      };
    },
  );
  const teamsBase = loadable<TeamsData>({ teams: [], selected: null, view: null, tasks: [] }, async () => {
    const current = teams.getState().data.selected;
    const list = (await bridge.call('teams.list')).teams;
    const selected = current ?? list[0]?.name ?? null;
    if (selected === null) return { teams: list, selected: null, view: null, tasks: [] };
    const [view, tasks] = await Promise.all([
      bridge.call('teams.show', { team: selected }).catch(() => null),
      bridge.call('tasks.list', { list: selected }),
    ]);
    return { teams: list, selected, view: view as TeamsData['view'], tasks: tasks.tasks };
  });
  const teams = teamsBase as Stores['teams'];
  teams.setState({
    async select(team: string | null) {
      teams.setState((s) => ({ data: { ...s.data, selected: team } }));
      await teams.getState().load();
    },
  });

  const focus = createStore<{ itemId: string | null }>(() => ({ itemId: null }));
  const stores: Stores = {
    connection,
    sessions,
    held,
    confirmations,
    subscriptions,
    activity,
    settings,
    teams,
    focus,
    picture: createPictureStore(bridge),
    history: createHistoryStore(bridge),
    bridge,
  };
  const pending = new Set<keyof Omit<Stores, 'connection' | 'bridge' | 'focus' | 'picture' | 'history'>>();
  let scheduled = false;
  bridge.onState((state) => connection.setState({ state }));
  bridge.onEvent((e: HubEvent) => {
    for (const name of RELOADS[e.type] ?? []) pending.add(name);
    if (scheduled || pending.size === 0) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      const names = [...pending];
      pending.clear();
      for (const n of names) void stores[n].getState().load();
    });
  });
  return stores;
}
