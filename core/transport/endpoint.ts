// Owns where the hub's sockets live and how they are made safe: the runtime
// directory (0700, ours, not a symlink), socket modes (0600), the sun_path
// bound (never truncated: a short fallback directory instead), stale socket
// removal (only our own socket that nobody answers) and Windows pipe names.
// It fails closed: an unsafe directory is an EndpointError, never a warning.

import fs from 'node:fs';
import { createRequire } from 'node:module';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { CodedError } from '../protocol/coded-error.js';

/** Longest socket path we bind: macOS allows 104 bytes, Linux 108; keep margin. */
export const MAX_SOCKET_PATH_BYTES = 100;
/** The longest file name a socket in the runtime directory gets. */
const LONGEST_SOCKET_NAME = 's-00000000-0000-0000-0000-000000000000.sock';

export type EndpointErrorCode =
  'symlink' | 'foreign_owner' | 'not_directory' | 'loose_mode' | 'path_too_long' | 'not_socket' | 'foreign_socket';

/** Which private directory a check was about: errors name it, never "runtime" for the state directory. */
export type DirRole = 'runtime' | 'socket' | 'state';

type DirCode = 'symlink' | 'foreign_owner' | 'not_directory' | 'loose_mode';

export class EndpointError extends CodedError<EndpointErrorCode> {
  override readonly name = 'EndpointError';
  /** The directory's role, for the directory codes. */
  readonly role: DirRole | undefined;
  constructor(code: EndpointErrorCode, target: string, role?: DirRole) {
    super(code, isDirCode(code) ? DIR_TEXT[code](role ?? 'runtime', target) : `${ENDPOINT_TEXT[code]}: ${target}`);
    this.role = isDirCode(code) ? (role ?? 'runtime') : undefined;
  }
}

function isDirCode(code: EndpointErrorCode): code is DirCode {
  return code === 'symlink' || code === 'foreign_owner' || code === 'not_directory' || code === 'loose_mode';
}

const DIR_TEXT: Record<DirCode, (role: DirRole, dir: string) => string> = {
  symlink: (role, dir) => `Refusing the ${role} directory ${dir}: it is a symbolic link`,
  foreign_owner: (role, dir) => `Refusing the ${role} directory ${dir}: it is owned by another user`,
  not_directory: (role, dir) => `The ${role} directory path ${dir} exists and is not a directory`,
  loose_mode: (role, dir) => `Refusing the ${role} directory ${dir}: other users can access it (chmod 700 ${dir})`,
};

const ENDPOINT_TEXT: Record<Exclude<EndpointErrorCode, DirCode>, string> = {
  path_too_long: 'No socket directory short enough for a socket path was found',
  not_socket: 'Refusing to remove a file that is not a socket',
  foreign_socket: 'Refusing to remove a socket owned by another user',
};

export interface EndpointEnv {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  uid: number;
  user: string;
  tmpdir: string;
  home: string;
  /**
   * The user's own runtime directory when XDG_RUNTIME_DIR is not in the
   * environment (Linux: /run/user/<uid>, when it exists and is ours). Agents
   * strip variables from what they start (Codex's MCP servers get a fixed
   * few), and hub discovery must not depend on them.
   */
  userRuntimeDir?: string | undefined;
}

/** /run/user/<uid> on Linux when it is a directory of this user's, else undefined. */
function linuxUserRuntimeDir(uid: number): string | undefined {
  if (process.platform !== 'linux' || uid < 0) return undefined;
  const dir = `/run/user/${uid}`;
  try {
    return privateDirProblem(dir, uid) === null ? dir : undefined;
  } catch {
    return undefined;
  }
}

export function currentEndpointEnv(): EndpointEnv {
  const uid = typeof process.getuid === 'function' ? process.getuid() : -1;
  const userRuntimeDir = process.env.XDG_RUNTIME_DIR ? undefined : linuxUserRuntimeDir(uid);
  return {
    platform: process.platform,
    env: process.env,
    uid,
    user: os.userInfo().username,
    tmpdir: os.tmpdir(),
    home: os.homedir(),
    userRuntimeDir,
  };
}

export interface EndpointPaths {
  /** Directory holding the sockets (Unix) or a naming prefix (Windows). */
  socketDir: string;
  runtimeDir: string;
  stateDir: string;
  hubSocket: string;
  windows: boolean;
}

/** The configured runtime directory, before the length check. */
export function runtimeDirOf(e: EndpointEnv): string {
  if (e.env.SWITCHBOARD_RUNTIME_DIR) return path.resolve(e.env.SWITCHBOARD_RUNTIME_DIR);
  if (e.env.XDG_RUNTIME_DIR) return path.join(e.env.XDG_RUNTIME_DIR, 'switchboard');
  if (e.userRuntimeDir) return path.join(e.userRuntimeDir, 'switchboard');
  return path.join(e.tmpdir, `switchboard-${e.uid}`);
}

export function stateDirOf(e: EndpointEnv): string {
  return e.env.SWITCHBOARD_HOME ? path.resolve(e.env.SWITCHBOARD_HOME) : path.join(e.home, '.switchboard');
}

function short(text: string): string {
  // crypto is loaded only for the fallback and Windows names: hooks start faster without it.
  const { createHash } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

function pipeUser(user: string): string {
  return user.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 32) || 'user';
}

export function resolveEndpoint(e: EndpointEnv): EndpointPaths {
  const runtimeDir = runtimeDirOf(e);
  const stateDir = stateDirOf(e);
  if (e.platform === 'win32') {
    // Named pipes: the runtime directory only scopes the name, so two hubs
    // with different SWITCHBOARD_RUNTIME_DIR values never collide.
    const prefix = `\\\\.\\pipe\\switchboard-${pipeUser(e.user)}-${short(runtimeDir)}`;
    return { socketDir: prefix, runtimeDir, stateDir, hubSocket: `${prefix}-hub`, windows: true };
  }
  let socketDir = runtimeDir;
  if (Buffer.byteLength(path.join(socketDir, LONGEST_SOCKET_NAME)) > MAX_SOCKET_PATH_BYTES) {
    socketDir = path.join('/tmp', `sb-${e.uid}`, short(runtimeDir));
    if (Buffer.byteLength(path.join(socketDir, LONGEST_SOCKET_NAME)) > MAX_SOCKET_PATH_BYTES) {
      throw new EndpointError('path_too_long', socketDir);
    }
  }
  return { socketDir, runtimeDir, stateDir, hubSocket: path.join(socketDir, 'hub.sock'), windows: false };
}

/** The path (or pipe name) of a session's inbound socket. */
export function sessionSocketPath(paths: EndpointPaths, sessionId: string): string {
  if (paths.windows) return `${paths.socketDir}-s-${sessionId}`;
  const p = path.join(paths.socketDir, `s-${sessionId}.sock`);
  if (Buffer.byteLength(p) > MAX_SOCKET_PATH_BYTES) throw new EndpointError('path_too_long', p);
  return p;
}

/**
 * Creates (0700) or checks a private directory, each missing level too.
 * Refuses symlinks, other owners, non-directories and group/other access.
 */
export function ensurePrivateDir(dir: string, uid: number, role: DirRole = 'runtime'): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const problem = privateDirProblem(dir, uid);
  if (problem !== null) throw new EndpointError(problem, dir, role);
}

/** Why an existing directory is not private to `uid` (uid < 0: any owner), or null when it is. */
export function privateDirProblem(
  dir: string,
  uid: number,
): 'symlink' | 'not_directory' | 'foreign_owner' | 'loose_mode' | null {
  const st = fs.lstatSync(dir);
  if (st.isSymbolicLink()) return 'symlink';
  if (!st.isDirectory()) return 'not_directory';
  if (uid >= 0 && st.uid !== uid) return 'foreign_owner';
  if ((st.mode & 0o077) !== 0) return 'loose_mode';
  return null;
}

/** Resolves true when something accepts a connection on the path. */
export function probeSocket(target: string, timeoutMs: number): Promise<boolean> {
  // node:net is loaded here only: a command hook resolving its paths starts faster without it.
  const { connect } = createRequire(import.meta.url)('node:net') as typeof import('node:net');
  return new Promise((resolve) => {
    const sock = connect(target);
    const done = (alive: boolean): void => {
      clearTimeout(timer);
      sock.destroy();
      resolve(alive);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

/**
 * Removes a socket file left by a dead process: only when it is a socket,
 * owned by this user, and nobody answers on it. Returns whether the path is
 * now free; a live socket returns false.
 */
export async function removeStaleSocket(target: string, uid: number, timeoutMs: number): Promise<boolean> {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(target);
  } catch {
    return true;
  }
  if (!st.isSocket()) throw new EndpointError('not_socket', target);
  if (uid >= 0 && st.uid !== uid) throw new EndpointError('foreign_socket', target);
  if (await probeSocket(target, timeoutMs)) return false;
  fs.unlinkSync(target);
  return true;
}

/** Listens on a Unix socket or pipe and restricts it to this user (0600). */
export function listenPrivate(server: net.Server, target: string, windows: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    // Bind with a 0177 umask so the socket is never briefly group-accessible.
    const oldMask = windows ? undefined : process.umask(0o177);
    try {
      server.listen(target, onListening);
    } finally {
      if (oldMask !== undefined) process.umask(oldMask);
    }
    function onListening(): void {
      server.off('error', onError);
      try {
        if (!windows) fs.chmodSync(target, 0o600);
        resolve();
      } catch (err) {
        server.close();
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    }
  });
}
