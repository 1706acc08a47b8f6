// Closed vocabularies shared by the wire schemas and by code that must stay
// light (hook commands load no zod): plain constants, no imports.

export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'auto', 'dontAsk', 'bypassPermissions'] as const;
export type PermissionModeName = (typeof PERMISSION_MODES)[number];
export const AGENT_KINDS = ['claude', 'codex', 'gemini', 'other'] as const;
export const SESSION_STATES = ['busy', 'idle'] as const;

export function asPermissionMode(value: string | undefined): PermissionModeName | undefined {
  return PERMISSION_MODES.find((m) => m === value);
}
