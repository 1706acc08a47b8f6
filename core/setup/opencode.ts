// What `switchboard setup opencode` changes: OpenCode's global configuration
// file (the first of opencode.jsonc, opencode.json, config.json in
// `$XDG_CONFIG_HOME/opencode`, as OpenCode itself looks) gets the local MCP
// server `mcp.switchboard` and our in-process plugin (the bundle beside the
// CLI, OPENCODE_PLUGIN) in its `plugin` list. No command hooks: the plugin
// runs inside OpenCode's process, so no process starts per tool call. Our
// entries are recognised by their command / file name, so uninstall removes
// only what setup added; a `switchboard` MCP entry we did not write is an
// error, never overwritten. Pure text in, text out (edit.ts writes).

import fs from 'node:fs';
import path from 'node:path';
import { readJsonc, setJsonc, SetupError } from './edit.js';
import { ADAPTER_NODE_FLAGS } from './mcp-entry.js';

/** cli/opencode/plugin.ts bundled as one ES module (cli/build.mjs), beside the CLI bundle. */
export const OPENCODE_PLUGIN = 'switchboard-opencode.mjs';
/** OpenCode's global configuration files, in the order OpenCode reads the first that exists. */
const CONFIG_NAMES = ['opencode.jsonc', 'opencode.json', 'config.json'] as const;

/** The configuration file setup edits for OpenCode. */
export function opencodeConfigFile(home: string, env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME ? path.resolve(env.XDG_CONFIG_HOME) : path.join(home, '.config');
  const dir = path.join(base, 'opencode');
  for (const name of CONFIG_NAMES) if (fs.existsSync(path.join(dir, name))) return path.join(dir, name);
  return path.join(dir, 'opencode.json');
}

function isOurMcp(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return false;
  const cmd = (v as { command?: unknown }).command;
  return Array.isArray(cmd) && cmd.includes('mcp') && cmd.some((a) => typeof a === 'string' && /switchboard/.test(a));
}

function isOurPlugin(v: unknown): boolean {
  const spec = Array.isArray(v) ? (v[0] as unknown) : v;
  return typeof spec === 'string' && spec.endsWith(OPENCODE_PLUGIN);
}

export interface OpencodeEntries {
  node: string;
  script: string;
}

/** The configuration text with our entries set (or, with `entries` undefined, removed). */
export function editOpencodeConfig(text: string, file: string, entries: OpencodeEntries | undefined): string {
  const cfg = readJsonc(file, text);
  const mcp = cfg.mcp;
  if (mcp !== undefined && (mcp === null || typeof mcp !== 'object' || Array.isArray(mcp)))
    throw new SetupError(`${file}: "mcp" is not an object of servers; nothing was changed`);
  const current = (mcp as Record<string, unknown> | undefined)?.switchboard;
  if (current !== undefined && !isOurMcp(current))
    throw new SetupError(
      `${file} already has an MCP server named "switchboard" that setup did not add; rename or remove it first`,
    );
  const plugins = cfg.plugin;
  if (plugins !== undefined && !Array.isArray(plugins))
    throw new SetupError(`${file}: "plugin" is not a list; nothing was changed`);
  let out = text;
  // Ours first out of the plugin list (from the end, so indexes stay right).
  const list = (plugins ?? []) as unknown[];
  for (let i = list.length - 1; i >= 0; i--) if (isOurPlugin(list[i])) out = setJsonc(out, ['plugin', i], undefined);
  if (entries === undefined) {
    if (current !== undefined) {
      const left = Object.keys(mcp as object).filter((k) => k !== 'switchboard');
      out = setJsonc(out, left.length === 0 ? ['mcp'] : ['mcp', 'switchboard'], undefined);
    }
    const leftPlugins = readJsonc(file, out).plugin;
    if (Array.isArray(leftPlugins) && leftPlugins.length === 0 && list.length > 0)
      out = setJsonc(out, ['plugin'], undefined);
    return out;
  }
  out = setJsonc(out, ['mcp', 'switchboard'], {
    type: 'local',
    command: [entries.node, ...ADAPTER_NODE_FLAGS, entries.script, 'mcp', '--agent', 'opencode'],
    enabled: true,
  });
  const plugin = path.join(path.dirname(entries.script), OPENCODE_PLUGIN);
  const now = readJsonc(file, out).plugin;
  out = Array.isArray(now) ? setJsonc(out, ['plugin', now.length], plugin) : setJsonc(out, ['plugin'], [plugin]);
  return out;
}
