// The one place a domain error becomes a wire error (core/host/api/wire-errors.ts):
// each coded domain error gets its wire reason and data with itself as the
// cause, whether a handler throws it or rejects with it; a HubError and an
// unknown error pass unchanged (the RPC server answers the latter `internal`).
import { describe, expect, it } from 'vitest';
import { toWire, wired } from '../../../core/host/api/wire-errors.js';
import { HistoryOffError } from '../../../core/history/recorder.js';
import { HubError } from '../../../core/protocol/errors.js';
import { UserSettingsError } from '../../../core/settings/user-file.js';
import { OutOfResourcesError } from '../../../core/storage/bounded-read.js';
import { UnreadableFileError } from '../../../core/storage/unreadable.js';
import { TaskError } from '../../../core/tasks/task-list.js';
import { LockTimeoutError } from '../../../core/teams/lock.js';
import { RosterError } from '../../../core/teams/roster.js';
import { TeamSendError } from '../../../core/teams/teams.js';

const cases: Array<[string, Error, string, unknown]> = [
  [
    'an unreadable file',
    new UnreadableFileError('task_unreadable', '/t/1.json', 'too big'),
    'task_unreadable',
    { file: '/t/1.json', problem: 'too big' },
  ],
  ['a missing task', new TaskError('not_found', 'no task 7'), 'task_not_found', undefined],
  ['a claimed task', new TaskError('already_claimed', 'taken'), 'already_claimed', undefined],
  [
    'no file descriptors',
    new OutOfResourcesError('/t/x', 'EMFILE'),
    'overloaded',
    { file: '/t/x', detail: expect.stringContaining('EMFILE') },
  ],
  ['a lock not had in time', new LockTimeoutError('/t/config.json', 30), 'lock_timeout', { file: '/t/config.json' }],
  ['a team that exists', new RosterError('team_exists', 'exists'), 'team_exists', undefined],
  ['a reserved team name', new RosterError('reserved_name', 'reserved'), 'name_invalid', undefined],
  ['a broken team config', new RosterError('bad_config', 'bad'), 'team_not_found', undefined],
  ['a team member not found', new TeamSendError('no_member', 'who'), 'member_not_found', undefined],
  [
    'history that is off',
    new HistoryOffError('node:sqlite is missing'),
    'history_off',
    { reason: 'node:sqlite is missing' },
  ],
  [
    'a refused setting',
    new UserSettingsError('invalid value for throttle.bucketSize: too small'),
    'invalid_params',
    { issues: ['invalid value for throttle.bucketSize: too small'] },
  ],
];

describe('toWire', () => {
  it.each(cases)('%s gets its wire reason and data, with itself as the cause', (_what, err, reason, data) => {
    const wire = toWire(err) as HubError;
    expect(wire).toBeInstanceOf(HubError);
    expect({ reason: wire.reason, data: wire.data, cause: wire.cause }).toEqual({ reason, data, cause: err });
  });

  it('passes a HubError and an unknown error unchanged', () => {
    const hub = new HubError('target_not_found');
    const other = new TypeError('a bug');
    expect([toWire(hub), toWire(other)]).toEqual([hub, other]);
  });
});

describe('wired', () => {
  const err = new TaskError('blocked', 'blocked by 2');
  it('maps a synchronous throw', () => {
    expect(() =>
      wired(() => {
        throw err;
      }),
    ).toThrow(expect.objectContaining({ reason: 'blocked' }));
  });
  it('maps a rejection', async () => {
    await expect(wired(() => Promise.reject(err))).rejects.toMatchObject({ reason: 'blocked', cause: err });
  });
  it('returns a value or a resolved promise as it is', async () => {
    expect(wired(() => 1)).toBe(1);
    expect(await wired(() => Promise.resolve(2))).toBe(2);
  });
});
