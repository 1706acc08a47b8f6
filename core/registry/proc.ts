// Process liveness with pid-reuse detection. The start time is an opaque
// string compared for equality: Linux field 22 of /proc/<pid>/stat, macOS
// `ps -o lstart=` in UTC, elsewhere unknown (liveness then rests on the pid
// and the lease). Never throws.
//
// Nothing here blocks the hub's loop on a child process, on any platform:
// start times are read asynchronously and in batches (`startTimes`: one
// `ps` for every pid asked in the same turn on macOS, /proc reads on Linux);
// the synchronous `processStartTime` reads /proc on Linux and knows nothing
// elsewhere. test/core/no-blocking-child.test.ts keeps it so.

import { execFile } from 'node:child_process';
import fs from 'node:fs';

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Two records of a process's start time name the same process unless both are known and differ. */
export function sameProcessStart(a: string | null | undefined, b: string | null | undefined): boolean {
  return a == null || b == null || a === b;
}

function fromProcStat(stat: string): string | undefined {
  // The command name (field 2) may contain spaces and parentheses.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return rest[19]; // field 22 overall: fields start at 3 after the name
}

/** The start time where it costs one /proc read (Linux); undefined elsewhere (use `startTimes`). */
export function processStartTime(pid: number, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform !== 'linux') return undefined;
  try {
    return fromProcStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** `ps -o pid=,lstart=` lines: each pid with the same text `ps -o lstart= -p PID` prints for it alone. */
export function parsePsStarts(out: string): Map<number, string> {
  const starts = new Map<number, string>();
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+)\s+(\S.*?)\s*$/.exec(line);
    if (m !== null) starts.set(Number(m[1]), m[2]!);
  }
  return starts;
}

const PS_TIMEOUT_MS = 2000;

/** Start times of many processes at once, without blocking: a missing entry is an exited or unknown process. */
export async function startTimes(
  pids: readonly number[],
  platform: NodeJS.Platform = process.platform,
): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const unique = [...new Set(pids)].filter((p) => Number.isInteger(p) && p > 0);
  if (unique.length === 0) return out;
  if (platform === 'linux') {
    // /proc is memory, not a disk: read in this turn (one wakeup for the batch, not one per file from the pool).
    for (const pid of unique) {
      const start = processStartTime(pid, platform);
      if (start !== undefined) out.set(pid, start);
    }
  } else if (platform === 'darwin') {
    const text = await new Promise<string>((resolve) =>
      execFile(
        'ps',
        ['-o', 'pid=,lstart=', '-p', unique.join(',')],
        { env: { ...process.env, TZ: 'UTC' }, encoding: 'utf8', timeout: PS_TIMEOUT_MS },
        (_err, stdout) => resolve(stdout ?? ''), // ps exits 1 when some pid is gone: the others still print
      ),
    );
    for (const [pid, start] of parsePsStarts(text)) if (unique.includes(pid)) out.set(pid, start);
  }
  return out;
}

/** Coalesces the start-time reads asked for in one turn into one `startTimes` call. */
let batch: { pids: Set<number>; result: Promise<Map<number, string>> } | undefined;

/** One process's start time, read with every other one asked for in the same turn. */
export function startTimeOf(pid: number): Promise<string | undefined> {
  if (batch === undefined) {
    const pids = new Set<number>();
    const result = new Promise<void>((r) => setImmediate(r)).then(() => {
      batch = undefined;
      return startTimes([...pids]);
    });
    batch = { pids, result };
  }
  batch.pids.add(pid);
  return batch.result.then((m) => m.get(pid));
}

/** The process identity used to detect pid reuse. */
export interface ProcessIdentity {
  pid: number;
  startTime: string | undefined;
}

export async function processIdentity(pid: number): Promise<ProcessIdentity | undefined> {
  if (!pidAlive(pid)) return undefined;
  return { pid, startTime: await startTimeOf(pid) };
}

/** Which of `ids` still run as the same process (pid alive, start time unchanged where one is known): one batch. */
export async function sameProcessesAlive(
  ids: readonly ProcessIdentity[],
  platform: NodeJS.Platform = process.platform,
): Promise<boolean[]> {
  const alive = ids.map((id) => pidAlive(id.pid));
  const asked = ids.filter((id, i) => alive[i] && id.startTime !== undefined).map((id) => id.pid);
  const now = asked.length > 0 ? await startTimes(asked, platform) : new Map<number, string>();
  // Unreadable now: on Linux the process exited meanwhile; elsewhere `ps` failed, and the pid decides.
  const same = (id: ProcessIdentity): boolean => {
    const start = now.get(id.pid);
    return id.startTime === undefined || start === id.startTime || (start === undefined && platform !== 'linux');
  };
  return ids.map((id, i) => alive[i]! && same(id));
}

export async function sameProcessAlive(id: ProcessIdentity): Promise<boolean> {
  return (await sameProcessesAlive([id]))[0]!;
}
