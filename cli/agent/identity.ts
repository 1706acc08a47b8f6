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

import { replaceFileSync } from '../../core/storage/atomic-write.js';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { HubClient, RpcError } from '../../core/client/client.js';
import { currentEndpointEnv, resolveEndpoint } from '../../core/transport/endpoint.js';
import { processStartTime } from '../../core/registry/proc.js';
import { asPermissionMode } from '../../core/protocol/vocabulary.js';
import { argvOf, modeFromArgv } from './mode.js';

/** child_process loads only on macOS, where it is needed (hooks start faster without it). */
function execFileSync(): typeof import('node:child_process').execFileSync {
  return (createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process')).execFileSync;
}

const SHELLS = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'fish',
  'ksh',
  'tcsh',
  'csh',
  'cmd.exe',
  'powershell.exe',
  'pwsh',
  'pwsh.exe',
  'env',
  'timeout',
]);
const MAX_HOPS = 4;

export type AgentKind = 'claude' | 'codex' | 'gemini' | 'other';

export interface Credentials {
  sessionId: string;
  token: string;
  /** The agent's own session (thread) id that claimed these credentials, once a hook said it. */
  agentSessionId?: string;
}

/** Agents whose one process can run several threads, each with its own hook session_id. */
const MULTI_THREAD: ReadonlySet<AgentKind> = new Set(['codex']);

function parentOf(pid: number): { ppid: number; name: string } | undefined {
  try {
    if (process.platform === 'linux') {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return { ppid, name };
    }
    if (process.platform === 'darwin') {
      const out = execFileSync()('ps', ['-o', 'ppid=,comm=', '-p', String(pid)], {
        encoding: 'utf8',
        timeout: 2000,
      }).trim();
      const [ppid, ...comm] = out.split(/\s+/);
      return { ppid: Number(ppid), name: path.basename(comm.join(' ')) };
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** The agent process: this process's nearest ancestor that is not a shell. */
export function agentPid(): number {
  let pid = process.ppid;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const info = parentOf(pid);
    if (info === undefined || !SHELLS.has(info.name) || info.ppid <= 1) return pid;
    pid = info.ppid;
  }
  return pid;
}

export function stateDir(): string {
  return resolveEndpoint(currentEndpointEnv()).stateDir;
}

export function credentialsFile(pid: number): string {
  const start = processStartTime(pid) ?? 'unknown';
  return path.join(stateDir(), 'agents', `${pid}-${start.replace(/[^0-9A-Za-z]/g, '_')}.json`);
}

/**
 * The credentials file for a hook of `agent` whose input names the agent
 * session `agentSessionId`: the process's file unless another thread of the
 * same process claimed it, then one of the thread's own.
 */
export function hookCredentialsFile(pid: number, agent: AgentKind, agentSessionId: string): string {
  const file = credentialsFile(pid);
  if (!MULTI_THREAD.has(agent)) return file;
  const own = file.replace(/\.json$/, `-t-${threadKey(agentSessionId)}.json`);
  if (fs.existsSync(own)) return own;
  const known = readCredentials(file);
  if (known === undefined || known.agentSessionId === agentSessionId) return file;
  if (known.agentSessionId !== undefined) return own;
  writeCredentials(file, { ...known, agentSessionId }); // the first thread claims the process's session
  return file;
}

/** Only what the hub takes as credentials (the claim stays in the file). */
export function authOf(c: Credentials): Credentials {
  return { sessionId: c.sessionId, token: c.token };
}

function threadKey(id: string): string {
  const { createHash } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(id).digest('hex').slice(0, 16);
}

export function readCredentials(file: string): Credentials | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Credentials>;
    if (typeof v.sessionId !== 'string' || typeof v.token !== 'string') return undefined;
    return {
      sessionId: v.sessionId,
      token: v.token,
      ...(typeof v.agentSessionId === 'string' ? { agentSessionId: v.agentSessionId } : {}),
    };
  } catch {
    return undefined;
  }
}

export function writeCredentials(file: string, creds: Credentials): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  replaceFileSync(file, JSON.stringify(creds), 0o600);
}

export function forgetCredentials(file: string): void {
  fs.rmSync(file, { force: true });
}

export interface EnsureArgs {
  client: HubClient;
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
    });
  } catch (err) {
    if (err instanceof RpcError && err.reason === 'unauthorized') return undefined;
    throw err;
  }
  if (known.agentSessionId === undefined && a.agentSessionId !== undefined)
    writeCredentials(file, { ...known, agentSessionId: a.agentSessionId });
  return authOf(known);
}

async function register(a: EnsureArgs, file: string): Promise<Credentials> {
  // What the agent said (hook input, --mode), else its command line, else unknown: the hub fails closed.
  const permissionMode = asPermissionMode(a.permissionMode) ?? modeFromArgv(a.agent, argvOf(a.pid) ?? []);
  const mode = permissionMode !== undefined ? { permissionMode } : { modeKnown: false };
  const reg = await a.client.call('session.register', {
    cwd: a.cwd,
    pid: a.pid,
    liveness: 'pid',
    agent: a.agent,
    ...mode,
    ...(a.name ? { name: a.name } : {}),
    ...(a.hook ? { hook: true } : {}),
  });
  const creds = { sessionId: reg.sessionId, token: reg.token };
  writeCredentials(file, { ...creds, ...(a.agentSessionId !== undefined ? { agentSessionId: a.agentSessionId } : {}) });
  return creds;
}
