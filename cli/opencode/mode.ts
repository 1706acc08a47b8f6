// OpenCode's permission mode, as Switchboard's two classes see it. OpenCode
// has no single mode: per-tool `permission` rules (allow/ask/deny, a string
// or an object of patterns), per-agent rules, `OPENCODE_PERMISSION`, and
// `run --auto`. What lets tools run without asking is bypass: a session is
// `default` (prompting) only when every rule for `edit` and `bash` — the
// tools that change things — asks or denies; a missing rule is OpenCode's
// default, allow. A configuration this cannot read is unknown (undefined),
// and the hub then fails closed. docs/decisions.md has the reasoning. Pure.

import type { PermissionModeName } from '../../core/protocol/vocabulary.js';

type Action = 'allow' | 'ask' | 'deny';
const ACTIONS: ReadonlySet<string> = new Set(['allow', 'ask', 'deny']);
/** The tools whose rules decide the class. */
const DECIDING = ['edit', 'bash'] as const;
/** More patterns than this in one rule is not a configuration we classify. */
const MAX_PATTERNS = 1000;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A rule's actions: one string, or every value of a pattern object; undefined when it is not a rule. */
function actionsOf(rule: unknown): Action[] | undefined {
  if (typeof rule === 'string') return ACTIONS.has(rule) ? [rule as Action] : undefined;
  if (!isObject(rule)) return undefined;
  const values = Object.values(rule);
  if (values.length === 0 || values.length > MAX_PATTERNS) return undefined;
  if (!values.every((v) => typeof v === 'string' && ACTIONS.has(v))) return undefined;
  return values as Action[];
}

/** The rule for `tool` in one permission block: its own entry, else `*`, else the block itself when a string. */
function ruleIn(block: unknown, tool: string): unknown {
  if (typeof block === 'string') return block;
  if (!isObject(block)) return undefined;
  return block[tool] ?? block['*'];
}

/** Parses `OPENCODE_PERMISSION` (JSON); undefined when unset, null when it does not parse. */
function envPermission(raw: string | undefined): unknown {
  if (raw === undefined || raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

/**
 * The class OpenCode's configuration puts the session's default agent in:
 * `default` when `edit` and `bash` always ask (or are denied), `bypassPermissions`
 * when either can run without asking, undefined when unreadable.
 */
export function opencodeMode(
  config: unknown,
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): PermissionModeName | undefined {
  if (argv.includes('--auto')) return 'bypassPermissions'; // `opencode run --auto`: every ask is approved
  if (config !== undefined && !isObject(config)) return undefined;
  const cfg = config ?? {};
  const fromEnv = envPermission(env.OPENCODE_PERMISSION);
  if (fromEnv === null) return undefined;
  const agentName = typeof cfg.default_agent === 'string' ? cfg.default_agent : 'build';
  const agents = isObject(cfg.agent) ? cfg.agent : {};
  const agent = isObject(agents[agentName]) ? agents[agentName] : {};
  // Most specific first: the agent's own rules, then the environment's, then the configuration's.
  const blocks = [agent.permission, fromEnv, cfg.permission];
  if (blocks.some((b) => b !== undefined && typeof b !== 'string' && !isObject(b))) return undefined;
  for (const tool of DECIDING) {
    const block = blocks.find((b) => ruleIn(b, tool) !== undefined);
    const rule = block === undefined ? 'allow' : ruleIn(block, tool);
    const actions = actionsOf(rule);
    if (actions === undefined) return undefined;
    if (actions.includes('allow')) return 'bypassPermissions';
  }
  return 'default';
}
