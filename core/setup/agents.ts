// What `switchboard setup` changes for each agent: the MCP server entry and
// the hook entries, in that agent's own files and formats (sources in
// docs/integrations.md). Plans are computed from file texts and applied by
// edit.ts; our entries are recognised by their command (or, for Claude Code's
// mcp_tool hooks, server + tool), so uninstall removes only what setup added.
// Which hooks and in which form: hooks.ts. OpenCode gets an in-process
// plugin instead of hooks (opencode.ts).

import path from 'node:path';
import {
  checkToml,
  editTarget,
  readJsonc,
  readText,
  removeTomlBlock,
  SetupError,
  TOML_BEGIN,
  TOML_END,
  type FileChange,
} from './edit.js';
import { editOpencodeConfig, opencodeConfigFile } from './opencode.js';
import { ADAPTER_NODE_FLAGS, claudeServer, setMcpJson } from './mcp-entry.js';
import { addHooks, HOOKS, removeHooks } from './hooks.js';
import { AGENT_FLAG, type SetupAgent, type SetupEnv } from './setup-env.js';

export { AGENT_FLAG, currentSetupEnv, HOOK_ENTRY, SETUP_AGENTS, type SetupAgent, type SetupEnv } from './setup-env.js';
export { HOOK_TOOL, MCP_TOOL_HOOKS_SINCE } from './hooks.js';

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
  qwen: [
    'Restart Qwen Code; `/mcp` lists switchboard and `/hooks` shows the hooks. `--safe-mode`, `--bare` or `disableAllHooks` skip the hooks.',
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
    case 'qwen': {
      // Qwen Code's user settings: Gemini CLI's mcpServers shape, Claude Code's hook events. No `trust`.
      const file = path.join(
        e.env.QWEN_HOME ? path.resolve(e.env.QWEN_HOME) : path.join(e.home, '.qwen'),
        'settings.json',
      );
      json(file, (t) => {
        const withServer = setMcpJson(t, file, uninstall ? undefined : { command: e.node, args: mcpArgs });
        return uninstall ? removeHooks(withServer, HOOKS[agent]) : addHooks(withServer, HOOKS[agent], e, agent);
      });
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
