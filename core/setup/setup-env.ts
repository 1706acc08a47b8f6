// Who runs setup, and how: the agents it knows, where this CLI is (node and
// the bundle, which every command setup writes runs), the user's home and
// environment, and what decides the forms it writes (the agent's version,
// the MCP transport). Shared by the plans (agents.ts) and the hooks (hooks.ts).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { McpTransport } from './mcp-entry.js';

export const SETUP_AGENTS = ['claude-code', 'codex', 'gemini', 'opencode', 'qwen'] as const;
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
  /** Why `node` cannot run the CLI (the desktop app found none new enough on PATH): setup refuses to install. */
  nodeProblem?: string | undefined;
}

/** cli/hook-bin.ts bundled as one CommonJS file (cli/build.mjs). */
export const HOOK_ENTRY = 'switchboard-hook.cjs';

/**
 * Setup for the CLI bundle `script`, run by `node`: what every hook and MCP command setup writes starts. The
 * desktop app names its bundled CLI and a node on PATH new enough to run it (its own executable is Electron, not
 * node; electron/setup-node.ts).
 */
export function setupEnvFor(node: string, script: string, env: NodeJS.ProcessEnv = process.env): SetupEnv {
  const entry = path.join(path.dirname(script), HOOK_ENTRY);
  return {
    home: os.homedir(),
    env,
    node,
    script,
    ...(fs.existsSync(entry) ? { hookEntry: entry } : {}),
  };
}

/** Setup for this process: the node running it and the script it was started with (`switchboard setup`, serve). */
export function currentSetupEnv(): SetupEnv {
  return setupEnvFor(process.execPath, path.resolve(process.argv[1] as string));
}

/** The `--agent` value our hook and MCP commands carry. */
export const AGENT_FLAG: Record<SetupAgent, string> = {
  'claude-code': 'claude',
  codex: 'codex',
  gemini: 'gemini',
  opencode: 'opencode',
  qwen: 'qwen',
};
