// `switchboard teams`, `team show|send`, `tasks` and `task …`: Claude Code
// compatible teams and shared task lists through the hub. With
// SWITCHBOARD_SESSION/SWITCHBOARD_TOKEN set, changes are made as that
// session (its team member name); otherwise as "user".

import path from 'node:path';
import type { TaskView } from '../../core/protocol/methods.js';
import {
  atMost,
  oneOf,
  optionalCredentials,
  parse,
  SESSION_OPTIONS,
  table,
  UsageError,
  withHub,
  type Ctx,
} from '../common.js';

export const TEAMS_HELP = `switchboard teams
  Lists Claude Code compatible teams (also the ones Claude Code created).
switchboard team create NAME [--cwd DIR]
  A new team in Claude Code's format (config.json under its lock); its lead is the acting session,
  or no session when none is set. Refused when the team exists.
switchboard team show NAME
  The roster with each member's inbox depth (read, never consumed).
switchboard team send --team T --to MEMBER --message TEXT [--summary S]
  Puts a message in a teammate's inbox, as the acting session (a member of T).
switchboard tasks --team T
  The team's task board.
switchboard task create --team T --subject S [--description D] [--blocked-by 1,2]
switchboard task update ID --team T [--subject S] [--description D] [--status pending|in_progress|completed]
                      [--owner O | --no-owner] [--add-blocked-by 1,2] [--add-blocks 3]
  Each subcommand takes only its own flags; any other flag is a usage error (exit 2).
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

/** `1,2` → ['1', '2'], each a task id, duplicates dropped. */
function idList(flag: string, raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const ids = raw.split(',').map((x) => x.trim());
  if (ids.some((x) => !/^\d{1,15}$/.test(x)))
    throw new UsageError(`${flag} takes task IDs separated by commas, like 1,2`);
  return [...new Set(ids)];
}

function renderTasks(tasks: TaskView[]): string {
  if (tasks.length === 0) return 'No tasks.';
  return table([
    ['ID', 'STATUS', 'OWNER', 'BLOCKED BY', 'SUBJECT'],
    ...tasks.map((t) => [t.id, t.status, t.owner ?? '-', t.blockedBy.join(',') || '-', t.subject]),
  ]);
}

export async function teams(args: string[], ctx: Ctx): Promise<number> {
  parse(args, {}, false, 'teams');
  const r = await withHub((c) => c.call('teams.list', {}));
  if (ctx.json) ctx.out(JSON.stringify(r));
  else if (r.teams.length === 0) ctx.out(`No teams under ${r.root}.`);
  else {
    // A roster we cannot read is listed with its problem, never as an empty team from 1970.
    const row = (t: (typeof r.teams)[number]): string[] =>
      t.problem
        ? [t.name, '?', `unreadable: ${t.problem.file} ${t.problem.problem}`]
        : [t.name, String(t.members), new Date(t.createdAt).toISOString()];
    ctx.out(table([['TEAM', 'MEMBERS', 'CREATED'], ...r.teams.map(row)]));
  }
  return 0;
}

export async function team(args: string[], ctx: Ctx): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'create') {
    const { values, positionals } = parse(rest, { ...SESSION_OPTIONS, cwd: { type: 'string' } }, true, 'team create');
    if (positionals.length !== 1) throw new UsageError('usage: switchboard team create NAME [--cwd DIR]');
    const actor = await optionalCredentials(values);
    const r = await withHub((c) =>
      c.call('teams.create', {
        ...(actor ?? {}),
        team: positionals[0] as string,
        ...(values.cwd !== undefined ? { cwd: path.resolve(values.cwd) } : {}),
      }),
    );
    const lead = r.config.leadSessionId ? 'this session' : 'no session (created by the user)';
    ctx.out(ctx.json ? JSON.stringify(r) : `created team ${r.config.name}; its lead: ${lead}`);
    return 0;
  }
  if (sub === 'show') {
    const { positionals } = parse(rest, {}, true, 'team show');
    if (positionals.length !== 1) throw new UsageError('usage: switchboard team show NAME');
    const r = await withHub((c) => c.call('teams.show', { team: positionals[0] as string }));
    if (ctx.json) ctx.out(JSON.stringify(r));
    else {
      const inbox = new Map(r.inboxes.map((i) => [i.member, i]));
      // An inbox we cannot read is said to be unreadable, with why: never shown as empty.
      const depthOf = (member: string): string => {
        const i = inbox.get(member);
        if (i === undefined) return '0';
        return i.problem !== undefined ? `unreadable: ${i.problem}` : String(i.depth);
      };
      ctx.out(
        `${r.config.name}\n` +
          table([
            ['MEMBER', 'TYPE', 'INBOX', 'CWD'],
            ...r.config.members.map((m) => [m.name, m.agentType ?? '-', depthOf(m.name), m.cwd ?? '-']),
          ]),
      );
    }
    return 0;
  }
  if (sub === 'send') {
    const { values } = parse(
      rest,
      {
        ...SESSION_OPTIONS,
        team: { type: 'string' },
        to: { type: 'string' },
        message: { type: 'string' },
        summary: { type: 'string' },
      },
      false,
      'team send',
    );
    const actor = await optionalCredentials(values);
    if (actor === undefined)
      throw new UsageError('team send acts as a session: set SWITCHBOARD_SESSION and SWITCHBOARD_TOKEN');
    if (!values.to || !values.message) throw new UsageError('team send needs --to MEMBER and --message TEXT');
    const r = await withHub((c) =>
      c.call('teams.send', {
        ...actor,
        team: needTeam(values.team),
        to: values.to!,
        text: values.message!,
        ...(values.summary ? { summary: values.summary } : {}),
      }),
    );
    ctx.out(ctx.json ? JSON.stringify(r) : `written to ${values.to}'s inbox`);
    return 0;
  }
  throw new UsageError('usage: switchboard team create NAME | team show NAME | team send …');
}

export async function tasks(args: string[], ctx: Ctx): Promise<number> {
  const { values } = parse(args, { team: { type: 'string' }, all: { type: 'boolean' } }, false, 'tasks');
  const r = await withHub((c) =>
    c.call('tasks.list', { list: needTeam(values.team), includeInternal: values.all === true }),
  );
  ctx.out(ctx.json ? JSON.stringify(r) : renderTasks(r.tasks));
  return 0;
}

const TEAM = { ...SESSION_OPTIONS, team: { type: 'string' } } as const;
const STR = { type: 'string' } as const;
const BOOL = { type: 'boolean' } as const;

/** Each task subcommand's own flags: nothing else is accepted. */
const TASK_FLAGS = {
  create: { ...TEAM, subject: STR, description: STR, 'blocked-by': STR },
  update: {
    ...TEAM,
    subject: STR,
    description: STR,
    status: STR,
    owner: STR,
    'no-owner': BOOL,
    'add-blocked-by': STR,
    'add-blocks': STR,
  },
  claim: { ...TEAM, as: STR, 'busy-check': BOOL },
  assign: { ...TEAM, to: STR },
  delete: TEAM,
} as const;
type TaskSub = keyof typeof TASK_FLAGS;

export async function task(args: string[], ctx: Ctx): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || !Object.prototype.hasOwnProperty.call(TASK_FLAGS, sub))
    throw new UsageError('usage: switchboard task create|update|claim|assign|delete …');
  const name = sub as TaskSub;
  const show = (t: TaskView): number => {
    ctx.out(ctx.json ? JSON.stringify({ task: t }) : renderTasks([t]));
    return 0;
  };
  /** Parses this subcommand's flags; every subcommand but create takes exactly one ID. */
  const parsed = async <F extends (typeof TASK_FLAGS)[TaskSub]>(flags: F) => {
    const { values, positionals } = parse(rest, flags, true, `task ${name}`);
    atMost(
      positionals,
      name === 'create' ? 0 : 1,
      `switchboard task ${name}${name === 'create' ? '' : ' ID'} --team T …`,
    );
    const v = values as { team?: string; session?: string; 'token-file'?: string };
    const list = needTeam(v.team);
    const actor = (await optionalCredentials(v)) ?? {};
    return { values, list, actor, id: name === 'create' ? '' : taskId(positionals[0]) };
  };
  switch (name) {
    case 'create': {
      const { values, list, actor } = await parsed(TASK_FLAGS.create);
      if (!values.subject) throw new UsageError('task create needs --subject S');
      const blockedBy = idList('--blocked-by', values['blocked-by']);
      const r = await withHub((c) =>
        c.call('tasks.create', {
          ...actor,
          list,
          subject: values.subject!,
          description: values.description ?? '',
          ...(blockedBy ? { blockedBy } : {}),
        }),
      );
      return show(r.task);
    }
    case 'update': {
      const { values, list, actor, id } = await parsed(TASK_FLAGS.update);
      const status = oneOf('--status', values.status, ['pending', 'in_progress', 'completed'] as const);
      if (values['no-owner'] && values.owner !== undefined)
        throw new UsageError('task update takes --owner O or --no-owner, not both');
      const owner = values['no-owner'] ? null : values.owner;
      const addBlockedBy = idList('--add-blocked-by', values['add-blocked-by']);
      const addBlocks = idList('--add-blocks', values['add-blocks']);
      const r = await withHub((c) =>
        c.call('tasks.update', {
          ...actor,
          list,
          id,
          ...(values.subject ? { subject: values.subject } : {}),
          ...(values.description !== undefined ? { description: values.description } : {}),
          ...(status ? { status } : {}),
          ...(owner !== undefined ? { owner } : {}),
          ...(addBlockedBy ? { addBlockedBy } : {}),
          ...(addBlocks ? { addBlocks } : {}),
        }),
      );
      return show(r.task);
    }
    case 'claim': {
      const { values, list, actor, id } = await parsed(TASK_FLAGS.claim);
      const r = await withHub((c) =>
        c.call('tasks.claim', {
          ...actor,
          list,
          id,
          ...(values.as ? { owner: values.as } : {}),
          busyCheck: values['busy-check'] === true,
        }),
      );
      return show(r.task);
    }
    case 'assign': {
      const { values, list, actor, id } = await parsed(TASK_FLAGS.assign);
      if (!values.to) throw new UsageError('task assign needs --to NAME');
      const r = await withHub((c) => c.call('tasks.assign', { ...actor, team: list, id, owner: values.to! }));
      return show(r.task);
    }
    case 'delete': {
      const { list, actor, id } = await parsed(TASK_FLAGS.delete);
      const r = await withHub((c) => c.call('tasks.delete', { ...actor, list, id }));
      ctx.out(ctx.json ? JSON.stringify(r) : r.deleted ? 'deleted' : 'no such task');
      return r.deleted ? 0 : 1;
    }
    default: {
      const never: never = name;
      return never;
    }
  }
}
