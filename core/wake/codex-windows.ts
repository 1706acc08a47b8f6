// Is anyone watching a Codex thread? The app-server daemon keeps a thread
// loaded (and idle) after its TUI quits and exposes no subscriber count, so a
// wake could start a turn nobody sees. Before waking, the hub counts this
// user's live Codex TUI processes (Linux /proc: not the daemon, not `codex
// exec` or other subcommands) working in the session's folder under the same
// CODEX_HOME. None: no wake, the user is told instead. Where /proc cannot
// say, the answer is "cannot tell" and the caller fails closed. A scan reads
// every process (~17 µs each), so its answer is reused for WINDOWS_TTL_MS:
// a flood of messages to an idle session costs one scan a second, not one each.

import fs from 'node:fs';
import path from 'node:path';

const MAX_PROCESSES = 65_536; // a /proc listing bigger than this is not scanned further
const MAX_PROC_BYTES = 256 * 1024; // a process's environment or command line
const WINDOWS_TTL_MS = 1000; // a window that quit within the last second may still count as open
const WINDOWS_KEPT = 64; // (CODEX_HOME, folder) answers remembered at once
/** `codex <sub>` commands that are not an interactive window. */
const NOT_A_WINDOW = new Set([
  'app-server',
  'exec',
  'e',
  'mcp',
  'mcp-server',
  'login',
  'logout',
  'completion',
  'apply',
  'a',
  'sandbox',
  'debug',
  'proto',
  'cloud',
  'queue',
]);

export interface ProcReader {
  pids(): number[] | undefined;
  argv(pid: number): string[] | undefined;
  environ(pid: number): Record<string, string> | undefined;
  cwd(pid: number): string | undefined;
  uid(pid: number): number | undefined;
}

function readNul(file: string): string[] | undefined {
  try {
    const raw = fs.readFileSync(file);
    if (raw.length === 0 || raw.length > MAX_PROC_BYTES) return undefined;
    return raw
      .toString('utf8')
      .split('\0')
      .filter((a) => a !== '');
  } catch {
    return undefined;
  }
}

export const linuxProc: ProcReader = {
  pids() {
    if (process.platform !== 'linux') return undefined;
    try {
      return fs
        .readdirSync('/proc')
        .filter((n) => /^\d+$/.test(n))
        .slice(0, MAX_PROCESSES)
        .map(Number);
    } catch {
      return undefined;
    }
  },
  argv: (pid) => readNul(`/proc/${pid}/cmdline`),
  environ(pid) {
    const lines = readNul(`/proc/${pid}/environ`);
    if (lines === undefined) return undefined;
    const out: Record<string, string> = {};
    for (const l of lines) {
      const eq = l.indexOf('=');
      if (eq > 0) out[l.slice(0, eq)] = l.slice(eq + 1);
    }
    return out;
  },
  cwd(pid) {
    try {
      return fs.readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      return undefined;
    }
  },
  uid(pid) {
    try {
      return fs.statSync(`/proc/${pid}`).uid;
    } catch {
      return undefined;
    }
  },
};

/** CODEX_HOME as a Codex process with this environment uses it (else HOME/.codex, else `fallback`). */
export function codexHomeOf(env: Record<string, string> | undefined, fallback: string): string {
  if (env?.CODEX_HOME !== undefined && env.CODEX_HOME !== '') return path.resolve(env.CODEX_HOME);
  if (env?.HOME !== undefined) return path.join(env.HOME, '.codex');
  return fallback;
}

/** The folder a Codex TUI works in: its `-C`/`--cd` argument (relative to its cwd), else its cwd. */
function workdirOf(argv: readonly string[], cwd: string): string {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if ((a === '-C' || a === '--cd') && argv[i + 1] !== undefined) return path.resolve(cwd, argv[i + 1]!);
    if (a.startsWith('--cd=')) return path.resolve(cwd, a.slice('--cd='.length));
  }
  return cwd;
}

/** How many live Codex windows of this user work in `cwd` under `codexHome`; undefined when this system cannot tell. */
export function codexWindows(
  codexHome: string,
  cwd: string,
  fallbackHome: string,
  proc: ProcReader = linuxProc,
): number | undefined {
  const pids = proc.pids();
  if (pids === undefined) return undefined;
  const me = process.getuid?.();
  const want = path.resolve(cwd);
  let n = 0;
  for (const pid of pids) {
    const argv = proc.argv(pid);
    if (argv === undefined || path.basename(argv[0] ?? '') !== 'codex') continue;
    if (argv.slice(1, 3).some((a) => NOT_A_WINDOW.has(a))) continue;
    if (me !== undefined && proc.uid(pid) !== me) continue;
    const dir = proc.cwd(pid);
    if (dir === undefined || workdirOf(argv, dir) !== want) continue;
    if (codexHomeOf(proc.environ(pid), fallbackHome) !== codexHome) continue;
    n++;
  }
  return n;
}

const recent = new Map<string, { at: number; n: number | undefined }>();

/** codexWindows, its answer reused for WINDOWS_TTL_MS per (CODEX_HOME, folder). */
export function recentCodexWindows(
  codexHome: string,
  cwd: string,
  fallbackHome: string,
  proc: ProcReader = linuxProc,
  now: () => number = Date.now,
): number | undefined {
  const key = `${codexHome}\0${path.resolve(cwd)}`;
  const t = now();
  const hit = recent.get(key);
  if (hit !== undefined && t - hit.at < WINDOWS_TTL_MS) return hit.n;
  const n = codexWindows(codexHome, cwd, fallbackHome, proc);
  if (recent.size >= WINDOWS_KEPT) recent.clear();
  recent.set(key, { at: t, n });
  return n;
}
