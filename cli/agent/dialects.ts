// What each agent's hooks send and expect (docs/integrations.md has the
// sources). Input: a JSON object on stdin with the agent's session id and
// cwd; output: one JSON object on stdout, or nothing. Also how much text one
// hook output may carry for each agent: more than that reaches the model cut
// (Codex keeps head and tail), so it must never be sent, nor acknowledged. Pure.

import type { AgentKind } from './identity.js';

export const HOOK_EVENTS = ['session-start', 'prompt-submit', 'post-tool', 'stop', 'session-end'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export interface HookInput {
  sessionId: string;
  cwd: string;
  permissionMode?: string;
  /** The agent is already continuing because of a stop hook (its loop guard). */
  stopHookActive: boolean;
}

const MAX_FIELD = 4096;

/**
 * UTF-8 bytes of model-visible text one hook output may carry, per agent.
 * Claude Code: hook output over 10 000 characters is replaced by a preview
 * (its hooks docs, as cited in colbymchenry/codegraph#1695). Codex: HOOK_OUTPUT_TOKEN_LIMIT = 2 500 tokens at 4 bytes
 * a token, head and tail kept (codex-rs/hooks/src/output_spill.rs). Both with
 * a margin. Gemini CLI documents no cap; 64 KiB is our own bound per turn.
 */
export const HOOK_TEXT_BUDGET: Record<AgentKind, number> = {
  claude: 9000,
  codex: 9000,
  gemini: 64 * 1024,
  // OpenCode keeps a tool's whole output up to 50 KiB / 2000 lines (its Truncate); our plugin appends after that cut.
  opencode: 9000,
  qwen: 9000, // no cap found in Qwen Code 0.24.4's code; not measured
  other: 9000,
};

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 && v.length <= MAX_FIELD ? v : undefined;
}

/**
 * Qwen Code's approval modes (its hooks' `permission_mode`: default, plan, auto_edit, auto, yolo) as ours, by
 * its own parity classes: default and plan prompt; auto-edit, auto (its classifier) and yolo bypass.
 */
const QWEN_MODES: Record<string, string> = {
  default: 'default',
  plan: 'plan',
  auto_edit: 'bypassPermissions',
  'auto-edit': 'bypassPermissions',
  auto: 'bypassPermissions',
  yolo: 'bypassPermissions',
};

/** Parses the hook JSON of `agent`; throws Error with a one-line reason when it is unusable. */
export function parseHookInput(text: string, agent?: AgentKind): HookInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('hook input is not JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Error('hook input is not a JSON object');
  const o = value as Record<string, unknown>;
  const sessionId = str(o.session_id);
  const cwd = str(o.cwd);
  if (sessionId === undefined) throw new Error('hook input has no session_id');
  if (cwd === undefined) throw new Error('hook input has no cwd');
  const raw = str(o.permission_mode);
  // A Qwen Code mode we do not know is no mode (unknown fails closed), never passed on as Claude Code's.
  const permissionMode =
    agent === 'qwen' ? (raw !== undefined && Object.hasOwn(QWEN_MODES, raw) ? QWEN_MODES[raw] : undefined) : raw;
  return { sessionId, cwd, ...(permissionMode ? { permissionMode } : {}), stopHookActive: o.stop_hook_active === true };
}

/** Extra context after a tool call, in the agent's format. */
export function postToolOutput(agent: AgentKind, text: string): unknown {
  const eventName = agent === 'gemini' ? 'AfterTool' : 'PostToolUse';
  return { hookSpecificOutput: { hookEventName: eventName, additionalContext: text } };
}

/** Extra context at the start of a turn (UserPromptSubmit; Gemini's BeforeAgent). */
export function promptOutput(agent: AgentKind, text: string): unknown {
  const eventName = agent === 'gemini' ? 'BeforeAgent' : 'UserPromptSubmit';
  return { hookSpecificOutput: { hookEventName: eventName, additionalContext: text } };
}

/** Keeps the agent going at stop time with `text` as its next instruction. */
export function stopOutput(agent: AgentKind, text: string): unknown {
  return agent === 'gemini' ? { decision: 'deny', reason: text } : { decision: 'block', reason: text };
}
