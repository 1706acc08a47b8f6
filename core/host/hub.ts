// The Hub composition: endpoint, journal, sessions, inboxes, the hub socket
// and one inbound socket per hosted session. Everything from outside (paths,
// clock, logger, limits) comes in through HubOptions. Start fails closed on
// an unsafe runtime directory (EndpointError) or a live hub (HubRunningError).

import { randomBytes, randomUUID } from 'node:crypto';
import type net from 'node:net';
import fs from 'node:fs';
import { Mailboxes } from '../delivery/mailboxes.js';
import { Journal } from '../journal/journal.js';
import { HubError } from '../protocol/errors.js';
import { withLimits, type Limits } from '../protocol/limits.js';
import type { HubInfo, InboxItem, RegisterParams } from '../protocol/methods.js';
import { udsAddress } from '../protocol/cc-wire.js';
import { deriveName, normalizeName, refHash, validName } from '../registry/names.js';
import { processIdentity, sameProcessAlive } from '../registry/proc.js';
import { Pins } from '../registry/resolve.js';
import { hashToken, newToken, persisted, type PersistedSession, type SessionRecord } from '../registry/session.js';
import { SessionTable } from '../registry/table.js';
import { Router, type AdmissionStage } from '../routing/router.js';
import { IdleWatch } from '../idle/idle.js';
import { currentEndpointEnv, ensurePrivateDir, listenPrivate, resolveEndpoint, sessionSocketPath, type EndpointEnv, type EndpointPaths } from './endpoint.js';
import { bindHubSocket } from './hub-lock.js';
import { silentLogger, type Logger } from './logger.js';
import { createHandlers } from './handlers.js';
import { RpcServer, type RpcConnection } from './rpc-server.js';
import { inboundHandler } from './inbound.js';
import { createSessionServer } from './session-socket.js';

export interface Clock {
  now(): number;
}

export interface HubOptions {
  endpoint?: EndpointEnv;
  limits?: Partial<Limits>;
  clock?: Clock;
  logger?: Logger;
  version?: string;
  stages?: readonly AdmissionStage[];
}

export class Hub {
  readonly paths: EndpointPaths;
  readonly limits: Limits;
  readonly clock: Clock;
  readonly log: Logger;
  readonly version: string;
  readonly table = new SessionTable();
  readonly pins = new Pins();
  readonly mailboxes: Mailboxes;
  readonly router: Router;
  readonly journal: Journal;
  readonly startedAt: number;
  readonly idle: IdleWatch;
  /** Connections that asked for pushes, per session. */
  readonly subscribers = new Map<string, Set<RpcConnection>>();
  readonly #rpc: RpcServer;
  readonly #servers = new Map<string, net.Server>();
  #sweep: NodeJS.Timeout | undefined;
  #closed = false;
  /** Requests that arrive while journaled sessions are being restored wait for it. */
  #restored = false;
  #markRestored: () => void = () => undefined;
  readonly #whenRestored = new Promise<void>((r) => (this.#markRestored = r));

  private constructor(opts: HubOptions, paths: EndpointPaths, journal: Journal, mailboxes: Mailboxes) {
    this.paths = paths;
    this.limits = withLimits(opts.limits);
    this.clock = opts.clock ?? { now: () => Date.now() };
    this.log = opts.logger ?? silentLogger;
    this.version = opts.version ?? '0.0.0';
    this.journal = journal;
    this.mailboxes = mailboxes;
    this.router = new Router(mailboxes, opts.stages ?? []);
    this.startedAt = this.clock.now();
    this.idle = new IdleWatch({
      lifetimeMs: this.limits.idleSubscriptionMs,
      now: () => this.clock.now(),
      deliver: (subscriberId, notice) => {
        this.mailboxes.put(subscriberId, notice).catch((err: unknown) => this.log.error('idle notice not stored', { error: String(err) }));
      },
    });
    const handlers = createHandlers(this);
    this.#rpc = new RpcServer({
      limits: this.limits,
      logger: this.log,
      dispatch: (method, params, conn) =>
        this.#restored ? handlers[method](params as never, conn) : this.#whenRestored.then(() => handlers[method](params as never, conn)),
      onClose: (conn) => this.#connectionClosed(conn),
    });
    mailboxes.onItem((sessionId, item) => this.#pushItem(sessionId, item));
  }

  static async start(opts: HubOptions = {}): Promise<Hub> {
    const env = opts.endpoint ?? currentEndpointEnv();
    const paths = resolveEndpoint(env);
    const limits = withLimits(opts.limits);
    if (!paths.windows) {
      ensurePrivateDir(paths.runtimeDir, env.uid);
      ensurePrivateDir(paths.socketDir, env.uid);
    }
    ensurePrivateDir(paths.stateDir, env.uid);
    const { journal, state } = Journal.open(paths.stateDir, { syncMs: limits.journalSyncMs, compactBytes: limits.journalCompactBytes });
    const hub = new Hub(opts, paths, journal, new Mailboxes(journal, limits.inboxItems, state.items));
    try {
      await bindHubSocket(hub.#rpc.server, paths.hubSocket, { uid: env.uid, windows: paths.windows, probeTimeoutMs: limits.probeTimeoutMs });
    } catch (err) {
      journal.close();
      throw err;
    }
    await hub.#restore(state.sessions);
    hub.#restored = true;
    hub.#markRestored();
    hub.#sweep = setInterval(() => hub.#sweepLiveness(), hub.limits.livenessSweepMs);
    hub.#sweep.unref();
    return hub;
  }

  info(): HubInfo {
    return {
      version: this.version, pid: process.pid, socket: this.paths.hubSocket, runtimeDir: this.paths.runtimeDir,
      stateDir: this.paths.stateDir, sessions: this.table.size, startedAt: this.startedAt,
    };
  }

  /** Revives journaled pid-bound sessions whose process still runs; the rest wait for a resume. */
  async #restore(sessions: Map<string, PersistedSession>): Promise<void> {
    for (const p of sessions.values()) {
      const alive = p.liveness === 'pid' && p.pid !== null && sameProcessAlive({ pid: p.pid, startTime: p.procStart ?? undefined });
      if (alive) await this.#activate(p, null).catch((err: unknown) => this.log.warn('restore failed', { id: p.id, error: String(err) }));
      else this.table.dormant.set(p.id, { session: p, diedAt: this.clock.now() });
    }
  }

  async register(params: Omit<Required<RegisterParams>, 'name' | 'pid' | 'team' | 'member' | 'settings' | 'resume'> & RegisterParams, conn: RpcConnection): Promise<{ session: SessionRecord; token: string; resumed: boolean }> {
    if (params.resume !== undefined) {
      const old = this.table.authAny(params.resume.sessionId, params.resume.token);
      const live = this.table.live.get(old.id);
      if (live !== undefined) {
        if (params.liveness === 'connection') live.connectionId = conn.id;
        live.lastSeen = this.clock.now();
        return { session: live, token: params.resume.token, resumed: true };
      }
      const session = await this.#activate({ ...old, ...this.#identity(params), ...(params.name ? { name: this.#name(params) } : {}) }, conn);
      return { session, token: params.resume.token, resumed: true };
    }
    if (this.table.size >= this.limits.sessions) throw new HubError('overloaded');
    const token = newToken();
    const id = randomUUID();
    const socketPath = sessionSocketPath(this.paths, id);
    const p: PersistedSession = {
      id, tokenHash: hashToken(token), name: this.#name(params), socketPath, address: udsAddress(socketPath), cwd: params.cwd,
      ...this.#identity(params), agent: params.agent, permissionMode: params.permissionMode, bypassAvailable: params.bypassAvailable,
      interactive: params.interactive, team: params.team ?? null, member: params.member ?? null, settings: params.settings ?? null,
      createdAt: this.clock.now(),
    };
    return { session: await this.#activate(p, conn), token, resumed: false };
  }

  #identity(params: RegisterParams): Pick<PersistedSession, 'pid' | 'procStart' | 'liveness'> {
    const liveness = params.liveness ?? 'connection';
    if (params.pid === undefined) {
      if (liveness === 'pid') throw new HubError('pid_not_alive');
      return { pid: null, procStart: null, liveness };
    }
    const id = processIdentity(params.pid);
    if (id === undefined) throw new HubError('pid_not_alive');
    return { pid: id.pid, procStart: id.startTime ?? null, liveness };
  }

  #name(params: RegisterParams): string {
    if (params.name !== undefined) {
      const name = validName(params.name);
      if (name === undefined) throw new HubError('name_invalid');
      return name;
    }
    for (let i = 0; ; i++) {
      const name = deriveName(params.cwd, randomBytes(i < 8 ? 1 : 2).toString('hex'));
      if (!this.table.nameTaken(name)) return name;
    }
  }

  async #activate(p: PersistedSession, conn: RpcConnection | null): Promise<SessionRecord> {
    const now = this.clock.now();
    const s: SessionRecord = {
      ...p, nameNorm: normalizeName(p.name), refHash: refHash(p.address), state: 'idle', stateSince: now, lastSeen: now,
      connectionId: p.liveness === 'connection' && conn !== null ? conn.id : null,
    };
    const server = createSessionServer(this.limits, inboundHandler(this, s), this.log);
    if (!this.paths.windows) {
      try {
        fs.unlinkSync(p.socketPath); // ours by name, in our 0700 directory; a leftover of a crash
      } catch {
        // absent
      }
    }
    await listenPrivate(server, p.socketPath, this.paths.windows);
    this.#servers.set(p.id, server);
    this.table.add(s);
    await this.journal.append({ t: 's', s: persisted(s) });
    return s;
  }

  /** Ends a session: it leaves listings, its socket closes, its inbox stays for a resume. */
  retire(id: string): void {
    const s = this.table.retire(id, this.clock.now());
    if (s === undefined) return;
    this.#servers.get(id)?.close();
    this.#servers.delete(id);
    this.subscribers.delete(id);
    this.pins.forget(id);
    this.idle.targetExited(id);
  }

  async persist(s: SessionRecord): Promise<void> {
    await this.journal.append({ t: 's', s: persisted(s) });
  }

  subscribe(sessionId: string, conn: RpcConnection): void {
    let set = this.subscribers.get(sessionId);
    if (set === undefined) this.subscribers.set(sessionId, (set = new Set()));
    set.add(conn);
  }

  #pushItem(sessionId: string, item: InboxItem): void {
    const set = this.subscribers.get(sessionId);
    if (set === undefined) return;
    for (const conn of set) conn.notify('inbox.item', { sessionId, item });
  }

  #connectionClosed(conn: RpcConnection): void {
    for (const set of this.subscribers.values()) set.delete(conn);
    for (const s of [...this.table.live.values()]) if (s.connectionId === conn.id) this.retire(s.id);
  }

  #sweepLiveness(): void {
    const now = this.clock.now();
    for (const s of [...this.table.live.values()]) {
      if (s.liveness !== 'pid' || s.pid === null) continue;
      const dead = !sameProcessAlive({ pid: s.pid, startTime: s.procStart ?? undefined }) || now - s.lastSeen > this.limits.leaseMs;
      if (dead) this.retire(s.id);
    }
    this.idle.expire();
    for (const [id, d] of [...this.table.dormant]) {
      if (now - d.diedAt > this.limits.dormantRetentionMs) {
        this.table.dormant.delete(id);
        void this.mailboxes.drop(id).catch(() => undefined);
      }
    }
    if (this.journal.wantsCompaction(this.mailboxes.totalItems + this.table.size + this.table.dormant.size)) this.#compact();
  }

  #compact(): void {
    const table = this.table;
    const mailboxes = this.mailboxes;
    this.journal.compact(
      (function* () {
        for (const s of table.live.values()) yield { t: 's' as const, s: persisted(s) };
        for (const d of table.dormant.values()) yield { t: 's' as const, s: d.session };
        for (const r of mailboxes.records()) yield { t: 'i' as const, id: r.sessionId, item: r.item };
      })(),
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#sweep) clearInterval(this.#sweep);
    this.#rpc.closeAll();
    await new Promise<void>((r) => this.#rpc.server.close(() => r()));
    for (const server of this.#servers.values()) server.close();
    this.#servers.clear();
    this.journal.close();
    if (!this.paths.windows) fs.rmSync(this.paths.hubSocket, { force: true });
  }
}
