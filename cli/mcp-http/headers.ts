// The headers an agent's MCP connection over HTTP carries (what
// `switchboard mcp --print-headers` prints for Claude Code's headersHelper):
// the Switchboard session's id and token, the agent's pid (to end the
// session when its connection closes and the process is gone), and what the
// stdio adapter would have read from its own command line or environment.
// Parsed here with fixed bounds; a request whose headers do not parse is
// refused before anything else reads them.

import type { AgentKind, Credentials } from '../agent/credentials.js';

export const HEADER = {
  session: 'x-switchboard-session',
  token: 'x-switchboard-token',
  pid: 'x-switchboard-pid',
  agent: 'x-switchboard-agent',
  team: 'x-switchboard-team',
  note: 'x-switchboard-note',
} as const;

export interface CallerHeaders {
  creds: Credentials;
  pid: number;
  agent: AgentKind;
  team?: string;
  /** Said to the agent at initialize (its session name is not the one asked for). */
  note?: string;
}

const ID = /^[A-Za-z0-9_-]{1,128}$/;
const AGENTS: readonly AgentKind[] = ['claude', 'codex', 'gemini', 'opencode', 'qwen', 'other'];
const MAX_TEAM = 256;
const MAX_NOTE = 2048;

/** The printable header object for a session (values are plain strings; the note is URI-encoded). */
export function headersFor(h: CallerHeaders): Record<string, string> {
  return {
    'X-Switchboard-Session': h.creds.sessionId,
    'X-Switchboard-Token': h.creds.token,
    'X-Switchboard-Pid': String(h.pid),
    'X-Switchboard-Agent': h.agent,
    ...(h.team !== undefined ? { 'X-Switchboard-Team': encodeURIComponent(h.team) } : {}),
    ...(h.note !== undefined ? { 'X-Switchboard-Note': encodeURIComponent(h.note) } : {}),
  };
}

function one(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return typeof v === 'string' ? v : undefined;
}

function decoded(raw: string | undefined, max: number): string | undefined {
  if (raw === undefined || raw.length > max * 3) return undefined;
  try {
    const text = decodeURIComponent(raw);
    return text.length > 0 && text.length <= max ? text : undefined;
  } catch {
    return undefined;
  }
}

/** The caller's headers, or why they are not acceptable. */
export function parseCallerHeaders(
  headers: Record<string, string | string[] | undefined>,
): CallerHeaders | { problem: string } {
  const sessionId = one(headers, HEADER.session);
  const token = one(headers, HEADER.token);
  if (sessionId === undefined || token === undefined)
    return {
      problem:
        'no Switchboard session in the request headers: connect through `switchboard mcp --print-headers` (headersHelper)',
    };
  if (!ID.test(sessionId) || !ID.test(token)) return { problem: 'malformed Switchboard session headers' };
  const pidText = one(headers, HEADER.pid) ?? '';
  const pid = /^[1-9][0-9]{0,9}$/.test(pidText) ? Number(pidText) : NaN;
  if (!Number.isSafeInteger(pid)) return { problem: 'malformed X-Switchboard-Pid header' };
  const agentText = one(headers, HEADER.agent) ?? 'other';
  const agent = AGENTS.find((a) => a === agentText);
  if (agent === undefined) return { problem: 'unknown X-Switchboard-Agent' };
  const team = decoded(one(headers, HEADER.team), MAX_TEAM);
  const note = decoded(one(headers, HEADER.note), MAX_NOTE);
  return {
    creds: { sessionId, token },
    pid,
    agent,
    ...(team !== undefined ? { team } : {}),
    ...(note !== undefined ? { note } : {}),
  };
}
