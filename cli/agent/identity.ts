// One Switchboard session per agent process, shared by that agent's MCP
// server and its hook commands. The agent is found by walking up from this
// process past shells; its pid and start time key a small credentials file
// (0600, in a 0700 directory under the state directory) so every later hook
// invocation reuses the session instead of registering a new one; the MCP
// server and the first hooks start at once, so registering anew is claimed
// by an exclusive file and done by one of them. Where one
// agent process runs many threads (Codex's `codex app-server` daemon spawns
// the MCP servers and runs the hooks of every TUI window), the hook input's
// session_id tells them apart: the first thread claims the process's
// session, every other thread gets its own. Light on purpose: hooks run on
// every tool call, so nothing here loads zod.

import fs from 'node:fs';
import path from 'node:path';
import { RpcError } from '../../core/client/client.js';
import type { HubCaller } from './hub-link.js';
import type { NameChange } from '../../core/protocol/results.js';
import { asPermissionMode } from '../../core/protocol/vocabulary.js';
import { argvOf, bypassAvailableFromArgv, modeFromArgv } from './mode.js';
import {
  authOf,
  credentialsFile,
  readCredentials,
  writeCredentials,
  type AgentKind,
  type Credentials,
} from './credentials.js';

export * from './credentials.js';

export interface EnsureArgs {
  client: HubCaller;
  pid: number;
  cwd: string;
  agent: AgentKind;
  name?: string;
  permissionMode?: string;
  /** Registering from a hook command (the hub then knows the hooks run). */
  hook?: boolean;
  /** The credentials file (default: the agent process's). */
  file?: string;
  /** The agent's own session id from the hook input, recorded as the claim. */
  agentSessionId?: string;
  /** Told when the hub registered this session under another name than `name` (taken, or rewritten). */
  onNameChange?: (change: NameChange) => void;
}

/** How long a process waits for another process of the same agent that is registering its session. */
const CLAIM_WAIT_MS = 5000;
const CLAIM_POLL_MS = 20;

/**
 * The agent's session: reused from its credentials file when the hub knows
 * it (resumed after a hub restart), registered anew otherwise. The agent's
 * MCP server and its first hooks start at the same moment: registering
 * anew is claimed by an exclusive `<file>.claim`, so one of them registers
 * and the others resume what it wrote (one process, one session). A claim
 * older than CLAIM_WAIT_MS (its holder died) is taken over.
 */
export async function ensureSession(a: EnsureArgs): Promise<Credentials> {
  const file = a.file ?? credentialsFile(a.pid);
  const claimFile = `${file}.claim`;
  let refused: string | undefined; // a session id the hub no longer knows
  for (;;) {
    const known = readCredentials(file);
    if (known !== undefined && known.sessionId !== refused) {
      const resumed = await resume(a, file, known);
      if (resumed !== undefined) return resumed;
      refused = known.sessionId;
    }
    if (takeClaim(claimFile)) {
      try {
        const now = readCredentials(file); // written by the holder just before us
        if (now !== undefined && now.sessionId !== refused) continue;
        return await register(a, file);
      } finally {
        fs.rmSync(claimFile, { force: true });
      }
    }
    await new Promise((r) => setTimeout(r, CLAIM_POLL_MS));
  }
}

/** Creates the claim file exclusively; a claim left by a dead or stuck holder is removed first. */
function takeClaim(claimFile: string): boolean {
  fs.mkdirSync(path.dirname(claimFile), { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(claimFile, String(process.pid), { flag: 'wx', mode: 0o600 });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  try {
    if (Date.now() - fs.statSync(claimFile).mtimeMs > CLAIM_WAIT_MS) fs.rmSync(claimFile, { force: true });
  } catch {
    // released meanwhile
  }
  return false;
}

/** Resumes the known session; undefined when the hub does not know it (register anew). */
async function resume(a: EnsureArgs, file: string, known: Credentials): Promise<Credentials | undefined> {
  try {
    await a.client.call('session.register', {
      cwd: a.cwd,
      pid: a.pid,
      liveness: 'pid',
      agent: a.agent,
      resume: { sessionId: known.sessionId, token: known.token },
      ...(a.hook ? { hook: true } : {}),
      ...conversationOf(a),
    });
  } catch (err) {
    if (err instanceof RpcError && err.reason === 'unauthorized') return undefined;
    throw err;
  }
  if (known.agentSessionId === undefined && a.agentSessionId !== undefined)
    writeCredentials(file, { ...known, agentSessionId: a.agentSessionId });
  return authOf(known);
}

/** The conversation a hook names: when it ended in an earlier process, the hub gives its session back. */
function conversationOf(a: EnsureArgs): { conversation?: string } {
  return a.agentSessionId !== undefined && /^[0-9A-Za-z_-]{1,128}$/.test(a.agentSessionId)
    ? { conversation: a.agentSessionId }
    : {};
}

async function register(a: EnsureArgs, file: string): Promise<Credentials> {
  // What the agent said (hook input, --mode), else its command line, else unknown: the hub fails closed.
  const told = asPermissionMode(a.permissionMode);
  const argv = argvOf(a.pid) ?? [];
  const flagged = told === undefined ? modeFromArgv(a.agent, argv) : undefined;
  const mode =
    told !== undefined
      ? { permissionMode: told, modeSource: a.hook === true ? ('hook' as const) : ('declared' as const) }
      : flagged !== undefined
        ? { permissionMode: flagged, modeSource: 'command-line' as const }
        : { modeKnown: false };
  const reg = await a.client.call('session.register', {
    cwd: a.cwd,
    pid: a.pid,
    liveness: 'pid',
    agent: a.agent,
    ...mode,
    ...(bypassAvailableFromArgv(a.agent, argv) ? { bypassAvailable: true } : {}),
    ...(a.name ? { name: a.name } : {}),
    ...(a.hook ? { hook: true } : {}),
    ...conversationOf(a),
  });
  const creds = { sessionId: reg.sessionId, token: reg.token };
  if (reg.nameChange !== undefined) a.onNameChange?.(reg.nameChange);
  writeCredentials(file, { ...creds, ...(a.agentSessionId !== undefined ? { agentSessionId: a.agentSessionId } : {}) });
  return creds;
}
