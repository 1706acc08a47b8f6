// Hub methods for teams and shared tasks. Reads never consume another
// program's inbox. The actor of a change is the session whose credentials
// come with it (its team member name, else its session name), or "user";
// a member name written into an inbox must be backed by the roster. Storage
// failures map to fixed error reasons (an unreadable file names itself and is
// never written); a lock timeout is an error, never a silent drop.

import { randomUUID } from 'node:crypto';
import { recordOutbound } from '../../history/outbound.js';
import { HubError } from '../../protocol/errors.js';
import type { MethodName } from '../../protocol/methods.js';
import type { Hub } from '../hub.js';
import type { SessionRecord } from '../../registry/session.js';
import type { Caller } from './dispatch.js';
import type { Handler } from './dispatch.js';

type TeamMethod = Extract<MethodName, `teams.${string}` | `tasks.${string}`>;
export type TeamHandlers = { [M in TeamMethod]: Handler<M> };

export function createTeamHandlers(hub: Hub): TeamHandlers {
  /** The actor of a change: the calling session's member name, else its name, else the user. */
  const actor = (s: SessionRecord | undefined): string => (s === undefined ? 'user' : (s.member ?? s.name));
  return {
    'teams.list': async () => ({ root: hub.teams.root, teams: await hub.teams.list() }),

    'teams.show': async (p) => {
      const view = await hub.teams.show(p.team);
      if (view === undefined) throw new HubError('team_not_found');
      return view;
    },

    'teams.create': async (p, { session: s }: Caller<'actor'>) => {
      if (!/[a-z0-9]/i.test(p.team)) throw new HubError('name_invalid'); // its directory would be only dashes
      const config = await hub.teams.roster(p.team).create({
        name: p.team,
        leadSessionId: s?.id ?? '',
        cwd: p.cwd ?? s?.cwd ?? hub.home,
        now: hub.clock.now(),
      });
      return { config };
    },

    'teams.send': async (p, { session: s }: Caller<'session'>) => {
      if (s.member === null || s.team === null || s.team !== p.team) throw new HubError('not_a_member');
      const member = s.member;
      const leaving = {
        msgId: randomUUID(),
        at: hub.clock.now(),
        sender: { id: s.id, name: s.name, address: s.address, team: s.team },
        receiver: { id: `team:${p.team}/${p.to}`, name: p.to, team: p.team },
        summary: p.summary ?? null,
        text: p.text,
      };
      await recordOutbound(hub.history, leaving, async () => {
        await hub.teams.send({
          team: p.team,
          from: { sessionId: s.id, member },
          to: p.to,
          text: p.text,
          ...(p.summary ? { summary: p.summary } : {}),
        });
        return { status: 'sent', reason: `in ${p.to}'s mailbox of team ${p.team}` };
      });
      return { delivered: 'inbox' as const };
    },

    'tasks.list': async (p) => ({
      tasks: await hub.teams.tasks(p.list).list({ includeInternal: p.includeInternal === true }),
    }),

    'tasks.get': async (p) => {
      const task = await hub.teams.tasks(p.list).get(p.id);
      if (task === undefined) throw new HubError('task_not_found');
      return { task };
    },

    'tasks.create': async (p) => {
      const task = await hub.teams.tasks(p.list).create({
        subject: p.subject,
        description: p.description,
        ...(p.activeForm !== undefined ? { activeForm: p.activeForm } : {}),
        ...(p.blockedBy !== undefined ? { blockedBy: p.blockedBy } : {}),
        ...(p.metadata !== undefined ? { metadata: p.metadata } : {}),
      });
      return { task };
    },

    'tasks.update': async (p) => {
      const { list, id, sessionId: _s, token: _t, addBlocks, addBlockedBy, ...patch } = p;
      const tasks = hub.teams.tasks(list);
      // Edges first: they are the part that can be refused (missing task, self-block, cycle).
      const linked =
        addBlocks !== undefined || addBlockedBy !== undefined
          ? await tasks.link(id, {
              ...(addBlocks ? { blocks: addBlocks } : {}),
              ...(addBlockedBy ? { blockedBy: addBlockedBy } : {}),
            })
          : undefined;
      if (linked !== undefined && Object.keys(patch).length === 0) return { task: linked };
      return { task: await tasks.update(id, patch) };
    },

    'tasks.claim': async (p, { session }: Caller<'actor'>) => ({
      task: await hub.teams.tasks(p.list).claim(p.id, p.owner ?? actor(session), { busyCheck: p.busyCheck === true }),
    }),

    'tasks.assign': async (p, { session: s }: Caller<'actor'>) => {
      // The frame's author: a member of this team (checked against the roster), else the session's name or "user".
      const by =
        s === undefined
          ? 'user'
          : s.member !== null && s.team === p.team
            ? { sessionId: s.id, member: s.member }
            : s.name;
      return { task: await hub.teams.assign(p.team, p.id, p.owner, by) };
    },

    'tasks.delete': async (p) => {
      return { deleted: await hub.teams.tasks(p.list).delete(p.id) };
    },

    'tasks.release': async (p) => {
      return { released: await hub.teams.tasks(p.list).release(p.owner) };
    },
  };
}
