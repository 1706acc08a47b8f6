// Teams and task lists under one Claude Code config root (`$CLAUDE_CONFIG_DIR`
// or `~/.claude`): discovery of every team (Claude Code's own included),
// roster and inbox depths by peeking (never consuming; an unchanged inbox is
// not parsed again), task assignment with
// its `task_assignment` frame, and sending into a teammate's inbox with the
// role checks of docs/claude-code-formats.md#4-structured-frames. A sender's name and role come from the
// roster (see `rosterSender`), never from what the session claimed. Teams
// and inboxes that cannot be read are listed with their problem.

import fs from 'node:fs';
import path from 'node:path';
import { TaskList } from '../tasks/task-list.js';
import type { Task } from '../tasks/task-file.js';
import { sanitizePart } from './files.js';
import { checkFrameRole, LEAD, parseFrame } from './team-frames.js';
import type { LockOptions } from './lock.js';
import { InboxCountCache } from './inbox-counts.js';
import { Mailbox, newEntry } from './mailbox.js';
import { Roster, type TeamConfig } from './roster.js';
import { rosterSender, type SenderClaim } from './sender.js';
import { CodedError } from '../protocol/coded-error.js';
import { UnreadableFileError } from '../storage/unreadable.js';

export interface TeamSummary {
  name: string;
  dir: string;
  members: number;
  createdAt: number;
  leadSessionId: string | null;
  /** Set when config.json exists but cannot be read: the file and what is wrong with it. */
  problem?: { file: string; problem: string };
}

export interface TeamView {
  config: TeamConfig;
  /** `problem` is set for an inbox file that exists but cannot be read (depth 0, nothing written). */
  inboxes: Array<{ member: string; depth: number; unread: number; problem?: string }>;
}

/** Frames a member may put in a teammate's inbox through the hub (what the public send tool allows). */
const SENDABLE_FRAMES = new Set([
  'shutdown_request',
  'shutdown_approved',
  'shutdown_rejected',
  'plan_approval_response',
]);

export class TeamSendError extends CodedError<
  'no_team' | 'no_member' | 'frame_not_allowed' | 'role' | 'not_a_member' | 'not_lead'
> {
  override readonly name = 'TeamSendError';
}

export class Teams {
  readonly root: string;
  readonly teamsRoot: string;
  readonly tasksRoot: string;
  readonly #lock: Omit<LockOptions, 'lockfilePath' | 'realpath'>;
  /** teams.show's inbox depths, by file version: an unchanged inbox is not parsed again. */
  readonly #counts = new InboxCountCache();

  constructor(claudeHome: string, lock: Omit<LockOptions, 'lockfilePath' | 'realpath'>) {
    this.root = claudeHome;
    this.teamsRoot = path.join(claudeHome, 'teams');
    this.tasksRoot = path.join(claudeHome, 'tasks');
    this.#lock = lock;
  }

  roster(team: string): Roster {
    return new Roster(this.teamsRoot, team, this.#lock);
  }

  mailbox(team: string, member: string): Mailbox {
    return new Mailbox(path.join(this.roster(team).dir, 'inboxes', `${sanitizePart(member)}.json`), this.#lock);
  }

  tasks(listId: string): TaskList {
    return new TaskList(this.tasksRoot, listId, this.#lock);
  }

  async list(): Promise<TeamSummary[]> {
    let dirs: string[];
    try {
      dirs = await fs.promises.readdir(this.teamsRoot);
    } catch {
      return [];
    }
    const out: TeamSummary[] = [];
    for (const d of dirs.sort()) {
      const roster = new Roster(this.teamsRoot, d, this.#lock);
      const r = await roster.load();
      if (r.state === 'missing') continue;
      if (r.state === 'unreadable') {
        out.push({
          name: d,
          dir: d,
          members: 0,
          createdAt: 0,
          leadSessionId: null,
          problem: { file: roster.file, problem: r.problem },
        });
        continue;
      }
      const cfg = r.config;
      out.push({
        name: cfg.name,
        dir: d,
        members: cfg.members.length,
        createdAt: cfg.createdAt,
        leadSessionId: cfg.leadSessionId ?? null,
      });
    }
    return out;
  }

  /** The roster with each member's inbox depth, read without consuming anything. */
  async show(team: string): Promise<TeamView | undefined> {
    const config = await this.roster(team).read();
    if (config === undefined) return undefined;
    const inboxes = await Promise.all(
      config.members.map(async (m) => ({ member: m.name, ...(await this.#counts.of(this.mailbox(team, m.name))) })),
    );
    return { config, inboxes };
  }

  /**
   * Sets the owner and writes a `task_assignment` frame to the owner's inbox.
   * `by` is a plain name (the user, a session's name) or a session's member
   * claim, which the roster must back (`rosterSender`).
   */
  async assign(team: string, id: string, owner: string, by: string | SenderClaim): Promise<Task> {
    let assignedBy = typeof by === 'string' ? by : '';
    if (typeof by !== 'string') {
      const cfg = await this.roster(team).read();
      if (cfg === undefined) throw new TeamSendError('no_team', `no team ${team}`);
      assignedBy = senderName(cfg, by);
    }
    // Both or neither: an inbox that cannot take the notice leaves the task as it was.
    const mailbox = this.mailbox(team, owner);
    const inbox = await mailbox.peek();
    if (inbox.problem !== undefined) throw new UnreadableFileError('inbox_unreadable', mailbox.file, inbox.problem);
    const list = this.tasks(team);
    const previous = await list.get(id);
    const task = await list.update(id, { owner });
    const frame = {
      type: 'task_assignment',
      taskId: task.id,
      subject: task.subject,
      description: task.description,
      assignedBy,
      timestamp: new Date().toISOString(),
    };
    try {
      await mailbox.append(newEntry({ from: assignedBy, text: JSON.stringify(frame) }));
    } catch (err) {
      await list.update(id, { owner: previous?.owner ?? null }).catch(() => undefined); // best effort; the error says why
      throw err;
    }
    return task;
  }

  /**
   * Puts a message in a teammate's inbox: plain text, or one of the frames
   * the public send tool allows, checked against the sender's role.
   */
  async send(args: {
    team: string;
    from: SenderClaim;
    to: string;
    text: string;
    summary?: string;
    color?: string;
  }): Promise<void> {
    const cfg = await this.roster(args.team).read();
    if (cfg === undefined) throw new TeamSendError('no_team', `no team ${args.team}`);
    const from = senderName(cfg, args.from);
    if (!cfg.members.some((m) => m.name === args.to))
      throw new TeamSendError('no_member', `${args.to} is not a member of ${args.team}`);
    const frame = parseFrame(args.text);
    if (frame !== null) {
      if (!SENDABLE_FRAMES.has(frame.type))
        throw new TeamSendError('frame_not_allowed', `${frame.type} frames cannot be sent through Switchboard`);
      const verdict = checkFrameRole(frame, from);
      if (!verdict.accept) throw new TeamSendError('role', verdict.reason);
    }
    await this.mailbox(args.team, args.to).append(
      newEntry({
        from,
        text: args.text,
        ...(args.summary ? { summary: args.summary } : {}),
        ...(args.color ? { color: args.color } : {}),
      }),
    );
  }
}

/** The roster-backed name a session writes under, or the TeamSendError saying why it may not. */
function senderName(cfg: TeamConfig, claim: SenderClaim): string {
  const r = rosterSender(cfg, claim);
  if (!r.ok) throw new TeamSendError(r.code, r.message);
  return r.name;
}

export { LEAD };
