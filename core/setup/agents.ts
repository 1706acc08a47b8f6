// What `switchboard setup` changes for each agent: the MCP server entry and
// the hook commands, in that agent's own files and formats (sources in
// docs/integrations.md). Plans are computed from file texts and applied by
// edit.ts; our entries are recognised by their command (or, for Claude Code's
// mcp_tool hooks, server + tool), so uninstall removes only what setup added.
// Claude Code 2.1.118+ gets mcp_tool hooks for PostToolUse and Stop (no
// process per tool call); SessionStart/SessionEnd stay commands (the MCP
// server is not connected yet at start, and gone at the end), and so does
// UserPromptSubmit: its input is the only verified source of the permission
// mode of a session started without a flag (the model can call the MCP tool
// too, so what that tool reports is a claim), at one process per prompt.
// 2.1.332+ gets no PostToolUse hook at all (the hub hands a busy turn its
// messages through Claude Code's own socket) unless asked for one. OpenCode
// gets an in-process plugin instead of hooks (opencode.ts).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findNodeAtLocation, getNodeValue, parseTree } from 'jsonc-parser';
import {
  checkToml,
  editTarget,
  readJsonc,
  readText,
  removeTomlBlock,
  setJsonc,
  SetupError,
  TOML_BEGIN,
  TOML_END,
  type FileChange,
} from './edit.js';
import { versionAtLeast } from '../kit/version.js';
import { CLAUDE_MID_TURN_SINCE } from '../protocol/cc-wire.js';
import { editOpencodeConfig, opencodeConfigFile } from './opencode.js';
import { ADAPTER_NODE_FLAGS, claudeServer, setMcpJson, shellQuote, type McpTransport } from './mcp-entry.js';

export const SETUP_AGENTS = ['claude-code', 'codex', 'gemini', 'opencode'] as const;
export type SetupAgent = (typeof SETUP_AGENTS)[number];

export interface SetupEnv {
  home: string;
  env: NodeJS.ProcessEnv;
  /** How to run this CLI: node's path and the bundle's path. */
  node: string;
  script: string;
  /** The agent's version when known (`claude --version`, or `--agent-version`): decides the hook form. */
  agentVersion?: string | undefined;
  /** Keep the PostToolUse hook where the socket makes it unneeded (Claude Code 2.1.332+ with its messaging turned off). */
  postToolHook?: boolean | undefined;
  /** How Claude Code reaches the hub (default: stdio, its own `switchboard mcp` process). */
  mcpTransport?: McpTransport | undefined;
  /** The command hooks' own small entry (HOOK_ENTRY beside the bundle), when built: hooks start faster through it. */
  hookEntry?: string | undefined;
}

/** cli/hook-bin.ts bundled as one CommonJS file (cli/build.mjs). */
export const HOOK_ENTRY = 'switchboard-hook.cjs';

export function currentSetupEnv(): SetupEnv {
  const script = path.resolve(process.argv[1] as string);
  const entry = path.join(path.dirname(script), HOOK_ENTRY);
  return {
    home: os.homedir(),
    env: process.env,
    node: process.execPath,
    script,
    ...(fs.existsSync(entry) ? { hookEntry: entry } : {}),
  };
}

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

const HOOKS: Record<SetupAgent, HookSpec[]> = {
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
};

const AGENT_FLAG: Record<SetupAgent, string> = {
  'claude-code': 'claude',
  codex: 'codex',
  gemini: 'gemini',
  opencode: 'opencode',
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
function removeHooks(text: string, specs: HookSpec[]): string {
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

function addHooks(text: string, specs: HookSpec[], e: SetupEnv, agent: SetupAgent): string {
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

/**
 * What hub discovery reads from the environment. Codex gives MCP servers only
 * a fixed list of variables (HOME, PATH, TMPDIR, …; codex-rs/rmcp-client
 * DEFAULT_ENV_VARS) plus those named in `env_vars`; without these the MCP
 * server would look for another hub than the one its hooks and the user use.
 */
export const HUB_ENV_VARS = ['SWITCHBOARD_HOME', 'SWITCHBOARD_RUNTIME_DIR', 'XDG_RUNTIME_DIR'] as const;

function codexBlock(e: SetupEnv): string {
  const q = (s: string): string => JSON.stringify(s);
  return [
    TOML_BEGIN,
    '[mcp_servers.switchboard]',
    `command = ${q(e.node)}`,
    `args = [${[...ADAPTER_NODE_FLAGS, e.script, 'mcp', '--agent', 'codex'].map(q).join(', ')}]`,
    `env_vars = [${HUB_ENV_VARS.map(q).join(', ')}]`,
    TOML_END,
    '',
  ].join('\n');
}

/**
 * What the user must still do by hand for the agent to run what setup wrote
 * (docs/integrations.md has the sources). Printed after every setup run.
 */
const NOTES: Record<SetupAgent, string[]> = {
  'claude-code': ['Restart Claude Code; `/mcp` lists switchboard and `/hooks` shows the hooks.'],
  codex: [
    'Codex runs new hooks only after you trust them: start `codex`, open `/hooks` and trust the four Switchboard hooks (SessionStart, UserPromptSubmit, PostToolUse, Stop). Until then they do nothing (silently in `codex exec`).',
    'Check with `switchboard agents`: a session whose hooks never reported is marked "hooks not running".',
  ],
  gemini: [
    'Gemini CLI runs MCP servers and hooks only in trusted folders: in an untrusted folder `/mcp` shows switchboard as Disabled, every hook is skipped, and headless `gemini -p` refuses to run.',
    'Trust each project folder when Gemini asks, or with `/permissions` (headless runs: `--skip-trust` or GEMINI_CLI_TRUST_WORKSPACE=true).',
  ],
  opencode: [
    'Restart OpenCode; `opencode mcp list` shows switchboard. The plugin runs inside OpenCode (no hooks to trust).',
    'With any plugin configured, OpenCode first installs @opencode-ai/plugin into ~/.config/opencode with npm and waits for it: offline that delays each start by about a minute until one install succeeded (the plugin itself needs nothing from npm).',
  ],
};

export function setupNotes(agent: SetupAgent): readonly string[] {
  return NOTES[agent];
}

export interface Plan {
  agent: SetupAgent;
  changes: FileChange[];
}

/** The file changes for installing (or, with `uninstall`, removing) Switchboard for one agent. */
export function plan(agent: SetupAgent, e: SetupEnv, uninstall: boolean): Plan {
  const changes: FileChange[] = [];
  const json = (link: string, edit: (text: string) => string): void => {
    const file = editTarget(link);
    const before = readText(file);
    readJsonc(file, before); // refuse files that do not parse
    let after: string;
    try {
      after = edit(before ?? '');
    } catch (err) {
      if (err instanceof SetupError) throw err;
      throw new SetupError(
        `${file} cannot be edited (${err instanceof Error ? err.message : String(err)}); nothing was changed`,
      );
    }
    const unchangedEmpty = before === null && (after.trim() === '{}' || after.trim() === '');
    changes.push({ file, before, after: unchangedEmpty ? null : after });
  };
  const mcpArgs = [...ADAPTER_NODE_FLAGS, e.script, 'mcp', '--agent', AGENT_FLAG[agent]];
  switch (agent) {
    case 'claude-code': {
      const configDir = e.env.CLAUDE_CONFIG_DIR ? path.resolve(e.env.CLAUDE_CONFIG_DIR) : path.join(e.home, '.claude');
      const userConfig = e.env.CLAUDE_CONFIG_DIR
        ? path.join(configDir, '.claude.json')
        : path.join(e.home, '.claude.json');
      json(userConfig, (t) =>
        setMcpJson(
          t,
          userConfig,
          uninstall ? undefined : claudeServer(e.mcpTransport ?? { kind: 'stdio' }, { ...e, agentFlag: 'claude' }),
        ),
      );
      json(path.join(configDir, 'settings.json'), (t) =>
        uninstall ? removeHooks(t, HOOKS[agent]) : addHooks(t, HOOKS[agent], e, agent),
      );
      break;
    }
    case 'gemini': {
      const file = path.join(
        e.env.GEMINI_CLI_HOME ? path.resolve(e.env.GEMINI_CLI_HOME) : e.home,
        '.gemini',
        'settings.json',
      );
      json(file, (t) => {
        const withServer = setMcpJson(t, file, uninstall ? undefined : { command: e.node, args: mcpArgs });
        return uninstall ? removeHooks(withServer, HOOKS[agent]) : addHooks(withServer, HOOKS[agent], e, agent);
      });
      break;
    }
    case 'codex': {
      const dir = e.env.CODEX_HOME ? path.resolve(e.env.CODEX_HOME) : path.join(e.home, '.codex');
      const tomlFile = editTarget(path.join(dir, 'config.toml'));
      const before = readText(tomlFile);
      const parsed = checkToml(tomlFile, before ?? '');
      const stripped = removeTomlBlock(before ?? '');
      const servers = checkToml(tomlFile, stripped).mcp_servers as Record<string, unknown> | undefined;
      if (servers?.switchboard !== undefined)
        throw new SetupError(
          `${tomlFile} already has [mcp_servers.switchboard] that setup did not add; remove it first`,
        );
      void parsed;
      let after = stripped;
      if (!uninstall)
        after =
          (stripped === '' || stripped.endsWith('\n') ? stripped : stripped + '\n') +
          (stripped.trim() === '' ? '' : '\n') +
          codexBlock(e);
      checkToml(tomlFile, after);
      changes.push({ file: tomlFile, before, after: before === null && after === '' ? null : after });
      const hooksFile = path.join(dir, 'hooks.json');
      json(hooksFile, (t) => (uninstall ? removeHooks(t, HOOKS[agent]) : addHooks(t, HOOKS[agent], e, agent)));
      break;
    }
    case 'opencode': {
      const file = opencodeConfigFile(e.home, e.env);
      json(file, (t) => editOpencodeConfig(t, file, uninstall ? undefined : { node: e.node, script: e.script }));
      break;
    }
    default: {
      const never: never = agent;
      return never;
    }
  }
  return { agent, changes: changes.filter((c) => c.before !== c.after) };
}
