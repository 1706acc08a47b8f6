// Starting MCP over HTTP beside a hub that runs in this process: the port
// from the environment, and what is said when it cannot be served.

import type { Logger } from '../../core/kit/logger.js';
import { mcpPortFrom } from '../../core/transport/mcp-port.js';
import { startMcpGateway, type McpGateway } from './gateway.js';

/**
 * MCP over HTTP beside the hub (gateway.ts), for both composition roots
 * (`serve`, the desktop app). Not fatal when it cannot listen: agents on
 * stdio do not need it. A port the user chose that is taken is a warning;
 * the default port taken (another hub, say) is said at info.
 */
export async function startMcpHttp(hubSocket: string, logger: Logger): Promise<McpGateway | undefined> {
  let port: number | 'off';
  try {
    port = mcpPortFrom(process.env);
  } catch (err) {
    logger.warn(`MCP over HTTP is not served: ${(err as Error).message}`);
    return undefined;
  }
  if (port === 'off') return undefined;
  try {
    return await startMcpGateway({ port, hubSocket, logger });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    const text = `MCP over HTTP is not served: 127.0.0.1:${port} (${code}); agents set up with --transport http cannot reach this hub`;
    if (process.env.SWITCHBOARD_MCP_PORT) logger.warn(text);
    else logger.info(text);
    return undefined;
  }
}
