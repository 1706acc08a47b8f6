// The Hub, the composition root of one hub: it builds the pieces (journal,
// settings, sessions, inboxes, receipts, admission, idle subscriptions,
// wake, history, Claude Code's root, other machines), hands each feature its ports (the Hub
// satisfies them structurally; no feature imports it), serves the API it is
// given on the hub socket, sweeps, and closes in reverse order. How the
// built pieces are connected lives in hub-wiring.ts. Everything
// from outside comes in through HubOptions. Start fails closed
// (open-state.ts); it never starts with an empty journal.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type net from 'node:net';
import path from 'node:path';
import type { Mailboxes } from '../delivery/mailboxes.js';
import type { QuietMarks } from '../delivery/quiet-marks.js';
import type { HistoryRecorder } from '../history/recorder.js';
import type { IdleWatch } from '../idle/idle.js';
import type { Journal } from '../journal/journal.js';
import type { StateLock } from '../journal/state-lock.js';
import { systemClock, type Clock } from '../kit/clock.js';
import { Emitter } from '../kit/emitter.js';
import { silentLogger, type Logger } from '../kit/logger.js';
import { Reclaimer } from '../kit/reclaim.js';
import { Ring } from '../kit/ring.js';
import { drop } from '../kit/drop.js';
import { Admission } from '../messaging/admission.js';
import { inboundHandler } from '../messaging/inbound-socket.js';
import type { ActivityEntry, HubEvent, UserNotice } from '../protocol/events.js';
import { withLimits, type Limits } from '../protocol/limits.js';
import type { HubInfo } from '../protocol/methods.js';
import { Receipts } from '../receipts/receipts.js';
import { Pins } from '../registry/resolution.js';
import { persisted, type SessionRecord } from '../registry/session.js';
import { SessionTable } from '../registry/table.js';
import { RemoteMachines } from '../relay/remote-machines.js';
import { restoreSessions, retireSession } from '../sessions/lifecycle.js';
import type { EndKind } from '../sessions/retention.js';
import type { EffectiveSettings } from '../settings/effective.js';
import { defaultManagedPath, SettingsStore } from '../settings/store.js';
import type { StockInterop } from '../stock/stock.js';
import type { Teams } from '../teams/teams.js';
import {
  currentEndpointEnv,
  resolveEndpoint,
  sessionSocketPath,
  type EndpointEnv,
  type EndpointPaths,
} from '../transport/endpoint.js';
import { bindHubSocket } from '../transport/hub-lock.js';
import { RpcServer, type Dispatch, type RpcConnection } from '../transport/rpc-server.js';
import { SocketKeeper, type ListeningSocket } from '../transport/socket-keeper.js';
import type { InboundHandler } from '../transport/session-socket.js';
import { currentSetupEnv, type SetupEnv } from '../setup/setup-env.js';
import { Waker } from '../wake/wake.js';
import { agentHomes, ClaudeRoot } from './claude-root.js';
import { ACTIVITY_KEPT, USER_NOTICES_KEPT, type HubOptions } from './hub-options.js';
import { Connections } from './connections.js';
import { fanOut, RestoreGate, wireHistory, wireIdleWatch } from './hub-wiring.js';
import { openState } from './open-state.js';
import { Sweeper } from './sweep.js';
import { openRuleBook } from '../policy/rule-store.js';
import type { RuleBook } from '../policy/rules.js';

export type { HubOptions } from './hub-options.js';

/** Builds the method dispatcher for a hub (host/api createApi); passed in so that hub.ts never imports the API layer above it. */
export type ApiFactory = (hub: Hub) => Dispatch;

export class Hub {
  readonly clock: Clock;
  readonly log: Logger;
  readonly limits: Limits;
  readonly version: string;
  readonly setupEnv: () => SetupEnv | Promise<SetupEnv>; // who agent setup runs as (HubOptions.setupEnv)
  readonly startedAt: number;
  /** The user's home, and Codex's (CODEX_HOME, else ~/.codex), from the EndpointEnv the hub was given. */
  readonly home: string;
  readonly codexHome: string;
  /** Grants user-interface decisions (approve, deny); printed at start, never written to disk. */
  readonly uiToken = randomBytes(24).toString('hex');
  /** The loopback port of the web UI while one serves this hub (set by web.ts); hub.info shows it, never the token. */
  uiPort: number | undefined = undefined;
  readonly table = new SessionTable();
  readonly pins = new Pins();
  readonly events: Emitter<HubEvent>;
  readonly activity = new Ring<ActivityEntry>(ACTIVITY_KEPT);
  readonly userNotices = new Ring<UserNotice>(USER_NOTICES_KEPT);
  readonly servers = new Map<string, net.Server>(); // inbound socket servers of live sessions
  readonly settings: SettingsStore;
  readonly admission: Admission;
  /** Every receipt a sender gets, and the activity log of messages (core/receipts). */
  readonly receipts: Receipts;
  /** The person's rules with lifetimes; `ruleProblem` says why "always" rules are off (an unreadable file). */
  readonly rules: RuleBook;
  readonly ruleProblem: string | null;
  /** Searchable history of messages, receipts and decisions (core/history). */
  readonly history: HistoryRecorder;
  readonly wake: Waker;
  /** Other machines: the relay (when configured) and isolatePeerMachines confirmations. */
  readonly remote: RemoteMachines;
  /** Claude Code's teams, tasks and stock sessions, under the configured root. */
  readonly claude: ClaudeRoot;
  readonly idle: IdleWatch;
  readonly reclaimer: Reclaimer; // gives memory back after a burst or a storm of ended sessions (kit/reclaim.ts)
  readonly connections: Connections;
  /** Runs a method with already validated params, as the given connection (used by the web bridge). */
  readonly dispatch: Dispatch;
  readonly #rpc: RpcServer;
  readonly #sweeper: Sweeper; // housekeeping, each duty when it is due (sweep.ts): an idle hub sleeps
  /** Binds again socket files a cleaner removed (Unix; set once the hub socket is bound). */
  #keeper: SocketKeeper | undefined;
  #closed = false;
  readonly #restore = new RestoreGate(); // requests that arrive while journaled sessions are being restored wait for it

  private constructor(
    opts: HubOptions,
    readonly paths: EndpointPaths,
    env: EndpointEnv,
    readonly journal: Journal,
    readonly mailboxes: Mailboxes,
    /** Each session's "nothing pending" mark for its command hooks (delivery/quiet-marks.ts). */
    readonly quiet: QuietMarks,
    readonly stateLock: StateLock,
    createApi: ApiFactory,
  ) {
    this.limits = withLimits(opts.limits);
    this.clock = opts.clock ?? systemClock;
    this.log = opts.logger ?? silentLogger;
    this.version = opts.version ?? '0.0.0';
    this.setupEnv = opts.setupEnv ?? currentSetupEnv;
    this.startedAt = this.clock.now();
    this.home = env.home;
    this.codexHome = env.env.CODEX_HOME ? path.resolve(env.env.CODEX_HOME) : path.join(env.home, '.codex');
    this.events = new Emitter<HubEvent>(this.log);
    this.settings = new SettingsStore({
      managedPath: opts.managedSettingsPath ?? defaultManagedPath(env.platform, env.env),
      userPath: path.join(paths.stateDir, 'settings.json'),
      logger: this.log,
      // A watched settings folder changed (nothing polls them).
      changed: () => drop(this.settingsChanged(), 'settings change', (m, f) => this.log.error(m, f)),
    });
    const rules = openRuleBook(paths.stateDir, this.clock, this.log);
    [this.rules, this.ruleProblem] = [rules.rules, rules.problem];
    // Built in dependency order, each after the limits, clock and log it reads (no field initialiser runs first).
    this.wake = new Waker(this);
    this.remote = new RemoteMachines(this);
    this.receipts = new Receipts(this);
    this.admission = new Admission(this);
    this.history = wireHistory(this, opts.history);
    this.claude = new ClaudeRoot(this, agentHomes(env, opts), () => this.#restore.isOpen);
    this.reclaimer = new Reclaimer({ now: () => this.clock.monotonic() });
    this.idle = wireIdleWatch(this, () => this.#sweeper.idleChanged());
    this.#sweeper = new Sweeper(this);
    this.connections = new Connections((delta) => this.admission.uiAttached(delta));
    const api = createApi(this);
    this.dispatch = (method, params, conn) => {
      this.reclaimer.request();
      this.#sweeper.activity();
      return this.#restore.run(() => api(method, params, conn));
    };
    this.#rpc = new RpcServer({
      limits: this.limits,
      logger: this.log,
      dispatch: this.dispatch,
      onClose: (conn) => this.#connectionClosed(conn),
    });
    fanOut(this, () => this.#sweeper.sessionsChanged());
  }

  /** Starts a hub serving the API `createApi` builds (core/index.ts passes host/api). */
  static async start(opts: HubOptions, createApi: ApiFactory): Promise<Hub> {
    const env = opts.endpoint ?? currentEndpointEnv();
    const paths = resolveEndpoint(env);
    const limits = withLimits(opts.limits);
    const writer = `switchboard ${opts.version ?? '0.0.0'}`;
    const log = opts.logger ?? silentLogger;
    const opened = await openState(env, paths, limits, log, writer, opts.clock ?? systemClock);
    const { stateLock, journal, state, quiet, mailboxes } = opened;
    const hub = new Hub(opts, paths, env, journal, mailboxes, quiet, stateLock, createApi);
    try {
      await bindHubSocket(hub.#rpc.server, paths.hubSocket, {
        uid: env.uid,
        windows: paths.windows,
        probeTimeoutMs: limits.probeTimeoutMs,
      });
    } catch (err) {
      journal.close();
      hub.claude.close();
      hub.settings.close();
      stateLock.release();
      throw err;
    }
    if (!paths.windows) hub.#keeper = new SocketKeeper(paths.socketDir, env.uid, hub.log);
    quiet.reset(); // this hub is the one now: a previous hub's marks go before any request
    hub.history.open();
    await restoreSessions(hub, state.sessions, state.held);
    hub.remote.restore(state);
    hub.#restore.open();
    hub.claude.start();
    await hub.remote.configure();
    hub.#sweeper.start(paths.windows ? undefined : paths.socketDir);
    return hub;
  }

  /** Binds again the hub's and the sessions' socket files when they were removed (sweep.ts: on a change, and at its long tick). */
  async keepSockets(): Promise<void> {
    if (!this.#closed) await this.#keeper?.check(() => this.#listening());
  }

  *#listening(): Generator<ListeningSocket> {
    yield { path: this.paths.hubSocket, server: this.#rpc.server };
    for (const [id, server] of this.servers) yield { path: sessionSocketPath(this.paths, id), server };
  }

  get teams(): Teams {
    return this.claude.teams;
  }

  get stock(): StockInterop {
    return this.claude.stock;
  }

  info(): HubInfo {
    const { hubSocket: socket, runtimeDir, stateDir } = this.paths;
    const ui = this.uiPort !== undefined ? { uiPort: this.uiPort } : {};
    return {
      version: this.version,
      pid: process.pid,
      socket,
      runtimeDir,
      stateDir,
      sessions: this.table.size,
      startedAt: this.startedAt,
      ...ui,
    };
  }

  /** Settings that only managed and user scopes decide (no session involved). */
  adminSettings(): EffectiveSettings {
    return this.settings.adminEffective();
  }

  inboundHandler(s: SessionRecord, via?: { socketPath: string; address: string }): InboundHandler {
    return inboundHandler(this, s, via);
  }

  /** Every subsystem with per-session state forgets an ended session (lifecycle.ts calls it). */
  forgetSession(id: string): void {
    this.connections.forget(id);
    this.pins.forget(id);
    this.settings.forget(id);
    this.idle.targetExited(id);
    this.claude.sessionEnded(id);
    this.wake.ended(id);
    this.remote.confirmations.senderGone(id);
    this.quiet.revoke(id); // a resume must reach the hub
  }

  /** Ends a live session; see retireSession for `final` and `dormant`. */
  retire(id: string, end: EndKind): Promise<void> {
    this.#sweeper.activity(); // an ending: memory reclaim looks again
    return retireSession(this, id, end).finally(() => this.#sweeper.dormantChanged());
  }

  async persist(s: Parameters<typeof persisted>[0]): Promise<void> {
    await this.journal.append({ t: 's', s: persisted(s) });
  }

  /** Picks up changed settings files now: teams root, held messages, UI event. */
  async settingsChanged(): Promise<void> {
    if (!this.settings.poll()) return;
    this.claude.open();
    this.events.emit({ type: 'settings.changed' });
    await this.admission.reevaluateAll();
  }

  /** A session's address while the hub knows it (live or dormant), else null. */
  addressOf(sessionId: string): string | null {
    return (this.table.live.get(sessionId) ?? this.table.dormant.get(sessionId)?.session)?.address ?? null;
  }

  recordActivity(entry: ActivityEntry): void {
    this.activity.push(entry);
    this.history.activity(entry);
    if (this.connections.uiAttached > 0) this.events.emit({ type: 'activity', entry });
  }

  #connectionClosed(conn: RpcConnection): void {
    this.connections.closed(conn);
    if (this.#closed) return; // shutting down: sessions stay journaled as they are
    this.#sweeper.connectionClosed(); // an agent's adapter went: its process may have exited
    for (const s of [...this.table.live.values()]) {
      if (s.connectionId !== conn.id) continue;
      this.retire(s.id, 'dormant').catch((err: unknown) =>
        this.log.error('session end failed', { id: s.id, error: String(err) }),
      );
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#sweeper.close();
    this.admission.close();
    this.settings.close();
    this.claude.close();
    this.wake.close();
    await this.remote.close();
    this.#rpc.closeAll();
    await new Promise<void>((r) => this.#rpc.server.close(() => r()));
    for (const server of this.servers.values()) server.close();
    this.servers.clear();
    this.journal.close();
    this.history.close();
    if (!this.paths.windows) fs.rmSync(this.paths.hubSocket, { force: true });
    this.quiet.clear();
    this.stateLock.release();
  }
}
