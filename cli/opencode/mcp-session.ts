// Which OpenCode session calls `switchboard mcp --agent opencode`. OpenCode
// runs one MCP process per directory for all its sessions, so the process
// cannot be the identity: our plugin adds the calling session's id to each
// of our tools' arguments (tool.execute.before, after the model wrote them,
// so the model cannot choose it), this moves it out of the arguments into
// the request's `_meta` before the MCP SDK parses the line, and the tool
// then acts with the credentials the plugin of the same OpenCode process
// wrote for that session (sessions.ts). Without the plugin (no argument)
// the process's own session is used, as for the other agents.

import type { Credentials } from '../agent/credentials.js';
import type { Extra } from '../agent/mcp-tools.js';
import { isSessionId, opencodeCredentials, SESSION_ARG } from './sessions.js';

const META_KEY = 'switchboard/opencode-session';

/** A `tools/call` line with our session argument moved into `_meta`; any other line unchanged. */
export function moveSessionArg(line: Buffer): Buffer {
  if (!line.includes(SESSION_ARG)) return line;
  try {
    const msg = JSON.parse(line.toString('utf8')) as { method?: unknown; params?: Record<string, unknown> };
    const args = msg.params?.arguments as Record<string, unknown> | undefined;
    if (msg.method !== 'tools/call' || args === null || typeof args !== 'object' || !(SESSION_ARG in args)) return line;
    const ses = args[SESSION_ARG];
    delete args[SESSION_ARG];
    const meta = (msg.params as Record<string, unknown>)._meta;
    (msg.params as Record<string, unknown>)._meta = {
      ...(meta !== null && typeof meta === 'object' ? meta : {}),
      [META_KEY]: typeof ses === 'string' ? ses : '',
    };
    return Buffer.from(JSON.stringify(msg) + '\n');
  } catch {
    return line; // not JSON: the SDK reports it
  }
}

/** The credentials of the session named in the request, the process's own session when none is named. */
export function opencodeCredsFor(
  opencodePid: number,
  own: () => Promise<Credentials>,
): (extra: Extra) => Promise<Credentials> {
  return async (extra) => {
    const ses = extra._meta?.[META_KEY];
    if (ses === undefined) return own();
    if (!isSessionId(ses))
      throw new Error('this OpenCode session (a subagent) is not a Switchboard session; the main session can send');
    const c = opencodeCredentials(ses, opencodePid);
    if (c === undefined)
      throw new Error(`OpenCode session ${ses} is not registered with Switchboard (is its hub running?)`);
    return c;
  };
}
