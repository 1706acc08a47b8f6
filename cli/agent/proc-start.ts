// A process's start time for the CLI (hooks, adapters: short-lived processes
// that may block): Linux through core/registry/proc.ts, macOS by `ps -o
// lstart=` in UTC (the same text the hub reads in batches). The hub never
// imports this file: nothing on its loop waits for a child process.

import { createRequire } from 'node:module';
import { processStartTime as linuxStartTime } from '../../core/registry/proc.js';

/** child_process loads only on macOS, where it is needed (hooks start faster without it). */
function execFileSync(): typeof import('node:child_process').execFileSync {
  return (createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process')).execFileSync;
}

export function processStartTime(pid: number, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform !== 'darwin') return linuxStartTime(pid, platform);
  try {
    const out = execFileSync()('ps', ['-o', 'lstart=', '-p', String(pid)], {
      env: { ...process.env, TZ: 'UTC' },
      encoding: 'utf8',
      timeout: 2000,
    });
    return out.trim() || undefined;
  } catch {
    return undefined;
  }
}
