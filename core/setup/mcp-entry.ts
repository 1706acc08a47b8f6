// The "switchboard" MCP server entry in a JSON configuration (Claude Code's
// `mcpServers`, Gemini CLI's): what setup writes — a stdio command, or for
// Claude Code over HTTP a URL and the headersHelper that gives each
// connection its session (cli/mcp-http/) — and how it recognises an entry
// it wrote (any install location), so that it never overwrites a server of
// the same name that the user added.

import { mcpPortFrom, mcpUrl } from '../transport/mcp-port.js';
import { readJsonc, setJsonc, SetupError } from './edit.js';

/** A path for a command line that `/bin/sh -c` runs. */
export function shellQuote(p: string): string {
  return `"${p.replace(/(["\\$`])/g, '\\$1')}"`;
}

/**
 * Node flags before the script of every `switchboard mcp` process setup writes. V8's memory reducer woke each idle
 * adapter every ~8 s (0.12 wakeups/s, measured; 0 without it) to shrink a heap that an idle adapter does not grow.
 */
export const ADAPTER_NODE_FLAGS = ['--no-memory-reducer'] as const;

/** How an agent's MCP client reaches the hub: its own `switchboard mcp` process, or the hub's HTTP endpoint. */
export type McpTransport = { kind: 'stdio' } | { kind: 'http'; url: string };

/** `--transport http`: the hub's endpoint at the fixed port SWITCHBOARD_MCP_PORT names (written once into the agent's configuration). */
export function httpTransport(env: NodeJS.ProcessEnv): McpTransport {
  let port: number | 'off';
  try {
    port = mcpPortFrom(env);
  } catch (err) {
    throw new SetupError((err as Error).message);
  }
  if (port === 'off' || port === 0)
    throw new SetupError(
      `--transport http needs the fixed port the hub serves MCP on; SWITCHBOARD_MCP_PORT is ${port === 0 ? '0 (a free port each start)' : 'off'}`,
    );
  return { kind: 'http', url: mcpUrl(port) };
}

/** The Claude Code server entry (`~/.claude.json`, user scope: a project-scope headersHelper waits for trust). */
export function claudeServer(
  t: McpTransport,
  run: { node: string; script: string; agentFlag: string },
): Record<string, unknown> {
  if (t.kind === 'stdio')
    return {
      type: 'stdio',
      command: run.node,
      args: [...ADAPTER_NODE_FLAGS, run.script, 'mcp', '--agent', run.agentFlag],
      env: {},
    };
  return {
    type: 'http',
    url: t.url,
    // `exec`: the helper's parent is then the agent itself, whose session it registers.
    headersHelper: `exec ${shellQuote(run.node)} ${shellQuote(run.script)} mcp --print-headers --agent ${run.agentFlag}`,
  };
}

function isOurServer(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return false;
  const { args, headersHelper } = v as { args?: unknown; headersHelper?: unknown };
  if (typeof headersHelper === 'string') return /switchboard\S*"? mcp --print-headers/.test(headersHelper);
  return (
    Array.isArray(args) && args.includes('mcp') && args.some((a) => typeof a === 'string' && /switchboard/.test(a))
  );
}

/** Sets (or, with undefined, removes) our entry; another server named "switchboard" is refused. */
export function setMcpJson(text: string, file: string, server: Record<string, unknown> | undefined): string {
  const cfg = readJsonc(file, text);
  const servers = cfg.mcpServers as Record<string, unknown> | undefined;
  const current = servers?.switchboard;
  if (current !== undefined && !isOurServer(current))
    throw new SetupError(
      `${file} already has an MCP server named "switchboard" that setup did not add; rename or remove it first`,
    );
  if (server === undefined) {
    if (current === undefined) return text;
    const left = Object.keys(servers ?? {}).filter((k) => k !== 'switchboard');
    return left.length === 0
      ? setJsonc(text, ['mcpServers'], undefined)
      : setJsonc(text, ['mcpServers', 'switchboard'], undefined);
  }
  return setJsonc(text, ['mcpServers', 'switchboard'], server);
}
