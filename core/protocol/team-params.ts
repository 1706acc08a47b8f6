// The params of the team and task methods (Claude Code's team mailboxes and
// task lists, core/teams and core/tasks): names that become file names,
// bounded texts, and the optional credentials that name the actor.

import { z } from 'zod';
import { boundedJsonObject } from './bounded-json.js';
import { LIMITS } from './limits.js';
import { Auth, Id, Path, Token } from './param-atoms.js';

/** Team and task methods: optional session credentials name the actor; without them it is "user". */
const Actor = { sessionId: Id.optional(), token: Token.optional() };
/**
 * Team, list and member names become file and directory names under ~/.claude (sanitized to ASCII):
 * 200 leaves room for `.json.lock` within a file system's 255 bytes (256 was ENAMETOOLONG, answered `internal`).
 */
const TeamName = z.string().min(1).max(200);
const MemberName = TeamName;
const TaskId = z.string().regex(/^\d{1,15}$/);
const TaskStatus = z.enum(['pending', 'in_progress', 'completed']);
export const TeamsListParams = z.strictObject({}).optional();
export const TeamShowParams = z.strictObject({ team: TeamName });
/**
 * A new team in Claude Code's format, its lead the calling session (or, from a UI or without credentials,
 * no session: `leadSessionId` ""); `cwd` is the lead member's (default: the session's, else the home directory).
 */
export const TeamCreateParams = z.strictObject({ ...Actor, team: TeamName, cwd: Path.optional() });
export const TasksListParams = z.strictObject({ list: TeamName, includeInternal: z.boolean().optional() });
export const TaskGetParams = z.strictObject({ list: TeamName, id: TaskId });
export const TaskCreateParams = z.strictObject({
  ...Actor,
  list: TeamName,
  subject: z.string().min(1).max(10_000),
  description: z.string().max(1_000_000).default(''),
  activeForm: z.string().max(10_000).optional(),
  blockedBy: z.array(TaskId).max(1000).optional(),
  metadata: boundedJsonObject(256).optional(),
});
export const TaskUpdateParams = z.strictObject({
  ...Actor,
  list: TeamName,
  id: TaskId,
  subject: z.string().min(1).max(10_000).optional(),
  description: z.string().max(1_000_000).optional(),
  activeForm: z.string().max(10_000).optional(),
  status: TaskStatus.optional(),
  owner: MemberName.nullable().optional(),
  metadata: boundedJsonObject(256).optional(),
  /** Claude Code's TaskUpdate addBlocks/addBlockedBy: both sides of each edge are written. */
  addBlocks: z.array(TaskId).max(1000).optional(),
  addBlockedBy: z.array(TaskId).max(1000).optional(),
});
export const TaskClaimParams = z.strictObject({
  ...Actor,
  list: TeamName,
  id: TaskId,
  owner: MemberName.optional(),
  busyCheck: z.boolean().optional(),
});
export const TaskAssignParams = z.strictObject({
  ...Actor,
  team: TeamName,
  id: TaskId,
  owner: MemberName,
});
export const TaskDeleteParams = z.strictObject({ ...Actor, list: TeamName, id: TaskId });
export const TaskReleaseParams = z.strictObject({ ...Actor, list: TeamName, owner: MemberName });
export const TeamSendParams = z.strictObject({
  ...Auth,
  team: TeamName,
  to: MemberName,
  text: z.string().min(1).max(1_000_000),
  summary: z.string().max(LIMITS.summaryChars).optional(),
});
