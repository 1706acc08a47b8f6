// Which signals stop the hub and which it outlives. Node's defaults end the
// process on a dozen signals nobody sends to mean "stop" (SIGUSR2, SIGALRM,
// SIGPROF, SIGXFSZ …), and SIGUSR1 opens an unauthenticated debugger on
// 127.0.0.1:9229 that any local user could then drive with the hub's rights.
// Here the signals people send to stop a program (SIGINT, SIGTERM, SIGHUP
// for a closed terminal, SIGQUIT for Ctrl-\) start the orderly stop once;
// a second one has Node's default again, the way to force a stop that hangs.
// Every other signal that would end the process is logged (at most one line
// per signal a minute) and ignored. Untouched: the faults (SIGSEGV, SIGBUS,
// SIGFPE, SIGILL, SIGABRT: Node cannot run JavaScript safely after a real
// one), job control (SIGTSTP, SIGTTIN, SIGTTOU pause, never end), and
// SIGKILL and SIGSTOP, which no process can catch (the journal is why a
// killed hub loses nothing). Works on a narrow port; tests pass an emitter.

import os from 'node:os';
import type { Logger } from './logger.js';

/** The signals that stop the hub in order. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const;

/** Signals whose default ends the process but that nobody sends to stop a server (only those this platform has are used). */
export const OUTLIVED_SIGNALS = [
  'SIGUSR1',
  'SIGUSR2',
  'SIGALRM',
  'SIGVTALRM',
  'SIGPROF',
  'SIGXCPU',
  'SIGXFSZ',
  'SIGTRAP',
  'SIGSYS',
  'SIGPWR',
  'SIGSTKFLT',
  'SIGIO',
  'SIGPOLL',
  'SIGEMT',
  'SIGLOST',
] as const;

/** An ignored signal is logged at most once per this many milliseconds (per signal). */
const LOG_EVERY_MS = 60_000;

/** The part of `process` this uses; tests pass an EventEmitter. */
export interface SignalProcess {
  on(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  off(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
}

export interface SignalOptions {
  /** Signal names this platform has, with their numbers (aliases such as SIGIO and SIGPOLL share one). */
  available?: Readonly<Record<string, number>>;
  now?: () => number;
}

/** The signals of `names` this platform has, one name per signal number. */
function present(names: readonly string[], available: Readonly<Record<string, number>>): NodeJS.Signals[] {
  const seen = new Set<number>();
  const out: NodeJS.Signals[] = [];
  for (const name of names) {
    const n = available[name];
    if (n === undefined || seen.has(n)) continue;
    seen.add(n);
    out.push(name as NodeJS.Signals);
  }
  return out;
}

/**
 * Installs the stop and ignore listeners; `onStop` runs on the first stop signal.
 * Returns the disposer, which removes every listener still installed.
 */
export function handleSignals(
  proc: SignalProcess,
  log: Logger,
  onStop: (signal: NodeJS.Signals) => void,
  opts: SignalOptions = {},
): () => void {
  const available = opts.available ?? os.constants.signals;
  const now = opts.now ?? Date.now;
  const stops = present(STOP_SIGNALS, available);
  const ignored = present(OUTLIVED_SIGNALS, available);
  const lastLog = new Map<NodeJS.Signals, { at: number; since: number }>();
  let stopping = false;

  const removeStops = (): void => {
    for (const s of stops) proc.off(s, stop);
  };
  const removeIgnored = (): void => {
    for (const s of ignored) proc.off(s, ignore);
  };
  function stop(signal: NodeJS.Signals): void {
    if (stopping) return;
    stopping = true;
    removeStops();
    log.info(`${signal}: the hub stops (send it again to end the process at once)`);
    onStop(signal);
  }
  function ignore(signal: NodeJS.Signals): void {
    const t = now();
    const last = lastLog.get(signal);
    if (last !== undefined && t - last.at < LOG_EVERY_MS) {
      last.since++;
      return;
    }
    const more = last !== undefined && last.since > 0 ? ` (and ${last.since} more since the last line)` : '';
    lastLog.set(signal, { at: t, since: 0 });
    log.warn(`${signal} ignored${more}: the hub stops only on ${stops.join(', ')}`);
  }
  for (const s of stops) proc.on(s, stop);
  for (const s of ignored) proc.on(s, ignore);
  return () => {
    if (!stopping) removeStops();
    removeIgnored();
  };
}
