// The agent process's identity on this machine, without the hub: which
// process is the agent (walking up past shells), its credentials file (0600,
// in a 0700 directory under the state directory, keyed by pid and start
// time; Codex threads of one daemon get their own), reading and writing it.
// Only node:fs and node:path: a command hook's fast path (post-tool with
// nothing pending) runs this and nothing that loads node:net or node:crypto.

import { replaceFileSync } from '../../core/storage/atomic-write.js';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { currentEndpointEnv, resolveEndpoint } from '../../core/transport/endpoint.js';
import { processStartTime } from './proc-start.js';
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

export type AgentKind = 'claude' | 'codex' | 'gemini' | 'opencode' | 'qwen' | 'other';

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
