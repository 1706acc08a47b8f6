// Where the hub's MCP endpoint over HTTP listens (cli/mcp-http/gateway.ts)
// and where setup points Claude Code: 127.0.0.1 on one fixed port, because
// the URL is written into the agent's configuration once. SWITCHBOARD_MCP_PORT
// moves it (both `serve` and `setup` read it) or, as `off`, turns it off.

/** The default port: beside the user interface's 7317. */
export const DEFAULT_MCP_PORT = 7318;

/** The port to serve on: SWITCHBOARD_MCP_PORT (0 for a free one, `off` for none), else the default. */
export function mcpPortFrom(env: NodeJS.ProcessEnv): number | 'off' {
  const raw = env.SWITCHBOARD_MCP_PORT;
  if (raw === undefined || raw === '') return DEFAULT_MCP_PORT;
  if (raw === 'off') return 'off';
  const port = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  if (!(port >= 0 && port <= 65535))
    throw new Error(`SWITCHBOARD_MCP_PORT must be a port number (0-65535) or "off", not ${JSON.stringify(raw)}`);
  return port;
}

/** The URL setup writes for a port. */
export function mcpUrl(port: number): string {
  return `http://127.0.0.1:${port}/mcp`;
}
