// @vitest-environment happy-dom
// The Teams view with a fake bridge: a team can be created from
// the view, also when there is none yet (it is then selected), and a task's
// status can be changed from the board; failures are shown, not swallowed.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { BridgeError } from '../../renderer/bridge/bridge.js';
import { fakeBridge, type FakeAnswers } from '../fakes/bridge.js';
import { createStores } from '../../renderer/stores/stores.js';
import { TeamsView } from '../../renderer/features/teams.js';
import type { TaskView } from '../../core/protocol/methods.js';

afterEach(cleanup);

/** A bridge over an in-memory set of teams and tasks, recording every call. */
function fakeHub() {
  const teams: Array<{ name: string; dir: string; members: number; createdAt: number; leadSessionId: string | null }> =
    [];
  const tasks = new Map<string, TaskView[]>();
  const answers: FakeAnswers = {
    'teams.list': () => ({ root: '/c', teams: [...teams] }),
    'teams.show': (i) => ({
      config: { name: i.team, members: [{ name: 'team-lead', agentId: `team-lead@${String(i.team)}` }] },
      inboxes: [],
    }),
    'tasks.list': (i) => ({ tasks: tasks.get(String(i.list)) ?? [] }),
    'teams.create': (i) => {
      const name = String(i.team);
      if (teams.some((t) => t.name === name)) throw new BridgeError('team_exists', 'A team with that name exists');
      teams.push({ name, dir: name, members: 1, createdAt: 1, leadSessionId: '' });
      return { config: { name, members: [{ name: 'team-lead', agentId: `team-lead@${name}` }] } };
    },
    'tasks.update': (i) => {
      const list = tasks.get(String(i.list)) ?? [];
      const task = list.find((t) => t.id === i.id);
      if (task === undefined) throw new BridgeError('task_not_found', 'No such task');
      task.status = i.status as TaskView['status'];
      return { task };
    },
  };
  const { bridge, calls } = fakeBridge(answers);
  return { bridge, calls, teams, tasks };
}

function task(id: string, status: TaskView['status']): TaskView {
  return { id, subject: `task ${id}`, description: '', status, blocks: [], blockedBy: [] };
}

/** Waits for `check`, letting React and the fakes run between looks; the 30 s bound only ends a hang. */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check() && Date.now() < deadline)
    await act(async () => {
      await new Promise((r) => setTimeout(r, 10));
    });
  expect(check()).toBe(true);
}

describe('Teams view', () => {
  /** The view with no teams, after "release crew" was created from it. */
  const createdOne = async () => {
    const hub = fakeHub();
    const stores = createStores(hub.bridge);
    render(<TeamsView stores={stores} />);
    void stores.teams.getState().load(); // the app's first load
    await until(() => screen.queryByText(/No teams yet/) !== null);
    const input = screen.getByLabelText('New team name');
    fireEvent.change(input, { target: { value: 'release crew' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create team' }));
    await until(() => stores.teams.getState().data.selected === 'release crew');
    return hub;
  };

  it('creates a team when there is none and selects it', async () => {
    const hub = await createdOne();
    expect(hub.calls).toContainEqual(['teams.create', { team: 'release crew' }]);
    expect(screen.getByLabelText<HTMLSelectElement>('Team').value).toBe('release crew');
    expect(screen.getByTestId('task-board')).toBeTruthy();
  });

  it('says why a second team with that name fails', async () => {
    await createdOne();
    fireEvent.change(screen.getByLabelText('New team name'), { target: { value: 'release crew' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create team' }));
    await until(() => screen.queryByRole('alert') !== null);
    expect(screen.getByRole('alert').textContent).toContain('A team with that name exists');
  });

  it("moves a task between columns with its status control (tasks.update with the task's list and id)", async () => {
    const hub = fakeHub();
    hub.teams.push({ name: 'crew', dir: 'crew', members: 1, createdAt: 1, leadSessionId: 's' });
    hub.tasks.set('crew', [task('1', 'pending'), task('2', 'in_progress')]);
    const stores = createStores(hub.bridge);
    render(<TeamsView stores={stores} />);
    void stores.teams.getState().load(); // the app's first load
    await until(() => screen.queryByTestId('task-1') !== null);
    const column = (title: string): HTMLElement => screen.getByRole('heading', { name: title }).parentElement!;
    expect(within(column('pending')).queryByTestId('task-1')).not.toBeNull();

    const status = screen.getByLabelText<HTMLSelectElement>('Status of task 1');
    expect(status.value).toBe('pending');
    fireEvent.change(status, { target: { value: 'completed' } });
    await until(() => within(column('completed')).queryByTestId('task-1') !== null);
    expect(hub.calls).toContainEqual(['tasks.update', { list: 'crew', id: '1', status: 'completed' }]);
    expect(within(column('pending')).queryByTestId('task-1')).toBeNull();
    expect(screen.getByLabelText<HTMLSelectElement>('Status of task 2').value).toBe('in_progress');
  });
});
