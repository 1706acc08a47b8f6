// Opening what a hub owns on disk, before anything else starts: the private
// runtime, socket and state directories, the state-directory lock (one hub
// per journal) and the journal with its replayed state. Fails closed: an
// unsafe directory (EndpointError), a live hub on the same socket
// (HubRunningError), a state directory or journal it cannot safely own
// (JournalError); on failure it releases what it took. Then the inboxes over
// the journal, and the quiet marks the command hooks read.

import { Mailboxes } from '../delivery/mailboxes.js';
import { QuietMarks } from '../delivery/quiet-marks.js';
import { Journal, JournalError, type JournalState } from '../journal/journal.js';
import type { Clock } from '../kit/clock.js';
import { lockStateDir, type StateLock } from '../journal/state-lock.js';
import type { Logger } from '../kit/logger.js';
import type { Limits } from '../protocol/limits.js';
import { ensurePrivateDir, type EndpointEnv, type EndpointPaths } from '../transport/endpoint.js';
import { HubRunningError } from '../transport/hub-lock.js';

export interface OpenedState {
  stateLock: StateLock;
  journal: Journal;
  state: JournalState;
  /** Each session's "nothing pending" mark for its command hooks (delivery/quiet-marks.ts). */
  quiet: QuietMarks;
  mailboxes: Mailboxes;
}

export async function openState(
  env: EndpointEnv,
  paths: EndpointPaths,
  limits: Limits,
  log: Logger,
  /** Who writes the journal's format header (`switchboard <version>`). */
  writer: string,
  clock: Clock,
): Promise<OpenedState> {
  if (!paths.windows) {
    ensurePrivateDir(paths.runtimeDir, env.uid);
    ensurePrivateDir(paths.socketDir, env.uid, 'socket');
  }
  ensurePrivateDir(paths.stateDir, env.uid, 'state');
  const stateLock = await lockStateDir(paths.stateDir, { socket: paths.hubSocket, runtimeDir: paths.runtimeDir }).catch(
    (err: unknown) => {
      // Same socket: the familiar "already running" answer.
      throw err instanceof JournalError && err.holder?.socket === paths.hubSocket
        ? new HubRunningError(paths.hubSocket)
        : err;
    },
  );
  try {
    const { journal, state } = await Journal.open(paths.stateDir, {
      syncMs: limits.journalSyncMs,
      compactBytes: limits.journalCompactBytes,
      lineBytes: limits.journalLineBytes,
      uid: env.uid,
      log,
      writer,
    });
    const quiet = new QuietMarks({
      runtimeDir: paths.runtimeDir,
      hubPid: process.pid,
      clock,
      ttlMs: limits.quietMarkMs,
      log,
      enabled: !paths.windows,
    });
    const mailboxes = new Mailboxes(journal, limits.inboxItems, state.items, quiet);
    return { stateLock, journal, state, quiet, mailboxes };
  } catch (err) {
    stateLock.release();
    throw err;
  }
}
