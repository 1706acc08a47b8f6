// Session lifecycle on the hub: registration (new or resumed), activation
// (journal record, inbound socket), retirement (out of listings; kept for a
// resume only when it may resume and has something to resume, or when it
// is bound to a conversation, see retention.ts and conversations.ts) and
// restoration after a restart. Activation is atomic: a
// session is listed only after its record is written and its socket bound;
// on any failure nothing is listed and the journal is put back.

import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { HubError } from '../protocol/errors.js';
import type { MethodParams } from '../protocol/methods.js';
import { udsAddress } from '../protocol/cc-wire.js';
import { deriveName, freeName, label, nameChange, normalizeName, refHash, validName } from '../registry/names.js';
import type { NameChange } from '../protocol/results.js';
import { processIdentity, sameProcessesAlive } from '../registry/proc.js';
import { nameHeldByOther } from '../registry/resolution.js';
import { hashToken, newToken, persisted, type PersistedSession, type SessionRecord } from '../registry/session.js';
import type { HeldRecord } from '../journal/journal.js';
import { listenPrivate, sessionSocketPath } from '../transport/endpoint.js';
import type { Clock } from '../kit/clock.js';
import type { Logger } from '../kit/logger.js';
import type { EventSink } from '../delivery/ports.js';
import type { Journal } from '../journal/journal.js';
import type { Limits } from '../protocol/limits.js';
import type { SessionTable } from '../registry/table.js';
import type { SettingsStore } from '../settings/store.js';
import type { EndpointPaths } from '../transport/endpoint.js';
import type { InboundHandler } from '../transport/session-socket.js';
import type net from 'node:net';
import type { Admission } from '../messaging/admission.js';
import {
  endSession,
  keepDormant,
  keepForConversation,
  trimDormant,
  type EndKind,
  type RetentionPorts,
} from './retention.js';
import type { RpcConnection } from '../transport/rpc-server.js';
import { createSessionServer } from '../transport/session-socket.js';

type RegisterInput = MethodParams<'session.register'>;

/** What registering, ending and restoring sessions needs from the hub. */
export interface LifecyclePorts extends RetentionPorts {
  readonly table: SessionTable;
  readonly journal: Pick<Journal, 'append'>;
  readonly settings: Pick<SettingsStore, 'parseFlag' | 'forget'>;
  readonly admission: RetentionPorts['admission'] & Pick<Admission, 'reevaluate'>;
  readonly servers: Map<string, net.Server>;
  readonly paths: EndpointPaths;
  readonly limits: Limits;
  readonly clock: Clock;
  readonly log: Logger;
  readonly events: EventSink;
  /** The handler for messages written to the session's inbound socket (messaging/inbound-socket.ts). */
  inboundHandler(s: SessionRecord): InboundHandler;
  /** Who listens for a session's inbox pushes (a session that gives way hands them on). */
  readonly connections: { move(from: string, to: string): void };
  /** Everything else that keeps per-session state forgets this session (composed by the hub). */
  forgetSession(id: string): void;
}

export type Registered = { session: SessionRecord; token: string; resumed: boolean; nameChange?: NameChange };

export async function registerSession(
  hub: LifecyclePorts,
  params: RegisterInput,
  conn: RpcConnection,
): Promise<Registered> {
  if (params.resume !== undefined) {
    const old = hub.table.authAny(params.resume.sessionId, params.resume.token);
    const live = hub.table.live.get(old.id);
    if (live !== undefined) {
      if (params.liveness === 'connection') live.connectionId = conn.id;
      live.lastSeen = hub.clock.now();
      return { session: live, token: params.resume.token, resumed: true };
    }
    const chosen = params.name !== undefined ? chooseName(hub, params, old.address) : { name: old.name };
    const session = await activateSession(hub, { ...old, ...(await identity(params)), name: chosen.name }, conn, old);
    return { session, token: params.resume.token, resumed: true, ...changed(chosen) };
  }
  if (hub.table.size >= hub.limits.sessions) throw new HubError('overloaded');
  const token = newToken();
  const id = randomUUID();
  const socketPath = sessionSocketPath(hub.paths, id);
  const chosen = chooseName(hub, params);
  const p: PersistedSession = {
    id,
    tokenHash: hashToken(token),
    name: chosen.name,
    socketPath,
    address: udsAddress(socketPath),
    cwd: params.cwd,
    ...(await identity(params)),
    agent: params.agent,
    permissionMode: params.permissionMode,
    modeKnown: params.modeKnown,
    ...(params.modeKnown ? { modeSource: params.modeSource ?? 'declared' } : {}),
    bypassAvailable: params.bypassAvailable,
    interactive: params.interactive,
    team: params.team ?? null,
    member: params.member ?? null,
    settings: params.settings ?? null,
    createdAt: hub.clock.now(),
  };
  return { session: await activateSession(hub, p, conn), token, resumed: false, ...changed(chosen) };
}

function changed(chosen: { nameChange?: NameChange }): { nameChange?: NameChange } {
  return chosen.nameChange !== undefined ? { nameChange: chosen.nameChange } : {};
}

async function identity(params: RegisterInput): Promise<Pick<PersistedSession, 'pid' | 'procStart' | 'liveness'>> {
  if (params.pid === undefined) {
    if (params.liveness === 'pid') throw new HubError('pid_not_alive');
    return { pid: null, procStart: null, liveness: params.liveness };
  }
  const id = await processIdentity(params.pid); // read with every registration of this turn (one `ps` on macOS)
  if (id === undefined) throw new HubError('pid_not_alive');
  return { pid: id.pid, procStart: id.startTime ?? null, liveness: params.liveness };
}

/**
 * A chosen name or a derived free one. A new session never takes a name a
 * listed session holds (it would make that one unreachable by name): it gets
 * `name-2`, `name-3` … and is told so. On resume, like a rename, a held name
 * is refused (`name_taken`). A rewritten name (case, spaces, Unicode) is
 * reported too.
 */
function chooseName(
  hub: LifecyclePorts,
  params: RegisterInput,
  ownAddress?: string,
): { name: string; nameChange?: NameChange } {
  if (params.name !== undefined) {
    const wanted = validName(params.name);
    if (wanted === undefined) throw new HubError('name_invalid');
    if (ownAddress !== undefined && nameHeldByOther(hub.table, wanted, ownAddress)) throw new HubError('name_taken');
    const holder = ownAddress === undefined ? hub.table.named(wanted)[0] : undefined;
    const name = holder === undefined ? wanted : freeName(wanted, (n) => hub.table.named(n).length > 0);
    const change = nameChange(params.name, name, holder && label(holder.name, holder.ref));
    return change === undefined ? { name } : { name, nameChange: change };
  }
  for (let i = 0; ; i++) {
    const name = deriveName(params.cwd, randomBytes(i < 8 ? 1 : 2).toString('hex'));
    if (!hub.table.nameTaken(name)) return { name };
  }
}

/**
 * Writes the session's record, binds its socket, then lists it. `previous`
 * is its journaled record before (a resume or restore): on failure the
 * journal gets it back, or a drop record for a new session. A record the
 * journal already holds as it is (a restore) is not written again, so a
 * restart needs no free space to bring its sessions back.
 */
export async function activateSession(
  hub: LifecyclePorts,
  p: PersistedSession,
  conn: RpcConnection | null,
  previous?: PersistedSession,
): Promise<SessionRecord> {
  const now = hub.clock.now();
  const s: SessionRecord = {
    ...p,
    nameNorm: normalizeName(p.name),
    refHash: refHash(p.address),
    state: 'idle',
    stateSince: now,
    lastSeen: now,
    connectionId: p.liveness === 'connection' && conn !== null ? conn.id : null,
    flag: hub.settings.parseFlag(p.settings, p.name),
    hooksSeenAt: null,
  };
  const record = persisted(s);
  const write = previous === undefined || !isDeepStrictEqual(record, previous);
  if (write) await hub.journal.append({ t: 's', s: record }); // throws before writing anything when it cannot be written
  const server = createSessionServer(hub.limits, hub.inboundHandler(s), hub.log);
  try {
    if (!hub.paths.windows) fs.rmSync(p.socketPath, { force: true }); // ours by name, in our 0700 directory
    await listenPrivate(server, p.socketPath, hub.paths.windows);
  } catch (err) {
    server.close(() => undefined);
    if (!hub.paths.windows) fs.rmSync(p.socketPath, { force: true });
    if (write)
      await hub.journal
        .append(previous !== undefined ? { t: 's', s: previous } : { t: 'd', id: p.id })
        .catch((e: unknown) => hub.log.error('registration not retracted', { id: p.id, error: String(e) }));
    throw err;
  }
  // Nothing below awaits before the session is listed: no connection is handled in between.
  hub.servers.set(p.id, server);
  hub.table.add(s);
  hub.settings.forget(s.id);
  hub.events.emit({ type: 'sessions.changed' });
  await hub.admission.reevaluate(s);
  return s;
}

/**
 * Ends a session: it leaves listings and its socket closes. `final`: it can
 * never resume (its process exited, its adapter said it is ending), so its
 * senders are told and it is forgotten; `dormant`: kept for a resume while it
 * has something to resume (retention.ts).
 */
export async function retireSession(hub: LifecyclePorts, id: string, end: EndKind): Promise<void> {
  const s = hub.table.retire(id, hub.clock.now());
  if (s === undefined) return;
  hub.servers.get(id)?.close();
  hub.servers.delete(id);
  hub.forgetSession(id);
  hub.events.emit({ type: 'sessions.changed' });
  // A session bound to a conversation stays for that conversation's resume, whatever ended its process.
  if (end === 'dormant') await keepDormant(hub, persisted(s));
  else if (s.conversation !== undefined) await keepForConversation(hub, persisted(s));
  else await endSession(hub, persisted(s), 'the session ended and cannot resume');
}

/** After a restart: held messages come back (countdown reset); pid-bound sessions whose process runs revive. */
export async function restoreSessions(
  hub: LifecyclePorts,
  sessions: Map<string, PersistedSession>,
  held: Map<string, Map<string, HeldRecord>>,
): Promise<void> {
  for (const [receiverId, entries] of held) {
    for (const h of entries.values())
      hub.admission.held.add({ id: h.id, receiverId, env: h.env, reason: h.reason, heldAt: h.heldAt, deadline: null });
  }
  // Live and resumable ones first, so that the receipts of the ended ones find their senders.
  const ended: PersistedSession[] = [];
  const bound = [...sessions.values()].filter((p) => p.liveness === 'pid' && p.pid !== null);
  const running = await sameProcessesAlive(bound.map((p) => ({ pid: p.pid!, startTime: p.procStart ?? undefined })));
  const alive = new Set(bound.filter((_p, i) => running[i]).map((p) => p.id)); // one batch, never a `ps` per session
  for (const p of sessions.values()) {
    if (p.liveness === 'pid') {
      if (alive.has(p.id))
        await activateSession(hub, p, null, p).catch((err: unknown) => {
          // Never forgotten while its agent runs: kept dormant (its adapter may resume it), its record untouched.
          hub.log.warn('restore failed; kept for a resume', { id: p.id, error: String(err) });
          hub.table.dormant.set(p.id, { session: p, diedAt: hub.clock.now() });
        });
      else if (p.conversation !== undefined)
        await keepDormant(hub, p, false); // its conversation may resume
      else ended.push(p);
    } else {
      await keepDormant(hub, p, false); // its adapter may reconnect and resume
    }
  }
  for (const p of ended) await endSession(hub, p, 'the session ended and cannot resume');
  await trimDormant(hub);
}
