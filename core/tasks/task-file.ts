// One task file (docs/claude-code-formats.md#3-shared-tasks): `<id>.json`, `JSON.stringify(task, null, 2)`.
// Readers strip unknown keys but keep the file's key order, so reading and
// writing back an untouched task is byte-identical; a file that fails
// validation, or that is nested deeper than LIMITS.jsonDepth, counts as
// missing for readers and is never written. What we write is checked by the
// same reader first (taskText): a task we could not read back (metadata at
// the request's depth limit sits one level deeper in the file; pretty
// printing makes it larger) is refused before anything is written.

import { z } from 'zod';
import { CodedError } from '../protocol/coded-error.js';
import { FILE_JSON_BOUNDS, jsonBoundsProblem } from '../protocol/bounded-json.js';

export const MAX_TASK_BYTES = 2 * 1024 * 1024; // a task is a few KiB; bigger is not one

export type ClaimFailure = 'already_claimed' | 'already_resolved' | 'blocked' | 'agent_busy' | 'not_found';

/** Refusals of a dependency edge (create's blockedBy, update's addBlocks/addBlockedBy). */
export type LinkFailure = 'blocker_not_found' | 'blocker_self' | 'blocker_cycle';

export class TaskError extends CodedError<ClaimFailure | LinkFailure | 'task_id_unavailable' | 'task_too_large'> {
  override readonly name = 'TaskError';
}

export const TASK_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

const Id = z.string().regex(/^\d+$/).max(20);

export const TaskSchema = z.object({
  id: Id,
  subject: z.string().max(10_000),
  description: z.string().max(1_000_000),
  activeForm: z.string().max(10_000).optional(),
  owner: z.string().max(1000).optional(),
  status: z.enum(TASK_STATUSES),
  blocks: z.array(Id).max(10_000),
  blockedBy: z.array(Id).max(10_000),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type Task = z.infer<typeof TaskSchema>;

const KNOWN = new Set(Object.keys(TaskSchema.shape));

/** The task in `text`, known keys only, in the file's order; undefined when invalid. */
export function parseTask(text: string | undefined): Task | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  // Nested past LIMITS.jsonDepth (metadata is free-form): no answer or write could serialize it.
  if (jsonBoundsProblem(value, FILE_JSON_BOUNDS) !== undefined) return undefined;
  if (!TaskSchema.safeParse(value).success) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) if (KNOWN.has(k)) out[k] = v;
  return out as Task;
}

export interface TaskPatch {
  subject?: string;
  description?: string;
  activeForm?: string;
  owner?: string | null;
  status?: TaskStatus;
  blocks?: string[];
  blockedBy?: string[];
  /** Merged into the task's metadata; a `null` value deletes that key. */
  metadata?: Record<string, unknown>;
}

/** Claude Code's update: `{...old, ...patch, id}`; a newly set key lands at the end. */
export function applyPatch(old: Task, patch: TaskPatch): Task {
  const { metadata, owner, ...rest } = patch;
  const next: Record<string, unknown> = { ...old, ...rest, id: old.id };
  if (owner === null) delete next.owner;
  else if (owner !== undefined) next.owner = owner;
  if (metadata !== undefined) {
    const merged: Record<string, unknown> = { ...(old.metadata ?? {}) };
    for (const [k, v] of Object.entries(metadata)) {
      if (v === null) delete merged[k];
      else merged[k] = v;
    }
    next.metadata = merged;
  }
  return next as Task;
}

export function isInternal(t: Task): boolean {
  return t.metadata !== undefined && Object.prototype.hasOwnProperty.call(t.metadata, '_internal');
}

/** The file text of `task`, refused (`task_too_large`) when our own reader could not read it back. */
export function taskText(task: Task): string {
  const text = JSON.stringify(task, null, 2);
  if (Buffer.byteLength(text, 'utf8') > MAX_TASK_BYTES || parseTask(text) === undefined)
    throw new TaskError(
      'task_too_large',
      `task ${task.id} would be ${Buffer.byteLength(text, 'utf8')} bytes or nested deeper than the reader takes`,
    );
  return text;
}
