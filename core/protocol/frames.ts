// Recognises Claude Code team protocol frames (docs/claude-code-formats.md#4-structured-frames) inside text.
// A plain message that parses as one is refused by the sender side, so a
// peer can never smuggle a control frame into a mailbox as "just text".

export const FRAME_TYPES: ReadonlySet<string> = new Set([
  'permission_request',
  'permission_response',
  'sandbox_permission_request',
  'sandbox_permission_response',
  'plan_approval_request',
  'plan_approval_response',
  'shutdown_request',
  'shutdown_approved',
  'shutdown_rejected',
  'mode_set_request',
  'task_assignment',
  'task_completed',
  'idle_notification',
  'team_permission_update',
]);

export function isProtocolFrame(text: string): boolean {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return false;
  try {
    const value: unknown = JSON.parse(trimmed);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const type = (value as Record<string, unknown>).type;
    return typeof type === 'string' && FRAME_TYPES.has(type);
  } catch {
    return false;
  }
}
