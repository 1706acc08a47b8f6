// Teams: rosters (also the teams Claude Code created itself), inbox depths
// (peeked, never consumed), the task board by status with blockers,
// creating a team (Claude Code's config.json, written by the hub under its
// lock, the user as creator), and creating, assigning and moving tasks
// between statuses (tasks.update under the task's lock).
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { TaskView } from '../../core/protocol/methods.js';
import type { Stores } from '../stores/stores.js';
import { useLoadable } from '../ui/hooks.js';
import { Status } from '../ui/state.js';
import { BlockerLines } from './blocker-lines.js';

const COLUMNS: Array<TaskView['status']> = ['pending', 'in_progress', 'completed'];

export function TeamsView({ stores }: { stores: Stores }): ReactNode {
  const s = useLoadable(stores.teams);
  const [subject, setSubject] = useState('');
  const [newTeam, setNewTeam] = useState('');
  const columns = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);
  const team = s.data.selected;
  const run = async (fn: () => Promise<unknown>): Promise<void> => {
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
    await s.load();
  };
  const create = (e: FormEvent): void => {
    e.preventDefault();
    if (team === null || subject.trim() === '') return;
    void run(() => stores.bridge.call('tasks.create', { list: team, subject: subject.trim() }));
    setSubject('');
  };
  const createTeam = (e: FormEvent): void => {
    e.preventDefault();
    const name = newTeam.trim();
    if (name === '') return;
    setNewTeam('');
    void run(async () => {
      const r = await stores.bridge.call('teams.create', { team: name });
      await s.select(r.config.name);
    });
  };
  const setStatus = (id: string, status: TaskView['status']): void => {
    if (team !== null) void run(() => stores.bridge.call('tasks.update', { list: team, id, status }));
  };
  const members = s.data.view?.config.members.map((m) => m.name) ?? [];
  return (
    <section aria-labelledby="teams-h">
      <header className="view-head">
        <h2 id="teams-h">
          Teams <span className="count">{s.data.teams.length}</span>
        </h2>
        {s.data.teams.length > 0 && (
          <select aria-label="Team" value={team ?? ''} onChange={(e) => void s.select(e.target.value)}>
            {s.data.teams.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name}
              </option>
            ))}
          </select>
        )}
        {team !== null && (
          <button onClick={() => void stores.history.getState().open({ kind: 'team', team })}>Its conversation</button>
        )}
        <form onSubmit={createTeam} className="new-team">
          <input
            aria-label="New team name"
            placeholder="New team name"
            maxLength={200}
            value={newTeam}
            onChange={(e) => setNewTeam(e.target.value)}
          />
          <button type="submit" disabled={newTeam.trim() === ''}>
            Create team
          </button>
        </form>
      </header>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <Status
        loading={s.loading}
        error={s.error}
        empty={s.data.teams.length === 0}
        emptyText={
          <p>
            No teams yet. Create one above, or start a Claude Code Agent Team: teams under <code>~/.claude/teams</code>{' '}
            show up here as soon as they exist.
          </p>
        }
      >
        <div className="team">
          <aside>
            <h3>Roster</h3>
            <ul className="roster">
              {s.data.view?.config.members.map((m) => {
                const inbox = s.data.view?.inboxes.find((i) => i.member === m.name);
                return (
                  <li key={m.name}>
                    <span className="mono">{m.name}</span> <span className="dim">{m.agentType ?? ''}</span>{' '}
                    {inbox?.problem !== undefined ? (
                      <span className="badge alert" title={`inbox unreadable: ${inbox.problem}`}>
                        unreadable
                      </span>
                    ) : (
                      <span className="badge" title="inbox depth">
                        {inbox?.depth ?? 0}
                      </span>
                    )}
                  </li>
                );
              })}
            </ul>
          </aside>
          <div className="board" data-testid="task-board">
            <form onSubmit={create} className="new-task">
              <input
                aria-label="New task subject"
                placeholder="New task subject"
                value={subject}
                onChange={(e) => setSubject(e.target.value)}
              />
              <button type="submit">Create task</button>
            </form>
            <div className="columns" ref={columns}>
              <BlockerLines board={columns} tasks={s.data.tasks} />
              {COLUMNS.map((col) => (
                <div key={col} className="column">
                  <h3>{col.replace('_', ' ')}</h3>
                  {s.data.tasks
                    .filter((t) => t.status === col)
                    .map((t) => (
                      <div key={t.id} className="card" data-testid={`task-${t.id}`} data-task-id={t.id}>
                        <div>
                          <span className="dim">#{t.id}</span> {t.subject}
                        </div>
                        {t.blockedBy.length > 0 && (
                          <div className="blocked">blocked by {t.blockedBy.map((b) => `#${b}`).join(', ')}</div>
                        )}
                        <label className="dim">
                          Status{' '}
                          <select
                            aria-label={`Status of task ${t.id}`}
                            value={t.status}
                            onChange={(e) => setStatus(t.id, e.target.value as TaskView['status'])}
                          >
                            {COLUMNS.map((c) => (
                              <option key={c} value={c}>
                                {c.replace('_', ' ')}
                              </option>
                            ))}
                          </select>
                        </label>{' '}
                        <label className="dim">
                          Owner{' '}
                          <select
                            aria-label={`Assign task ${t.id}`}
                            value={t.owner ?? ''}
                            onChange={(e) =>
                              team &&
                              e.target.value &&
                              void run(() =>
                                stores.bridge.call('tasks.assign', { team, id: t.id, owner: e.target.value }),
                              )
                            }
                          >
                            <option value="">—</option>
                            {members.map((m) => (
                              <option key={m} value={m}>
                                {m}
                              </option>
                            ))}
                          </select>
                        </label>
                      </div>
                    ))}
                </div>
              ))}
            </div>
          </div>
        </div>
      </Status>
    </section>
  );
}
