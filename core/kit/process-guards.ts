// Last-resort handlers for the processes that hold a hub for days (`switchboard
// serve` and the desktop app's main process, which share them): a rejection
// nobody handled or an exception nobody caught is logged with its stack and
// origin instead of ending the hub silently. Never a substitute for local
// handling (every request path has its own catch). A rejection is logged and
// the hub keeps running; an uncaught exception is logged and the hub shuts
// down in order (onFatal), because Node promises no sane state after one.

import type { Logger } from './logger.js';

/** sysexits.h EX_SOFTWARE: the hub stopped on an internal error. */
export const EXIT_INTERNAL = 70;
/** An orderly shutdown after an uncaught exception gets this long before the process exits anyway. */
export const FATAL_EXIT_MS = 5000;

/** The part of `process` the guards use; tests pass an EventEmitter. */
export interface GuardedProcess {
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  on(event: 'uncaughtException', listener: (err: Error, origin: string) => void): unknown;
  off(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  off(event: 'uncaughtException', listener: (err: Error, origin: string) => void): unknown;
}

function described(value: unknown): Record<string, unknown> {
  if (value instanceof Error) return { error: value.name, stack: value.stack ?? `${value.name}: ${value.message}` };
  return { error: typeof value, value: String(value).slice(0, 500) };
}

/** Installs both handlers; returns the disposer. `onFatal` runs once, on the first uncaught exception. */
export function installProcessGuards(proc: GuardedProcess, log: Logger, onFatal: (err: Error) => void): () => void {
  let fatal = false;
  const onRejection = (reason: unknown): void => {
    log.error('unhandled promise rejection (the hub keeps running; please report this)', {
      origin: 'unhandledRejection',
      ...described(reason),
    });
  };
  const onException = (err: Error, origin: string): void => {
    log.error('uncaught exception: the hub shuts down (please report this)', { origin, ...described(err) });
    if (fatal) return;
    fatal = true;
    onFatal(err);
  };
  proc.on('unhandledRejection', onRejection);
  proc.on('uncaughtException', onException);
  return () => {
    proc.off('unhandledRejection', onRejection);
    proc.off('uncaughtException', onException);
  };
}
