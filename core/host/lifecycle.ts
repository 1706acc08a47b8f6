// Session lifecycle on the hub: registration (new or resumed), activation
// (inbound socket, journal record), retirement (out of listings, inbox kept)
// and restoration after a restart. Names and pid identities are checked here.

import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { HubError } from '../protocol/errors.js';
import type { MethodParams } from '../protocol/methods.js';
import { udsAddress } from '../protocol/cc-wire.js';
import { deriveName, normalizeName, refHash, validName } from '../registry/names.js';
import { processIdentity, sameProcessAlive } from '../registry/proc.js';
import { hashToken, newToken, persisted, type PersistedSession, type SessionRecord } from '../registry/session.js';
import type { HeldRecord } from '../journal/journal.js';
import { listenPrivate, sessionSocketPath } from './endpoint.js';
import type { Hub } from './hub.js';
import { inboundHandler } from './inbound.js';
import type { RpcConnection } from './rpc-server.js';
import { createSessionServer } from './session-socket.js';

type RegisterInput = MethodParams<'session.register'>;

export async function registerSession(hub: Hub, params: RegisterInput, conn: RpcConnection): Promise<{ session: SessionRecord; token: string; resumed: boolean }> {
  if (params.resume !== undefined) {
    const old = hub.table.authAny(params.resume.sessionId, params.resume.token);
    const live = hub.table.live.get(old.id);
    if (live !== undefined) {
      if (params.liveness === 'connection') live.connectionId = conn.id;
      live.lastSeen = hub.clock.now();
      return { session: live, token: params.resume.token, resumed: true };
    }
    const name = params.name !== undefined ? chooseName(hub, params) : old.name;
    const session = await activateSession(hub, { ...old, ...identity(params), name }, conn);
    return { session, token: params.resume.token, resumed: true };
  }
  if (hub.table.size >= hub.limits.sessions) throw new HubError('overloaded');
  const token = newToken();
  const id = randomUUID();
  const socketPath = sessionSocketPath(hub.paths, id);
  const p: PersistedSession = {
    id, tokenHash: hashToken(token), name: chooseName(hub, params), socketPath, address: udsAddress(socketPath), cwd: params.cwd,
    ...identity(params), agent: params.agent, permissionMode: params.permissionMode, modeKnown: params.modeKnown, bypassAvailable: params.bypassAvailable,
    interactive: params.interactive, team: params.team ?? null, member: params.member ?? null, settings: params.settings ?? null,
    createdAt: hub.clock.now(),
  };
  return { session: await activateSession(hub, p, conn), token, resumed: false };
}

function identity(params: RegisterInput): Pick<PersistedSession, 'pid' | 'procStart' | 'liveness'> {
  if (params.pid === undefined) {
    if (params.liveness === 'pid') throw new HubError('pid_not_alive');
    return { pid: null, procStart: null, liveness: params.liveness };
  }
  const id = processIdentity(params.pid);
  if (id === undefined) throw new HubError('pid_not_alive');
  return { pid: id.pid, procStart: id.startTime ?? null, liveness: params.liveness };
}

function chooseName(hub: Hub, params: RegisterInput): string {
  if (params.name !== undefined) {
    const name = validName(params.name);
    if (name === undefined) throw new HubError('name_invalid');
    return name;
  }
  for (let i = 0; ; i++) {
    const name = deriveName(params.cwd, randomBytes(i < 8 ? 1 : 2).toString('hex'));
    if (!hub.table.nameTaken(name)) return name;
  }
}

export async function activateSession(hub: Hub, p: PersistedSession, conn: RpcConnection | null): Promise<SessionRecord> {
  const now = hub.clock.now();
  const s: SessionRecord = {
    ...p, nameNorm: normalizeName(p.name), refHash: refHash(p.address), state: 'idle', stateSince: now, lastSeen: now,
    connectionId: p.liveness === 'connection' && conn !== null ? conn.id : null,
    flag: hub.settings.parseFlag(p.settings, p.name), hooksSeenAt: null,
  };
  const server = createSessionServer(hub.limits, inboundHandler(hub, s), hub.log);
  if (!hub.paths.windows) fs.rmSync(p.socketPath, { force: true }); // ours by name, in our 0700 directory
  await listenPrivate(server, p.socketPath, hub.paths.windows);
  hub.servers.set(p.id, server);
  hub.table.add(s);
  hub.settings.forget(s.id);
  await hub.journal.append({ t: 's', s: persisted(s) });
  hub.events.emit({ type: 'sessions.changed' });
  await hub.admission.reevaluate(s);
  return s;
}

/** Ends a session: it leaves listings, its socket closes, its inbox and held messages stay. */
export function retireSession(hub: Hub, id: string): void {
  const s = hub.table.retire(id, hub.clock.now());
  if (s === undefined) return;
  hub.servers.get(id)?.close();
  hub.servers.delete(id);
  hub.subscribers.delete(id);
  hub.pins.forget(id);
  hub.settings.forget(id);
  hub.idle.targetExited(id);
  hub.stock.sessionEnded(id);
  hub.remote.confirmations.senderGone(id);
  hub.events.emit({ type: 'sessions.changed' });
}

/** After a restart: held messages come back (countdown reset); pid-bound sessions whose process runs revive. */
export async function restoreSessions(hub: Hub, sessions: Map<string, PersistedSession>, held: Map<string, Map<string, HeldRecord>>): Promise<void> {
  for (const [receiverId, entries] of held) {
    for (const h of entries.values()) hub.admission.held.add({ id: h.id, receiverId, env: h.env, reason: h.reason, heldAt: h.heldAt, deadline: null });
  }
  for (const p of sessions.values()) {
    const alive = p.liveness === 'pid' && p.pid !== null && sameProcessAlive({ pid: p.pid, startTime: p.procStart ?? undefined });
    if (alive) await activateSession(hub, p, null).catch((err: unknown) => hub.log.warn('restore failed', { id: p.id, error: String(err) }));
    else hub.table.dormant.set(p.id, { session: p, diedAt: hub.clock.now() });
  }
}
