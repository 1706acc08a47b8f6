// The Hub composition: endpoint, journal, settings, sessions, inboxes,
// admission (throttle, policy, held messages), idle subscriptions, events,
// the hub socket and one inbound socket per hosted session. Everything from
// outside (paths, clock, logger, limits, the managed settings file) comes in
// through HubOptions. Start fails closed on an unsafe runtime directory
// (EndpointError), a live hub (HubRunningError), or a state directory or
// journal it cannot safely own (JournalError: locked by another hub, a
// link, not ours, unreadable); it never starts with an empty journal.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type net from 'node:net';
import path from 'node:path';
import { Mailboxes } from '../delivery/mailboxes.js';
import { IdleWatch } from '../idle/idle.js';
import { Waker } from '../wake/wake.js';
import { Journal, JournalError } from '../journal/journal.js';
import { lockStateDir, type StateLock } from '../journal/state-lock.js';
import { withLimits, type Limits } from '../protocol/limits.js';
import type { HubInfo, InboxItem } from '../protocol/methods.js';
import { sameProcessAlive } from '../registry/proc.js';
import { Pins } from '../registry/resolution.js';
import { persisted, type SessionRecord } from '../registry/session.js';
import { inboundHandler } from '../messaging/inbound-socket.js';
import type { InboundHandler } from '../transport/session-socket.js';
import { SessionTable } from '../registry/table.js';
import type { EffectiveSettings } from '../settings/effective.js';
import { defaultManagedPath, SettingsStore } from '../settings/store.js';
import { StockInterop } from '../stock/stock.js';
import { RemoteMachines } from '../relay/remote-machines.js';
import { RootWatcher } from '../teams/watch.js';
import { Teams } from '../teams/teams.js';
import { Admission } from '../messaging/admission.js';
import { createRecorder } from '../messaging/history-hook.js';
import type { HistoryRecorder } from '../history/recorder.js';
import {
  currentEndpointEnv,
  ensurePrivateDir,
  resolveEndpoint,
  type EndpointEnv,
  type EndpointPaths,
} from '../transport/endpoint.js';
import { Emitter } from '../kit/emitter.js';
import { Ring } from '../kit/ring.js';
import { systemClock, type Clock } from '../kit/clock.js';
import type { ActivityEntry, HubEvent, UserNotice } from '../protocol/events.js';
import { bindHubSocket, HubRunningError } from '../transport/hub-lock.js';
import { routeIdleNotice } from '../messaging/idle-notices.js';
import { restoreSessions, retireSession } from '../sessions/lifecycle.js';
import { Reclaimer } from '../kit/reclaim.js';
import { trimDormant, type EndKind } from '../sessions/retention.js';
import { silentLogger, type Logger } from '../kit/logger.js';
import { RpcServer, type Dispatch, type RpcConnection } from '../transport/rpc-server.js';

export interface HubOptions {
  endpoint?: EndpointEnv;
  limits?: Partial<Limits>;
  clock?: Clock;
  logger?: Logger;
  version?: string;
  /** The system-wide managed settings file (default: the OS location). */
  managedSettingsPath?: string;
  /** Claude Code's config root when no setting names one (default $CLAUDE_CONFIG_DIR or ~/.claude). */
  claudeHome?: string;
  /** false turns the history store off (benchmarks); default on where node:sqlite exists. */
  history?: boolean;
}

/** Builds the method dispatcher for a hub (host/api/handlers.ts createApi); passed in so that hub.ts never imports the API layer above it. */
export type ApiFactory = (hub: Hub) => Dispatch;

const ACTIVITY_KEPT = 500; // the Activity view's memory
const USER_NOTICES_KEPT = 100;

export class Hub {
  readonly paths: EndpointPaths;
  readonly limits: Limits;
  readonly clock: Clock;
  readonly log: Logger;
  readonly version: string;
  readonly table = new SessionTable();
  readonly pins = new Pins();
  readonly mailboxes: Mailboxes;
  readonly journal: Journal;
  readonly settings: SettingsStore;
  readonly admission: Admission;
  readonly events: Emitter<HubEvent>;
  readonly idle: IdleWatch;
  /** Searchable history of messages, receipts and decisions (core/history). */
  readonly history: HistoryRecorder;
  readonly wake: Waker = new Waker(this);
  readonly startedAt: number;
  /** Claude Code's teams and tasks, under the configured root. */
  teams!: Teams;
  /** Stock Claude Code sessions: discovery, reply sockets, publishing (under the same root as teams). */
  stock!: StockInterop;
  /** Other machines: the relay (when configured) and isolatePeerMachines confirmations. */
  readonly remote: RemoteMachines = new RemoteMachines(this);
  #teamsWatcher: RootWatcher | undefined;
  readonly #defaultClaudeHome: string;
  /** Grants user-interface decisions (approve, deny); printed at start, never written to disk. */
  readonly uiToken = randomBytes(24).toString('hex');
  /** The loopback port of the web UI while one serves this hub (set by web.ts); hub.info shows it, never the token. */
  uiPort: number | undefined = undefined;
  /** Connections that asked for pushes, per session. */
  readonly subscribers = new Map<string, Set<RpcConnection>>();
  readonly uiConnections = new Set<RpcConnection>();
  /** Inbound socket servers of live sessions. */
  readonly servers = new Map<string, net.Server>();
  readonly activity = new Ring<ActivityEntry>(ACTIVITY_KEPT);
  /** Gives memory back after a burst of requests or a storm of ended sessions (reclaim.ts). */
  readonly reclaimer: Reclaimer;
  readonly userNotices = new Ring<UserNotice>(USER_NOTICES_KEPT);
  readonly #rpc: RpcServer;
  /** Runs a method with already validated params, as the given connection (used by the web bridge). */
  readonly dispatch: Dispatch;
  #sweep: NodeJS.Timeout | undefined;
  #stateLock: StateLock | undefined;
  #closed = false;
  /** Requests that arrive while journaled sessions are being restored wait for it. */
  #restored = false;
  #markRestored: () => void = () => undefined;
  readonly #whenRestored = new Promise<void>((r) => (this.#markRestored = r));

  private constructor(
    opts: HubOptions,
    paths: EndpointPaths,
    env: EndpointEnv,
    journal: Journal,
    mailboxes: Mailboxes,
    createApi: ApiFactory,
  ) {
    this.paths = paths;
    this.limits = withLimits(opts.limits);
    this.clock = opts.clock ?? systemClock;
    this.log = opts.logger ?? silentLogger;
    this.version = opts.version ?? '0.0.0';
    this.journal = journal;
    this.mailboxes = mailboxes;
    this.events = new Emitter<HubEvent>(this.log);
    this.settings = new SettingsStore({
      managedPath: opts.managedSettingsPath ?? defaultManagedPath(env.platform, env.env),
      userPath: path.join(paths.stateDir, 'settings.json'),
      logger: this.log,
    });
    this.admission = new Admission(this);
    this.history = createRecorder(this, opts.history);
    this.#defaultClaudeHome =
      opts.claudeHome ??
      (env.env.CLAUDE_CONFIG_DIR ? path.resolve(env.env.CLAUDE_CONFIG_DIR) : path.join(env.home, '.claude'));
    this.#openTeams();
    this.startedAt = this.clock.now();
    this.reclaimer = new Reclaimer({ now: () => this.clock.monotonic() });
    this.idle = new IdleWatch({
      lifetimeMs: () =>
        Math.min(this.limits.idleSubscriptionMs, this.adminSettings().idleSubscriptionMinutes.value * 60_000),
      now: () => this.clock.monotonic(),
      deliver: (sub, text) => routeIdleNotice(this, sub.subscriberId, sub.targetId, text),
    });
    const api = createApi(this);
    this.dispatch = (method, params, conn) => {
      this.reclaimer.request();
      return this.#restored ? api(method, params, conn) : this.#whenRestored.then(() => api(method, params, conn));
    };
    this.#rpc = new RpcServer({
      limits: this.limits,
      logger: this.log,
      dispatch: this.dispatch,
      onClose: (conn) => this.#connectionClosed(conn),
    });
    mailboxes.onItem((sessionId, item) => this.#pushItem(sessionId, item));
    mailboxes.onItem((_id, item) => this.history.item(item));
    this.events.on((event) => {
      for (const conn of this.uiConnections) conn.notify('ui.event', event);
      if (event.type === 'sessions.changed' || event.type === 'settings.changed') {
        this.stock.sessionsChanged();
        this.remote.sessionsChanged();
      }
      if (event.type === 'settings.changed') void this.remote.configure();
    });
  }

  /** Starts a hub serving the API `createApi` builds (core/index.ts passes host/api). */
  static async start(opts: HubOptions, createApi: ApiFactory): Promise<Hub> {
    const env = opts.endpoint ?? currentEndpointEnv();
    const paths = resolveEndpoint(env);
    const limits = withLimits(opts.limits);
    if (!paths.windows) {
      ensurePrivateDir(paths.runtimeDir, env.uid);
      ensurePrivateDir(paths.socketDir, env.uid, 'socket');
    }
    ensurePrivateDir(paths.stateDir, env.uid, 'state');
    const stateLock = await lockStateDir(paths.stateDir, {
      socket: paths.hubSocket,
      runtimeDir: paths.runtimeDir,
    }).catch((err: unknown) => {
      // Same socket: the familiar "already running" answer.
      throw err instanceof JournalError && err.holder?.socket === paths.hubSocket
        ? new HubRunningError(paths.hubSocket)
        : err;
    });
    let opened: Awaited<ReturnType<typeof Journal.open>>;
    try {
      const log = opts.logger ?? silentLogger;
      opened = await Journal.open(paths.stateDir, {
        syncMs: limits.journalSyncMs,
        compactBytes: limits.journalCompactBytes,
        lineBytes: limits.journalLineBytes,
        uid: env.uid,
        log,
      });
    } catch (err) {
      stateLock.release();
      throw err;
    }
    const { journal, state } = opened;
    const hub = new Hub(opts, paths, env, journal, new Mailboxes(journal, limits.inboxItems, state.items), createApi);
    hub.#stateLock = stateLock;
    try {
      await bindHubSocket(hub.#rpc.server, paths.hubSocket, {
        uid: env.uid,
        windows: paths.windows,
        probeTimeoutMs: limits.probeTimeoutMs,
      });
    } catch (err) {
      journal.close();
      hub.stock.close();
      stateLock.release();
      throw err;
    }
    hub.history.open();
    await restoreSessions(hub, state.sessions, state.held);
    hub.#restored = true;
    hub.#markRestored();
    hub.stock.start();
    await hub.remote.configure();
    hub.#sweep = setInterval(() => void hub.#sweepOnce(), hub.limits.livenessSweepMs);
    hub.#sweep.unref();
    return hub;
  }

  info(): HubInfo {
    return {
      version: this.version,
      pid: process.pid,
      socket: this.paths.hubSocket,
      runtimeDir: this.paths.runtimeDir,
      stateDir: this.paths.stateDir,
      sessions: this.table.size,
      startedAt: this.startedAt,
      ...(this.uiPort !== undefined ? { uiPort: this.uiPort } : {}),
    };
  }

  /** Settings that only managed and user scopes decide (no session involved). */
  adminSettings(): EffectiveSettings {
    return this.settings.adminEffective();
  }

  /** (Re)opens the teams root from settings; watches it for changes by anyone. */
  #openTeams(): void {
    const admin = this.adminSettings();
    const root = admin.claudeConfigDir.value ?? this.#defaultClaudeHome;
    const lock = {
      deadlineMs: admin.teamLockDeadlineSeconds.value * 1000,
      staleMs: 10_000,
      onCompromised: (err: Error) => this.log.warn('team lock compromised', { error: err.message }),
    };
    const sameRoot = this.teams?.root === root;
    this.teams = new Teams(root, lock);
    if (this.stock?.root !== root) {
      this.stock?.close();
      this.stock = new StockInterop(this, root);
      if (this.#restored) this.stock.start();
    }
    if (sameRoot && this.#teamsWatcher !== undefined) return;
    this.#teamsWatcher?.close();
    this.#teamsWatcher = new RootWatcher([this.teams.teamsRoot, this.teams.tasksRoot], () =>
      this.events.emit({ type: 'teams.changed' }),
    );
  }

  inboundHandler(s: SessionRecord, via?: { socketPath: string; address: string }): InboundHandler {
    return inboundHandler(this, s, via);
  }

  /** Every subsystem with per-session state forgets an ended session (lifecycle.ts calls it). */
  forgetSession(id: string): void {
    this.subscribers.delete(id);
    this.pins.forget(id);
    this.settings.forget(id);
    this.idle.targetExited(id);
    this.stock.sessionEnded(id);
    this.wake.ended(id);
    this.remote.confirmations.senderGone(id);
  }

  /** Ends a live session; see retireSession for `final` and `dormant`. */
  retire(id: string, end: EndKind): Promise<void> {
    return retireSession(this, id, end);
  }

  async persist(s: Parameters<typeof persisted>[0]): Promise<void> {
    await this.journal.append({ t: 's', s: persisted(s) });
  }

  subscribe(sessionId: string, conn: RpcConnection): void {
    let set = this.subscribers.get(sessionId);
    if (set === undefined) this.subscribers.set(sessionId, (set = new Set()));
    set.add(conn);
  }

  attachUi(conn: RpcConnection): void {
    if (this.uiConnections.has(conn)) return;
    this.uiConnections.add(conn);
    this.admission.uiAttached(1);
  }

  /** Picks up changed settings files now: teams root, held messages, UI event. */
  async settingsChanged(): Promise<void> {
    if (!this.settings.poll()) return;
    this.#openTeams();
    this.events.emit({ type: 'settings.changed' });
    await this.admission.reevaluateAll();
  }

  detachUi(conn: RpcConnection): void {
    if (this.uiConnections.delete(conn)) this.admission.uiAttached(-1);
  }

  recordActivity(entry: ActivityEntry): void {
    this.activity.push(entry);
    this.history.activity(entry);
    if (this.uiConnections.size > 0) this.events.emit({ type: 'activity', entry });
  }

  #pushItem(sessionId: string, item: InboxItem): void {
    const set = this.subscribers.get(sessionId);
    if (set === undefined) return;
    for (const conn of set) conn.notify('inbox.item', { sessionId, item });
  }

  #connectionClosed(conn: RpcConnection): void {
    for (const set of this.subscribers.values()) set.delete(conn);
    this.detachUi(conn);
    if (this.#closed) return; // shutting down: sessions stay journaled as they are
    for (const s of [...this.table.live.values()]) {
      if (s.connectionId !== conn.id) continue;
      this.retire(s.id, 'dormant').catch((err: unknown) =>
        this.log.error('session end failed', { id: s.id, error: String(err) }),
      );
    }
  }

  async #sweepOnce(): Promise<void> {
    try {
      const now = this.clock.now();
      for (const s of [...this.table.live.values()]) {
        if (s.liveness !== 'pid' || s.pid === null) continue;
        // A process that exited never comes back; a silent one past its lease might.
        if (!sameProcess(s.pid, s.procStart)) await this.retire(s.id, 'final');
        else if (now - s.lastSeen > this.limits.leaseMs) await this.retire(s.id, 'dormant');
      }
      await trimDormant(this);
      this.reclaimer.sweep();
      this.#teamsWatcher?.refresh();
      await this.stock.sweep();
      await this.settingsChanged();
      await this.admission.expireDue();
      this.admission.flushDrops();
      this.idle.expire();
      if (this.journal.wantsCompaction()) void this.journal.compact(); // never rejects: logs and keeps the old file
    } catch (err) {
      this.log.error('sweep failed', { error: err instanceof Error ? err.stack : String(err) });
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#sweep) clearInterval(this.#sweep);
    this.#teamsWatcher?.close();
    this.stock.close();
    this.wake.close();
    await this.remote.close();
    this.#rpc.closeAll();
    await new Promise<void>((r) => this.#rpc.server.close(() => r()));
    for (const server of this.servers.values()) server.close();
    this.servers.clear();
    this.journal.close();
    this.history.close();
    if (!this.paths.windows) fs.rmSync(this.paths.hubSocket, { force: true });
    this.#stateLock?.release();
  }
}

function sameProcess(pid: number, procStart: string | null): boolean {
  return sameProcessAlive({ pid, startTime: procStart ?? undefined });
}
