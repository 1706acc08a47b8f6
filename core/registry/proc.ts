// Process liveness with pid-reuse detection. The start time is an opaque
// string compared for equality: Linux field 22 of /proc/<pid>/stat, macOS
// `ps -o lstart=` in UTC, elsewhere unknown (liveness then rests on the pid
// and the lease). Never throws.

import { createRequire } from 'node:module';
import fs from 'node:fs';

/** child_process loads only on macOS, where it is needed (hooks start faster without it). */
function execFileSync(): typeof import('node:child_process').execFileSync {
  return (createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process')).execFileSync;
}

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

export function processStartTime(pid: number, platform: NodeJS.Platform = process.platform): string | undefined {
  try {
    if (platform === 'linux') {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The command name (field 2) may contain spaces and parentheses.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return rest[19]; // field 22 overall: fields start at 3 after the name
    }
    if (platform === 'darwin') {
      const out = execFileSync()('ps', ['-o', 'lstart=', '-p', String(pid)], {
        env: { ...process.env, TZ: 'UTC' },
        encoding: 'utf8',
        timeout: 2000,
      });
      return out.trim() || undefined;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** The process identity used to detect pid reuse. */
export interface ProcessIdentity {
  pid: number;
  startTime: string | undefined;
}

export function processIdentity(pid: number): ProcessIdentity | undefined {
  if (!pidAlive(pid)) return undefined;
  return { pid, startTime: processStartTime(pid) };
}

export function sameProcessAlive(id: ProcessIdentity): boolean {
  if (!pidAlive(id.pid)) return false;
  if (id.startTime === undefined) return true;
  return processStartTime(id.pid) === id.startTime;
}
