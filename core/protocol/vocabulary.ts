// Closed vocabularies shared by the wire schemas and by code that must stay
// light (hook commands load no zod): plain constants, no imports.

export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'auto', 'dontAsk', 'bypassPermissions'] as const;
export type PermissionModeName = (typeof PERMISSION_MODES)[number];
export const AGENT_KINDS = ['claude', 'codex', 'gemini', 'opencode', 'qwen', 'other'] as const;
export const SESSION_STATES = ['busy', 'idle'] as const;
/** Why a message was refused while its receiver's user paused inbound messages (the tray, the UI). */
export const PAUSED_REASON = 'paused by its user';
/**
 * Where a session's permission mode came from: the agent's command line (a
 * flag fixes it), the agent's own hook input, the session's word (`session
 * start --mode`, `session mode`), or a report the model could have made
 * itself (an MCP tool), which never loosens anything.
 */
export const MODE_SOURCES = ['command-line', 'hook', 'declared', 'unverified'] as const;
export type ModeSource = (typeof MODE_SOURCES)[number];
/** Where a mode came from, in the words listings show (the CLI's MODE column, the Sessions view). */
export const MODE_SOURCE_WORDS: Record<ModeSource, string> = {
  'command-line': 'from its flags',
  hook: 'from its hooks',
  declared: 'declared',
  unverified: 'unverified report',
};

export function asPermissionMode(value: string | undefined): PermissionModeName | undefined {
  return PERMISSION_MODES.find((m) => m === value);
}
