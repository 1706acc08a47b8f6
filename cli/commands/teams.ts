// `switchboard teams`, `team show|send`, `tasks` and `task …`: Claude Code
// compatible teams and shared task lists through the hub. With
// SWITCHBOARD_SESSION/SWITCHBOARD_TOKEN set, changes are made as that
// session (its team member name); otherwise as "user".

import type { TaskView } from '../../core/protocol/methods.js';
import { oneOf, optionalCredentials, parse, SESSION_OPTIONS, table, UsageError, withHub, type Ctx } from '../common.js';

export const TEAMS_HELP = `switchboard teams
  Lists Claude Code compatible teams (also the ones Claude Code created).
switchboard team show NAME
  The roster with each member's inbox depth (read, never consumed).
switchboard team send --team T --to MEMBER --message TEXT [--summary S]
  Puts a message in a teammate's inbox, as the acting session (a member of T).
switchboard tasks --team T
  The team's task board.
switchboard task create --team T --subject S [--description D] [--blocked-by 1,2]
switchboard task update ID --team T [--subject S] [--description D] [--status pending|in_progress|completed] [--owner O | --no-owner]
switchboard task claim ID --team T [--as NAME] [--busy-check]
switchboard task assign ID --team T --to NAME
switchboard task delete ID --team T`;

function needTeam(team: string | undefined): string {
  if (!team) throw new UsageError('--team T is required');
  return team;
}

function taskId(raw: string | undefined): string {
  if (raw === undefined || !/^\d{1,15}$/.test(raw)) throw new UsageError('a task ID (a number) is required');
  return raw;
}

function renderTasks(tasks: TaskView[]): string {
  if (tasks.length === 0) return 'No tasks.';
  return table([
    ['ID', 'STATUS', 'OWNER', 'BLOCKED BY', 'SUBJECT'],
    ...tasks.map((t) => [t.id, t.status, t.owner ?? '-', t.blockedBy.join(',') || '-', t.subject]),
  ]);
}

export async function teams(args: string[], ctx: Ctx): Promise<number> {
  parse(args, {});
  const r = await withHub((c) => c.call('teams.list', {}));
  if (ctx.json) ctx.out(JSON.stringify(r));
  else if (r.teams.length === 0) ctx.out(`No teams under ${r.root}.`);
  else ctx.out(table([['TEAM', 'MEMBERS', 'CREATED'], ...r.teams.map((t) => [t.name, String(t.members), new Date(t.createdAt).toISOString()])]));
  return 0;
}

export async function team(args: string[], ctx: Ctx): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'show') {
    const { positionals } = parse(rest, {}, true);
    if (positionals.length !== 1) throw new UsageError('usage: switchboard team show NAME');
    const r = await withHub((c) => c.call('teams.show', { team: positionals[0] as string }));
    if (ctx.json) ctx.out(JSON.stringify(r));
    else {
      const depth = new Map(r.inboxes.map((i) => [i.member, i]));
      ctx.out(`${r.config.name}\n` + table([['MEMBER', 'TYPE', 'INBOX', 'CWD'], ...r.config.members.map((m) => [m.name, m.agentType ?? '-', String(depth.get(m.name)?.depth ?? 0), m.cwd ?? '-'])]));
    }
    return 0;
  }
  if (sub === 'send') {
    const { values } = parse(rest, { ...SESSION_OPTIONS, team: { type: 'string' }, to: { type: 'string' }, message: { type: 'string' }, summary: { type: 'string' } });
    const actor = optionalCredentials(values);
    if (actor === undefined) throw new UsageError('team send acts as a session: set SWITCHBOARD_SESSION and SWITCHBOARD_TOKEN');
    if (!values.to || !values.message) throw new UsageError('team send needs --to MEMBER and --message TEXT');
    const r = await withHub((c) => c.call('teams.send', { ...actor, team: needTeam(values.team), to: values.to!, text: values.message!, ...(values.summary ? { summary: values.summary } : {}) }));
    ctx.out(ctx.json ? JSON.stringify(r) : `written to ${values.to}'s inbox`);
    return 0;
  }
  throw new UsageError('usage: switchboard team show NAME | team send …');
}

export async function tasks(args: string[], ctx: Ctx): Promise<number> {
  const { values } = parse(args, { team: { type: 'string' }, all: { type: 'boolean' } });
  const r = await withHub((c) => c.call('tasks.list', { list: needTeam(values.team), includeInternal: values.all === true }));
  ctx.out(ctx.json ? JSON.stringify(r) : renderTasks(r.tasks));
  return 0;
}

export async function task(args: string[], ctx: Ctx): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parse(
    rest,
    {
      ...SESSION_OPTIONS, team: { type: 'string' }, subject: { type: 'string' }, description: { type: 'string' }, 'blocked-by': { type: 'string' },
      status: { type: 'string' }, owner: { type: 'string' }, 'no-owner': { type: 'boolean' }, as: { type: 'string' }, 'busy-check': { type: 'boolean' }, to: { type: 'string' },
    },
    true,
  );
  const list = needTeam(values.team);
  const actor = optionalCredentials(values) ?? {};
  const show = (t: TaskView): number => {
    ctx.out(ctx.json ? JSON.stringify({ task: t }) : renderTasks([t]));
    return 0;
  };
  switch (sub) {
    case 'create': {
      if (!values.subject) throw new UsageError('task create needs --subject S');
      const blockedBy = values['blocked-by']?.split(',').map((x) => taskId(x.trim()));
      const r = await withHub((c) => c.call('tasks.create', { ...actor, list, subject: values.subject!, description: values.description ?? '', ...(blockedBy ? { blockedBy } : {}) }));
      return show(r.task);
    }
    case 'update': {
      const status = oneOf('--status', values.status, ['pending', 'in_progress', 'completed'] as const);
      const owner = values['no-owner'] ? null : values.owner;
      const r = await withHub((c) =>
        c.call('tasks.update', {
          ...actor, list, id: taskId(positionals[0]), ...(values.subject ? { subject: values.subject } : {}), ...(values.description !== undefined ? { description: values.description } : {}),
          ...(status ? { status } : {}), ...(owner !== undefined ? { owner } : {}),
        }),
      );
      return show(r.task);
    }
    case 'claim': {
      const r = await withHub((c) => c.call('tasks.claim', { ...actor, list, id: taskId(positionals[0]), ...(values.as ? { owner: values.as } : {}), busyCheck: values['busy-check'] === true }));
      return show(r.task);
    }
    case 'assign': {
      if (!values.to) throw new UsageError('task assign needs --to NAME');
      const r = await withHub((c) => c.call('tasks.assign', { ...actor, team: list, id: taskId(positionals[0]), owner: values.to! }));
      return show(r.task);
    }
    case 'delete': {
      const r = await withHub((c) => c.call('tasks.delete', { ...actor, list, id: taskId(positionals[0]) }));
      ctx.out(ctx.json ? JSON.stringify(r) : r.deleted ? 'deleted' : 'no such task');
      return r.deleted ? 0 : 1;
    }
    default:
      throw new UsageError('usage: switchboard task create|update|claim|assign|delete …');
  }
}
