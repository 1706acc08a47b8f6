// Which coding agents are installed (their command on the hub's PATH) and
// whether Switchboard's setup is already in their configuration. Reads
// directory entries and configuration files only: never runs the agents and
// never writes. A configuration that does not parse is reported, not fixed.

import fs from 'node:fs';
import path from 'node:path';
import { plan, SETUP_AGENTS, type SetupAgent, type SetupEnv } from './agents.js';
import { SetupError, type FileChange } from './edit.js';
import { ADAPTER_NODE_FLAGS, httpTransport } from './mcp-entry.js';

/** The command each agent installs on PATH. */
export const AGENT_COMMANDS: Record<SetupAgent, string> = {
  'claude-code': 'claude',
  codex: 'codex',
  gemini: 'gemini',
  opencode: 'opencode',
  qwen: 'qwen',
};

/** PATH entries looked at; a longer PATH is cut here (a real one has a few dozen). */
const MAX_PATH_ENTRIES = 256;
/** Longest problem text passed on (a configuration error names the file). */
const MAX_PROBLEM_CHARS = 400;
const UNREADABLE = 'its configuration files could not be read';

export interface DetectedAgent {
  agent: SetupAgent;
  command: string;
  /** The executable found on PATH, or null when the agent is not installed. */
  path: string | null;
  /** Setup has nothing left to add: its MCP server and hooks are there. */
  configured: boolean;
  /** Why the configuration could not be read (setup would refuse it too). */
  problem: string | null;
}

function isExecutable(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `command` on `pathVar` (relative entries are ignored: they depend on a cwd). */
export function which(command: string, pathVar: string | undefined): string | null {
  return whichAll(command, pathVar, 1)[0] ?? null;
}

/** Every executable `command` on `pathVar`, in its order, at most `most` of them. */
export function whichAll(command: string, pathVar: string | undefined, most: number): string[] {
  const found: string[] = [];
  const dirs = (pathVar ?? '').split(path.delimiter).slice(0, MAX_PATH_ENTRIES);
  for (const dir of dirs) {
    if (found.length >= most) break;
    if (dir === '' || !path.isAbsolute(dir)) continue;
    const file = path.join(dir, command);
    if (isExecutable(file)) found.push(file);
  }
  return found;
}

/**
 * Setup has nothing left to add, with either transport Claude Code can be set up with: its own process (stdio) or
 * the hub's HTTP endpoint. Throws what `plan` throws for a file it cannot edit.
 */
export function isConfigured(agent: SetupAgent, e: SetupEnv): boolean {
  if (onlyAddsAdapterFlags(plan(agent, e, false).changes)) return true;
  if (agent !== 'claude-code') return false;
  let http;
  try {
    http = httpTransport(e.env);
  } catch {
    return false; // no fixed port: it cannot be set up over HTTP
  }
  return onlyAddsAdapterFlags(plan(agent, { ...e, mcpTransport: http }, false).changes);
}

const FLAG_ITEMS = new RegExp(ADAPTER_NODE_FLAGS.map((f) => `["']${f}["'],\\s*`).join('|'), 'g');

/**
 * Nothing to change but the adapter's node flags (ADAPTER_NODE_FLAGS): an entry written before they came works as
 * it is, so it reads as set up; `switchboard setup` still offers to add them.
 */
function onlyAddsAdapterFlags(changes: readonly FileChange[]): boolean {
  return changes.every((c) => c.before !== null && c.after !== null && c.after.replace(FLAG_ITEMS, '') === c.before);
}

export function detectAgents(e: SetupEnv): DetectedAgent[] {
  return SETUP_AGENTS.map((agent): DetectedAgent => {
    const command = AGENT_COMMANDS[agent];
    let configured = false;
    let problem: string | null = null;
    try {
      configured = isConfigured(agent, e);
    } catch (err) {
      // A SetupError names the file and what is wrong; anything else (EACCES…) gets a fixed text.
      problem = err instanceof SetupError ? err.message.slice(0, MAX_PROBLEM_CHARS) : UNREADABLE;
    }
    return { agent, command, path: which(command, e.env.PATH), configured, problem };
  });
}
