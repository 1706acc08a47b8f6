// The session record the hub keeps, and the pieces of it that are journaled.
// Tokens are never stored: only their SHA-256, compared in constant time.

import { createHash, randomBytes } from 'node:crypto';
import { sameSecret } from '../kit/secret.js';
import type { AGENT_KINDS, PERMISSION_MODES, SESSION_STATES } from '../protocol/methods.js';
import type { ModeSource } from '../protocol/vocabulary.js';
import type { ParsedSettings } from '../settings/schema.js';

export type PermissionMode = (typeof PERMISSION_MODES)[number];
export type AgentKind = (typeof AGENT_KINDS)[number];
export type SessionState = (typeof SESSION_STATES)[number];
export type ModeClass = 'prompting' | 'bypass';
/** A session's class as the policy sees it: 'unknown' when its agent did not say its mode. */
export type SessionClass = ModeClass | 'unknown';

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
  /** false when the agent has not told its mode (Gemini's hooks never do); absent in older journals = known. */
  modeKnown?: boolean;
  /** Where permissionMode came from; absent in older journals (and while the mode is unknown and untold). */
  modeSource?: ModeSource;
  bypassAvailable: boolean;
  interactive: boolean;
  team: string | null;
  member: string | null;
  settings: Record<string, unknown> | null;
  liveness: 'connection' | 'pid';
  createdAt: number;
  /** The agent's conversation (Claude Code's session_id, a Codex thread, …): a resume of it gets this session back. */
  conversation?: string;
  /** Sessions this one took over when its conversation resumed: their credentials act as this session. */
  aliases?: string[];
}

export interface SessionRecord extends PersistedSession {
  nameNorm: string;
  refHash: string;
  state: SessionState;
  stateSince: number;
  lastSeen: number;
  /** The hub connection that keeps a connection-bound session alive. */
  connectionId: number | null;
  /** Its per-session ("flag") settings, parsed. */
  flag: ParsedSettings;
  /** When one of its agent's hook commands last reached the hub (not journaled), or null. */
  hooksSeenAt: number | null;
  /** The agent's own session (Codex: thread) id, as its hooks reported it (not journaled). */
  agentThreadId?: string;
}

export function newToken(): string {
  return randomBytes(24).toString('hex');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Tokens already verified against their hash, kept in memory only (never journaled). */
const verified = new WeakMap<object, string>();

/**
 * Whether `token` is the session's token, in constant time. The first match
 * hashes; later checks compare with the remembered token (hashing on every
 * request cost ~8% of the hub's send path).
 */
export function tokenMatches(token: string, session: { tokenHash: string }): boolean {
  const known = verified.get(session);
  if (known !== undefined) return sameSecret(token, known);
  const ok = sameSecret(hashToken(token), session.tokenHash);
  if (ok) verified.set(session, token);
  return ok;
}

/** Mode parity (docs/design.md#7-inbound-policy): bypass when bypassPermissions, or plan where bypass is available; unknown when not told. */
export function modeClass(s: Pick<PersistedSession, 'permissionMode' | 'bypassAvailable' | 'modeKnown'>): SessionClass {
  if (s.modeKnown === false) return 'unknown';
  if (s.permissionMode === 'bypassPermissions') return 'bypass';
  if (s.permissionMode === 'plan' && s.bypassAvailable) return 'bypass';
  return 'prompting';
}

/** The class the hub vouches for when this session sends: none when its mode is unknown (fail closed). */
export function senderClass(
  s: Pick<PersistedSession, 'permissionMode' | 'bypassAvailable' | 'modeKnown'>,
): ModeClass | null {
  const c = modeClass(s);
  return c === 'unknown' ? null : c;
}

export function persisted(s: SessionRecord): PersistedSession {
  return {
    id: s.id,
    tokenHash: s.tokenHash,
    name: s.name,
    socketPath: s.socketPath,
    address: s.address,
    cwd: s.cwd,
    pid: s.pid,
    procStart: s.procStart,
    agent: s.agent,
    permissionMode: s.permissionMode,
    modeKnown: s.modeKnown !== false,
    ...(s.modeSource !== undefined ? { modeSource: s.modeSource } : {}),
    bypassAvailable: s.bypassAvailable,
    interactive: s.interactive,
    team: s.team,
    member: s.member,
    settings: s.settings,
    liveness: s.liveness,
    createdAt: s.createdAt,
    ...(s.conversation !== undefined ? { conversation: s.conversation } : {}),
    ...(s.aliases !== undefined ? { aliases: s.aliases } : {}),
  };
}
