// Listing rows of sessions this hub does not host: a stock Claude Code or
// Qwen Code session's (its own messaging; its mode and inbox are not ours to
// know; a Claude Code session Claude Desktop runs says so in `host`) and
// another machine's (from its hub's presence). Pure.

import type { AgentRow } from '../protocol/methods.js';
import { label } from './names.js';
import { desktopHost, type StockEntry } from '../protocol/cc-sessions.js';
import type { PresenceSession } from '../protocol/relay-wire.js';

/** A session on another machine, from its hub's presence (core/relay). */
export interface RemoteSession {
  machine: string;
  address: string;
  refHash: string;
  session: PresenceSession;
  /** Its machine is away since then (epoch ms): listed as it was last reachable; the relay stores mail for it. */
  awaySince?: number;
}

/** A stock Claude Code session that discovery found (core/stock/discovery.ts). */
export interface StockSession {
  entry: StockEntry;
  socketPath: string;
  address: string;
  refHash: string;
  /** Claude Code's own status (busy, idle, shell, waiting), if it wrote one. */
  status: string | undefined;
  /** Set for a Qwen Code session (core/stock/qwen-discovery.ts): its record's token, never listed. */
  qwen?: { token: string | undefined };
}

const STOCK_STATES: Record<string, AgentRow['state']> = { busy: 'busy', shell: 'busy', idle: 'idle', waiting: 'idle' };

export function stockRow(name: string, ref: string, s: StockSession): AgentRow {
  const since = s.entry.statusUpdatedAt ?? s.entry.startedAt ?? 0;
  return {
    name,
    ref,
    label: label(name, ref),
    address: s.address,
    machine: null,
    cwd: s.entry.cwd,
    agent: s.qwen !== undefined ? 'qwen' : 'claude',
    kind: s.qwen !== undefined ? 'qwen-code' : 'claude-code',
    ...desktopHost(s.entry),
    mode: null,
    hooks: null,
    state: STOCK_STATES[s.status ?? ''] ?? 'idle',
    stateSince: since,
    canReceive: true,
    inboxDepth: 0,
    inbound: {
      value: null,
      source: s.qwen !== undefined ? 'its own Qwen Code settings' : 'its own Claude Code settings',
    },
    self: false,
  };
}

export function remoteRow(ref: string, r: RemoteSession): AgentRow {
  const s = r.session;
  return {
    name: s.name,
    ref,
    label: label(s.name, ref),
    address: r.address,
    machine: r.machine,
    cwd: s.cwd,
    agent: s.agent,
    kind: 'switchboard',
    mode: null,
    hooks: null,
    state: s.state,
    stateSince: s.stateSince,
    canReceive: s.canReceive,
    inboxDepth: s.inboxDepth,
    inbound: { value: null, source: `its own hub on ${r.machine}` },
    self: false,
    ...(r.awaySince !== undefined ? { awaySince: r.awaySince } : {}),
  };
}
