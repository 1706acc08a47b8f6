// Ending the processes a test starts. A test that removes a directory while
// a process it started may still write there leaks (the temp check then
// fails the file) or races the next test, so every stop waits for the exit:
// stopProcess() signals, waits for the exit event, escalates to SIGKILL after
// a bound only a real hang reaches, and waits again. ESLint forbids a bare
// `.kill(` in test/ (eslint.config.js); this file is the one place allowed.
//
// sendSignal() is for tests whose subject is a signal (a hub must survive
// SIGUSR2, a SIGKILLed hub must lose nothing): it delivers and does not
// wait, and the process is still stopped with stopProcess() afterwards.

import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { pidAlive } from '../../core/registry/proc.js';

export { pidAlive };

/** How long a signalled process may take to exit before SIGKILL: only a hang reaches it, never a slow machine. */
export const EXIT_GRACE_MS = 15_000;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

function exited(child: ChildProcess): Exit | undefined {
  return child.exitCode !== null || child.signalCode !== null
    ? { code: child.exitCode, signal: child.signalCode }
    : undefined;
}

/** Resolves on the child's exit (at once when it has already exited). */
export function exitOf(child: ChildProcess): Promise<Exit> {
  const done = exited(child);
  if (done !== undefined) return Promise.resolve(done);
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/**
 * Stops `child` with `signal` and resolves once it has exited. After
 * `graceMs` it sends SIGKILL and waits for that exit too; `escalated` says so.
 */
export async function stopProcess(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGTERM',
  graceMs = EXIT_GRACE_MS,
): Promise<Exit & { escalated: boolean }> {
  const exit = exitOf(child);
  if (exited(child) !== undefined) return { ...(await exit), escalated: false };
  child.kill(signal);
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), graceMs)));
  const first = await Promise.race([exit, hung]);
  clearTimeout(timer);
  if (first !== 'hung') return { ...first, escalated: false };
  child.kill('SIGKILL');
  return { ...(await exit), escalated: true };
}

/** Stops every child (in parallel) and waits for all of them to exit. */
export async function stopAll(children: Iterable<ChildProcess>, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  await Promise.all([...children].map((c) => stopProcess(c, signal)));
}

/**
 * Whether `pid` still runs. A zombie does not: it has exited and only waits for its parent (tmux, a shell) to
 * collect its status, which a loaded machine can take longer than our bound to do (a SIGKILLed Codex window
 * "outlived SIGKILL for 15 s" in a fresh root).
 */
function stillRuns(pid: number): boolean {
  if (!pidAlive(pid)) return false;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return process.platform !== 'linux'; // no /proc: the signal probe decides; on Linux, no entry: it is gone
  }
}

/** Resolves true once no process runs with this pid, checking every 20 ms (no exit event reaches us for a non-child); false after `boundMs`. */
export async function pidGone(pid: number, boundMs = EXIT_GRACE_MS): Promise<boolean> {
  const deadline = Date.now() + boundMs;
  while (stillRuns(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

/**
 * Stops a process that is not our child (a hub started by another process,
 * an agent inside tmux): `signal`, then SIGKILL after `graceMs`, and resolves
 * once the pid is gone.
 */
export async function stopPid(pid: number, signal: NodeJS.Signals = 'SIGTERM', graceMs = EXIT_GRACE_MS): Promise<void> {
  if (!sendSignal(pid, signal) || (await pidGone(pid, graceMs))) return;
  sendSignal(pid, 'SIGKILL');
  if (!(await pidGone(pid))) throw new Error(`process ${pid} outlived SIGKILL for ${EXIT_GRACE_MS} ms`);
}

/** Delivers `signal` to `target` without waiting; false when there is no such process. */
export function sendSignal(target: ChildProcess | number, signal: NodeJS.Signals | 0): boolean {
  try {
    if (typeof target === 'number') process.kill(target, signal);
    else return target.kill(signal);
    return true;
  } catch {
    return false;
  }
}
