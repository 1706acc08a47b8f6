// The session record the hub keeps, and the pieces of it that are journaled.
// Tokens are never stored: only their SHA-256, compared in constant time.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AGENT_KINDS, PERMISSION_MODES, SESSION_STATES } from '../protocol/methods.js';

export type PermissionMode = (typeof PERMISSION_MODES)[number];
export type AgentKind = (typeof AGENT_KINDS)[number];
export type SessionState = (typeof SESSION_STATES)[number];
export type ModeClass = 'prompting' | 'bypass';

/** What survives a hub restart (the journal's session record). */
export interface PersistedSession {
  id: string;
  tokenHash: string;
  name: string;
  socketPath: string;
  address: string;
  cwd: string;
  pid: number | null;
  procStart: string | null;
  agent: AgentKind;
  permissionMode: PermissionMode;
  bypassAvailable: boolean;
  interactive: boolean;
  team: string | null;
  member: string | null;
  settings: Record<string, unknown> | null;
  liveness: 'connection' | 'pid';
  createdAt: number;
}

export interface SessionRecord extends PersistedSession {
  nameNorm: string;
  refHash: string;
  state: SessionState;
  stateSince: number;
  lastSeen: number;
  /** The hub connection that keeps a connection-bound session alive. */
  connectionId: number | null;
}

export function newToken(): string {
  return randomBytes(24).toString('hex');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function tokenMatches(token: string, tokenHash: string): boolean {
  const a = Buffer.from(hashToken(token), 'hex');
  const b = Buffer.from(tokenHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** DESIGN.md §6.3: bypass when bypassPermissions, or plan where bypass is available. */
export function modeClass(s: Pick<PersistedSession, 'permissionMode' | 'bypassAvailable'>): ModeClass {
  if (s.permissionMode === 'bypassPermissions') return 'bypass';
  if (s.permissionMode === 'plan' && s.bypassAvailable) return 'bypass';
  return 'prompting';
}

export function persisted(s: SessionRecord): PersistedSession {
  return {
    id: s.id, tokenHash: s.tokenHash, name: s.name, socketPath: s.socketPath, address: s.address, cwd: s.cwd,
    pid: s.pid, procStart: s.procStart, agent: s.agent, permissionMode: s.permissionMode,
    bypassAvailable: s.bypassAvailable, interactive: s.interactive, team: s.team, member: s.member,
    settings: s.settings, liveness: s.liveness, createdAt: s.createdAt,
  };
}
