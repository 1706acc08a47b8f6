// Structured team protocol frames (docs/claude-code-formats.md#4-structured-frames), carried as a JSON string
// in an inbox entry's `text`. One loose schema per type (Claude Code owns
// the format). Role rules: responses to permission, plan and mode frames
// count only from `team-lead`; `team_permission_update` is never accepted
// from an inbox.

import { z } from 'zod';

const S = z.string().max(1024 * 1024);
const obj = <T extends z.ZodRawShape>(type: string, shape: T) => z.looseObject({ type: z.literal(type), ...shape });

export const FRAME_SCHEMAS = {
  permission_request: obj('permission_request', {
    request_id: S,
    agent_id: S,
    tool_name: S,
    tool_use_id: S,
    description: S,
    input: z.unknown(),
    permission_suggestions: z.unknown(),
  }),
  permission_response: obj('permission_response', {
    request_id: S,
    subtype: z.enum(['success', 'error']),
    response: z.unknown().optional(),
    error: z.unknown().optional(),
  }),
  sandbox_permission_request: obj('sandbox_permission_request', {
    requestId: S,
    workerId: S,
    workerName: S,
    workerColor: S.optional(),
    hostPattern: z.looseObject({ host: S }),
    createdAt: z.union([S, z.number()]),
  }),
  sandbox_permission_response: obj('sandbox_permission_response', {
    requestId: S,
    host: S,
    allow: z.boolean(),
    timestamp: z.union([S, z.number()]),
  }),
  plan_approval_request: obj('plan_approval_request', {
    from: S,
    timestamp: S,
    planFilePath: S,
    planContent: S,
    requestId: S,
  }),
  plan_approval_response: obj('plan_approval_response', {
    requestId: S,
    approved: z.boolean(),
    feedback: S.optional(),
    timestamp: S,
    permissionMode: S.optional(),
  }),
  shutdown_request: obj('shutdown_request', { requestId: S, from: S, reason: S.optional(), timestamp: S }),
  shutdown_approved: obj('shutdown_approved', {
    requestId: S,
    from: S,
    timestamp: S,
    paneId: S.optional(),
    backendType: S.optional(),
  }),
  shutdown_rejected: obj('shutdown_rejected', { requestId: S, from: S, reason: S, timestamp: S }),
  mode_set_request: obj('mode_set_request', { mode: S, from: S }),
  task_assignment: obj('task_assignment', { taskId: S, subject: S, description: S, assignedBy: S, timestamp: S }),
  task_completed: obj('task_completed', {
    from: S.optional(),
    taskId: S,
    taskSubject: S.optional(),
    timestamp: S.optional(),
  }),
  idle_notification: obj('idle_notification', {
    from: S,
    timestamp: S,
    idleReason: z.enum(['available', 'interrupted', 'failed']).optional(),
    summary: S.optional(),
    completedTaskId: S.optional(),
    completedStatus: z.enum(['resolved', 'blocked', 'failed']).optional(),
    failureReason: S.optional(),
  }),
  team_permission_update: obj('team_permission_update', {}),
} as const;

export type FrameType = keyof typeof FRAME_SCHEMAS;
export type Frame = { [K in FrameType]: z.infer<(typeof FRAME_SCHEMAS)[K]> }[FrameType];

/** Frames whose effect is a decision only the lead may make. */
const LEAD_ONLY: ReadonlySet<FrameType> = new Set([
  'permission_response',
  'plan_approval_response',
  'mode_set_request',
  'sandbox_permission_response',
]);

export const LEAD = 'team-lead';

/** The frame inside an entry's text, or null when it is plain text or malformed. */
export function parseFrame(text: string): Frame | null {
  if (!text.trimStart().startsWith('{')) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(FRAME_SCHEMAS, type)) return null;
  const parsed = FRAME_SCHEMAS[type as FrameType].safeParse(value);
  return parsed.success ? parsed.data : null;
}

export type FrameVerdict = { accept: true } | { accept: false; reason: string };

/** Whether a frame found in an inbox, written by `from`, may take effect. */
export function checkFrameRole(frame: Frame, from: string): FrameVerdict {
  if (frame.type === 'team_permission_update')
    return { accept: false, reason: 'permission-rule updates are never accepted from an inbox' };
  if (LEAD_ONLY.has(frame.type as FrameType) && from !== LEAD)
    return { accept: false, reason: `${frame.type} counts only from ${LEAD}, not from ${JSON.stringify(from)}` };
  return { accept: true };
}

/**
 * The entries of an inbox that may reach an agent: plain text, and frames
 * that pass the role check. Each dropped frame is reported to `onDrop`.
 */
export function deliverableEntries<E extends { from: string; text: string }>(
  entries: readonly E[],
  onDrop: (entry: E, reason: string) => void,
): E[] {
  return entries.filter((e) => {
    const frame = parseFrame(e.text);
    if (frame === null) return true;
    const verdict = checkFrameRole(frame, e.from);
    if (!verdict.accept) onDrop(e, verdict.reason);
    return verdict.accept;
  });
}
