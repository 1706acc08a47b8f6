// The one place a domain error becomes a wire error. Features throw their
// own coded errors (a task that cannot be claimed, a team file we cannot
// read, a lock not had in time, history that is off, a setting the hub
// refuses); the dispatcher passes whatever a handler throws through
// toWire, so every method answers the same failure with the same reason and
// data, and keeps the domain error as the cause for the log. Anything not
// listed here stays as it is: a HubError already is a wire error, and
// anything else is answered `internal` by the RPC server (logged, never
// shown).

import { HistoryOffError } from '../../history/recorder.js';
import { HubError, type ErrorReason } from '../../protocol/errors.js';
import { UserSettingsError } from '../../settings/user-file.js';
import { OutOfResourcesError } from '../../storage/bounded-read.js';
import { UnreadableFileError } from '../../storage/unreadable.js';
import { TaskError } from '../../tasks/task-list.js';
import { LockTimeoutError } from '../../teams/lock.js';
import { RosterError } from '../../teams/roster.js';
import { TeamSendError } from '../../teams/teams.js';

const ROSTER: Record<RosterError['code'], ErrorReason> = {
  team_exists: 'team_exists',
  reserved_name: 'name_invalid',
  no_team: 'team_not_found',
  bad_config: 'team_not_found',
};

const TEAM_SEND: Record<TeamSendError['code'], ErrorReason> = {
  no_team: 'team_not_found',
  no_member: 'member_not_found',
  frame_not_allowed: 'frame_not_allowed',
  role: 'frame_role',
  not_a_member: 'not_a_member',
  not_lead: 'not_lead',
};

/** The wire error for a domain error (with it as the cause); anything else unchanged. */
export function toWire(err: unknown): unknown {
  const cause = { cause: err };
  if (err instanceof UnreadableFileError)
    return new HubError(err.code, { file: err.file, problem: err.problem }, cause);
  if (err instanceof TaskError)
    return new HubError(err.code === 'not_found' ? 'task_not_found' : err.code, undefined, cause);
  if (err instanceof OutOfResourcesError)
    return new HubError('overloaded', { file: err.file, detail: err.message }, cause);
  if (err instanceof LockTimeoutError) return new HubError('lock_timeout', { file: err.file }, cause);
  if (err instanceof RosterError) return new HubError(ROSTER[err.code], undefined, cause);
  if (err instanceof TeamSendError) return new HubError(TEAM_SEND[err.code], undefined, cause);
  if (err instanceof HistoryOffError) return new HubError('history_off', { reason: err.message }, cause);
  if (err instanceof UserSettingsError) return new HubError('invalid_params', { issues: [err.message] }, cause);
  return err;
}

/** Runs a handler, its synchronous throw or its rejection passed through toWire. */
export function wired<T>(run: () => T): T {
  try {
    const r = run();
    if (r instanceof Promise)
      return r.catch((err: unknown) => {
        throw toWire(err);
      }) as T;
    return r;
  } catch (err) {
    throw toWire(err);
  }
}
