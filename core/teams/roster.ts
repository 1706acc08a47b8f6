// Team rosters (docs/claude-code-formats.md#2-team-roster): `teams/<team>/config.json`, written under a
// proper-lockfile lock on `config.json.lock` (realpath off) and replaced
// atomically. Readers keep unknown keys and key order (Claude Code owns the
// format). Member names follow Claude Code: `@` becomes `-`, duplicates get
// `-2`, `-3` (case-insensitive), `main` is never a member. A config.json that
// exists but is not a readable roster is `team_unreadable` and never written.

import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readBounded } from '../storage/bounded-read.js';
import { UnreadableFileError } from '../storage/unreadable.js';
import { sanitizeTeamDir, serialize, writeAtomic } from './files.js';
import { withFileLock, type LockOptions } from './lock.js';
import { CodedError } from '../protocol/coded-error.js';

export const MAX_CONFIG_BYTES = 4 * 1024 * 1024; // a roster is a few KiB; bigger is not one

export const Member = z.looseObject({
  agentId: z.string(),
  name: z.string(),
  color: z.string().optional(),
  joinedAt: z.number(),
  tmuxPaneId: z.string().optional(),
  subscriptions: z.array(z.unknown()).optional(),
  agentType: z.string().optional(),
  model: z.string().optional(),
  prompt: z.string().optional(),
  planModeRequired: z.boolean().optional(),
  cwd: z.string().optional(),
  backendType: z.string().optional(),
  isActive: z.boolean().optional(),
  mode: z.string().optional(),
  worktreePath: z.string().optional(),
});
export type Member = z.infer<typeof Member>;

export const TeamConfig = z.looseObject({
  name: z.string(),
  createdAt: z.number(),
  leadAgentId: z.string(),
  leadSessionId: z.string().optional(),
  members: z.array(Member),
});
export type TeamConfig = z.infer<typeof TeamConfig>;

export class RosterError extends CodedError<'reserved_name' | 'team_exists' | 'no_team' | 'bad_config'> {
  override readonly name = 'RosterError';
}

export type RosterRead =
  { state: 'missing' } | { state: 'ok'; config: TeamConfig } | { state: 'unreadable'; problem: string };

/** A roster's text: the config (kept as read), or the problem that makes it unreadable. */
export function parseConfigText(text: string): RosterRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { state: 'unreadable', problem: 'not valid JSON' };
  }
  const parsed = TeamConfig.safeParse(value);
  if (parsed.success) return { state: 'ok', config: value as TeamConfig };
  const issue = parsed.error.issues[0];
  return {
    state: 'unreadable',
    problem: `not a team roster (${issue ? `${issue.path.join('.') || 'value'}: ${issue.message}` : 'invalid'})`,
  };
}

export function parseConfig(text: string | undefined): TeamConfig | undefined {
  if (text === undefined) return undefined;
  const r = parseConfigText(text);
  return r.state === 'ok' ? r.config : undefined;
}

/** Claude Code's member-name rule: `@` to `-`, then `-2`, `-3` … while taken (case-insensitive). */
export function uniqueMemberName(wanted: string, taken: readonly string[]): string {
  const base = wanted.replace(/@/g, '-').trim();
  if (base === '' || base.toLowerCase() === 'main')
    throw new RosterError('reserved_name', `"${wanted}" cannot be a member name`);
  const lower = new Set(taken.map((t) => t.toLowerCase()));
  if (!lower.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) if (!lower.has(`${base}-${n}`.toLowerCase())) return `${base}-${n}`;
}

export class Roster {
  readonly dir: string;
  readonly file: string;
  readonly #lock: LockOptions;

  constructor(teamsRoot: string, team: string, lock: Omit<LockOptions, 'lockfilePath' | 'realpath'>) {
    this.dir = path.join(teamsRoot, sanitizeTeamDir(team));
    this.file = path.join(this.dir, 'config.json');
    this.#lock = { ...lock, lockfilePath: `${this.file}.lock`, realpath: false };
  }

  /** The roster, or why it is missing or unreadable; never throws for a bad file. */
  async load(): Promise<RosterRead> {
    const r = await readBounded(this.file, MAX_CONFIG_BYTES);
    if (r.state === 'text') return parseConfigText(r.text);
    return r;
  }

  /** The roster; undefined only when it is missing; an unreadable one throws `team_unreadable`. */
  async read(): Promise<TeamConfig | undefined> {
    const r = await this.load();
    if (r.state === 'unreadable') throw new UnreadableFileError('team_unreadable', this.file, r.problem);
    return r.state === 'ok' ? r.config : undefined;
  }

  /** Creates the team with its lead; fails if it exists. */
  async create(args: { name: string; leadSessionId: string; cwd: string; now?: number }): Promise<TeamConfig> {
    await fs.promises.mkdir(path.join(this.dir, 'inboxes'), { recursive: true });
    return withFileLock(this.file, this.#lock, async () => {
      if ((await this.read()) !== undefined) throw new RosterError('team_exists', `team ${args.name} exists`);
      const now = args.now ?? Date.now();
      const cfg: TeamConfig = {
        name: args.name,
        createdAt: now,
        leadAgentId: `team-lead@${args.name}`,
        leadSessionId: args.leadSessionId,
        members: [
          {
            agentId: `team-lead@${args.name}`,
            name: 'team-lead',
            agentType: 'team-lead',
            joinedAt: now,
            tmuxPaneId: '',
            cwd: args.cwd,
            subscriptions: [],
            backendType: 'in-process',
          },
        ],
      };
      await writeAtomic(this.file, serialize(cfg));
      return cfg;
    });
  }

  /** Changes the roster under its lock; `fn` returns the new config. */
  async update(fn: (cfg: TeamConfig) => TeamConfig): Promise<TeamConfig> {
    return withFileLock(this.file, this.#lock, async () => {
      const cfg = await this.read();
      if (cfg === undefined) throw new RosterError('no_team', `no readable team config at ${this.file}`);
      const next = fn(cfg);
      await writeAtomic(this.file, serialize(next));
      return next;
    });
  }

  /** Adds a member with Claude Code's naming; returns the name it got. */
  async addMember(args: {
    name: string;
    cwd: string;
    color?: string;
    agentType?: string;
    now?: number;
  }): Promise<string> {
    let got = '';
    await this.update((cfg) => {
      got = uniqueMemberName(
        args.name,
        cfg.members.map((m) => m.name),
      );
      const member: Member = {
        agentId: `${got}@${cfg.name}`,
        name: got,
        ...(args.color ? { color: args.color } : {}),
        joinedAt: args.now ?? Date.now(),
        tmuxPaneId: '',
        subscriptions: [],
        ...(args.agentType ? { agentType: args.agentType } : {}),
        cwd: args.cwd,
        backendType: 'in-process',
      };
      return { ...cfg, members: [...cfg.members, member] };
    });
    return got;
  }

  async removeMember(name: string): Promise<boolean> {
    let removed = false;
    await this.update((cfg) => {
      const members = cfg.members.filter((m) => m.name !== name);
      removed = members.length !== cfg.members.length;
      return { ...cfg, members };
    });
    return removed;
  }
}
