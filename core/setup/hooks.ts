// The hook entries setup writes into an agent's JSON settings (Claude Code,
// Codex's hooks.json, Gemini CLI), and how it finds and removes only its own:
// a command of ours (any install location), or for Claude Code 2.1.118+ an
// mcp_tool hook on our server. Pure text edits; agents.ts decides the files.
// Claude Code 2.1.118+ gets mcp_tool hooks for PostToolUse and Stop (no
// process per tool call); SessionStart/SessionEnd stay commands (the MCP
// server is not connected yet at start, and gone at the end), and so does
// UserPromptSubmit: its input is the only verified source of the permission
// mode of a session started without a flag (the model can call the MCP tool
// too, so what that tool reports is a claim), at one process per prompt.
// 2.1.332+ gets no PostToolUse hook at all (the hub hands a busy turn its
// messages through Claude Code's own socket) unless asked for one.

import { findNodeAtLocation, getNodeValue, parseTree } from 'jsonc-parser';
import { readJsonc, setJsonc } from './edit.js';
import { versionAtLeast } from '../kit/version.js';
import { CLAUDE_MID_TURN_SINCE } from '../protocol/cc-wire.js';
import { shellQuote } from './mcp-entry.js';
import { AGENT_FLAG, type SetupAgent, type SetupEnv } from './setup-env.js';

/** Claude Code runs `mcp_tool` hooks since 2.1.118. */
export const MCP_TOOL_HOOKS_SINCE = '2.1.118';
/** The MCP tool those hooks call (cli/agent/mcp-tools.ts). */
export const HOOK_TOOL = 'switchboard_hook';
const MCP_TOOL_EVENTS = new Set(['post-tool', 'stop']);

/** Recognises a hook command that setup wrote (any install location). */
const OURS =
  /(?:switchboard[^\s"']*["']?\s+hook|switchboard-hook\.cjs["']?)\s+(session-start|prompt-submit|post-tool|stop|session-end)\b/;

function hookCommand(e: SetupEnv, event: string, agent: string): string {
  if (e.hookEntry !== undefined) return `${shellQuote(e.node)} ${shellQuote(e.hookEntry)} ${event} --agent ${agent}`;
  return `${shellQuote(e.node)} ${shellQuote(e.script)} hook ${event} --agent ${agent}`;
}

interface HookSpec {
  event: string; // the agent's event name
  ours: string; // our hook event
  matcher?: string;
}

export const HOOKS: Record<SetupAgent, HookSpec[]> = {
  'claude-code': [
    { event: 'SessionStart', ours: 'session-start' },
    { event: 'UserPromptSubmit', ours: 'prompt-submit' },
    { event: 'PostToolUse', ours: 'post-tool', matcher: '*' },
    { event: 'Stop', ours: 'stop' },
    { event: 'SessionEnd', ours: 'session-end' },
  ],
  codex: [
    { event: 'SessionStart', ours: 'session-start' },
    { event: 'UserPromptSubmit', ours: 'prompt-submit' },
    { event: 'PostToolUse', ours: 'post-tool' },
    { event: 'Stop', ours: 'stop' },
  ],
  gemini: [
    { event: 'SessionStart', ours: 'session-start' },
    { event: 'BeforeAgent', ours: 'prompt-submit' },
    { event: 'AfterTool', ours: 'post-tool', matcher: '.*' },
    { event: 'AfterAgent', ours: 'stop' },
    { event: 'SessionEnd', ours: 'session-end' },
  ],
  opencode: [], // an in-process plugin instead (opencode.ts)
  qwen: [
    // Claude Code's event names and output forms; `timeout` in seconds (values of 1000 or more read as ms)
    { event: 'SessionStart', ours: 'session-start' },
    { event: 'UserPromptSubmit', ours: 'prompt-submit' },
    { event: 'PostToolUse', ours: 'post-tool', matcher: '.*' },
    { event: 'Stop', ours: 'stop' },
    { event: 'SessionEnd', ours: 'session-end' },
  ],
};

function isOurHook(h: unknown): boolean {
  if (h === null || typeof h !== 'object') return false;
  const o = h as { command?: unknown; type?: unknown; server?: unknown; tool?: unknown };
  if (typeof o.command === 'string') return OURS.test(o.command);
  return o.type === 'mcp_tool' && o.server === 'switchboard' && o.tool === HOOK_TOOL;
}

function isOurGroup(group: unknown): boolean {
  if (group === null || typeof group !== 'object') return false;
  const hooks = (group as { hooks?: unknown }).hooks;
  return Array.isArray(hooks) && hooks.some(isOurHook);
}

/**
 * Removes our hooks from a hooks-bearing JSON text: a group of ours alone goes whole; from a group that also
 * holds the user's handlers only ours go (the whole group went, user hooks included); keys left empty go too.
 * A `hooks` or `hooks.<event>` of a shape setup does not know is an error, never overwritten.
 */
export function removeHooks(text: string, specs: HookSpec[]): string {
  let out = text;
  const top = readJsonc('(settings)', out).hooks;
  if (top !== undefined && (top === null || typeof top !== 'object' || Array.isArray(top)))
    throw new Error('"hooks" is not an object of events');
  for (const spec of specs) {
    const tree = parseTree(out);
    const node = tree ? findNodeAtLocation(tree, ['hooks', spec.event]) : undefined;
    if (node === undefined) continue;
    if (node.type !== 'array' || !node.children) throw new Error(`"hooks.${spec.event}" is not a list of hook groups`);
    const groups = node.children.map((c) => getNodeValue(c) as unknown);
    for (let i = groups.length - 1; i >= 0; i--) {
      if (!isOurGroup(groups[i])) continue;
      const handlers = (groups[i] as { hooks: unknown[] }).hooks;
      if (handlers.every(isOurHook)) out = setJsonc(out, ['hooks', spec.event, i], undefined);
      else
        for (let j = handlers.length - 1; j >= 0; j--)
          if (isOurHook(handlers[j])) out = setJsonc(out, ['hooks', spec.event, i, 'hooks', j], undefined);
    }
    const left = (readJsonc('(settings)', out).hooks as Record<string, unknown> | undefined)?.[spec.event];
    if (Array.isArray(left) && left.length === 0) out = setJsonc(out, ['hooks', spec.event], undefined);
  }
  const hooks = readJsonc('(settings)', out).hooks;
  if (hooks !== null && typeof hooks === 'object' && Object.keys(hooks).length === 0)
    out = setJsonc(out, ['hooks'], undefined);
  return out;
}

/** The hooks setup writes: all, except PostToolUse for a Claude Code whose socket takes mid-turn messages. */
function wantedHooks(specs: HookSpec[], e: SetupEnv, agent: SetupAgent): HookSpec[] {
  const midTurnSocket =
    agent === 'claude-code' &&
    e.postToolHook !== true &&
    e.agentVersion !== undefined &&
    versionAtLeast(e.agentVersion, CLAUDE_MID_TURN_SINCE);
  return midTurnSocket ? specs.filter((s) => s.ours !== 'post-tool') : specs;
}

export function addHooks(text: string, specs: HookSpec[], e: SetupEnv, agent: SetupAgent): string {
  let out = removeHooks(text, specs);
  for (const spec of wantedHooks(specs, e, agent)) {
    const command = hookCommand(e, spec.ours, AGENT_FLAG[agent]);
    const handler =
      agent === 'claude-code' &&
      MCP_TOOL_EVENTS.has(spec.ours) &&
      e.agentVersion !== undefined &&
      versionAtLeast(e.agentVersion, MCP_TOOL_HOOKS_SINCE)
        ? {
            type: 'mcp_tool',
            server: 'switchboard',
            tool: HOOK_TOOL,
            input: { event: spec.ours, permission_mode: '${permission_mode}', stop_hook_active: '${stop_hook_active}' },
            timeout: 10,
          }
        : agent === 'gemini'
          ? { type: 'command', command, name: `switchboard-${spec.ours}`, timeout: 10_000 }
          : agent === 'qwen'
            ? { type: 'command', command, name: `switchboard-${spec.ours}`, timeout: 10 }
            : { type: 'command', command, timeout: 10 };
    const group = { ...(spec.matcher ? { matcher: spec.matcher } : {}), hooks: [handler] };
    const hooks = readJsonc('(settings)', out).hooks as Record<string, unknown> | undefined;
    const existing = hooks?.[spec.event];
    out = Array.isArray(existing)
      ? setJsonc(out, ['hooks', spec.event, existing.length], group)
      : setJsonc(out, ['hooks', spec.event], [group]);
  }
  return out;
}
