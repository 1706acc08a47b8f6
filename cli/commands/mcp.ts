// `switchboard mcp`: the MCP server (stdio) an agent runs. It registers the
// agent's session (the agent is its parent process), starting the hub when
// none runs, offers tools whose names cannot be confused with Claude Code's
// built-in SendMessage/ListAgents, and appends unread inbox items to every
// result, acknowledging them only after the result was handed back. It exits
// on the first SIGINT or SIGTERM (or when stdin ends), after unregistering.
// A message from the agent over MAX_FRAME_BYTES is dropped (bounded-stdin.ts).
// For OpenCode it registers nothing itself: each call acts as the OpenCode
// session its plugin names (opencode/mcp-session.ts).
// stderr carries only what is wrong (agents log it as errors); stdout is the protocol.
// With --print-headers it serves no MCP: it registers (or resumes) the
// agent's session the same way and prints the headers of an MCP connection
// over HTTP (mcp-http/headers.ts) as one JSON object — Claude Code's
// headersHelper runs it once per connection, so no process stays.

import { spawn } from 'node:child_process';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { HubClient, HubNotRunningError, RpcError } from '../../core/client/client.js';
import { HubLink, type HubCaller } from '../agent/hub-link.js';
import { AGENT_KINDS } from '../../core/protocol/methods.js';
import { hubSocketPath, oneOf, parse, type Ctx } from '../common.js';
import {
  agentPid,
  credentialsFile,
  ensureSession,
  forgetCredentials,
  type AgentKind,
  type Credentials,
} from '../agent/identity.js';
import { boundedLines } from '../agent/bounded-stdin.js';
import { registerTools } from '../agent/mcp-tools.js';
import { moveSessionArg, opencodeCredsFor } from '../opencode/mcp-session.js';
import { VERSION } from '../version.js';
import { headersFor } from '../mcp-http/headers.js';

const HUB_START_WAIT_MS = 5000;
/** How long unregistering may take at exit; the agent kills us soon after a signal. */
const UNREGISTER_WAIT_MS = 2000;
/** Longest MCP message taken from the agent (the SDK's own buffer is 10 MiB). */
const MAX_FRAME_BYTES = 8 * 1024 * 1024;

async function connectOrStartHub(): Promise<HubClient> {
  try {
    return await HubClient.connect(hubSocketPath(), { timeoutMs: 2000 });
  } catch (err) {
    if (!(err instanceof HubNotRunningError)) throw err;
  }
  const script = process.argv[1] as string;
  const child = spawn(process.execPath, [script, 'serve', '--quiet'], { detached: true, stdio: 'ignore' });
  child.unref();
  const deadline = Date.now() + HUB_START_WAIT_MS;
  for (;;) {
    try {
      return await HubClient.connect(hubSocketPath(), { timeoutMs: 500 });
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/**
 * The agent's session (registered, or resumed from its credentials file). A
 * --name another live session holds (or one rewritten) is `told` as a note
 * for the agent: which name peers reach it by.
 */
function agentSession(
  client: HubCaller,
  pid: number,
  values: { name?: string; mode?: string },
  agent: AgentKind,
  told: (note: string) => void,
): Promise<Credentials> {
  return ensureSession({
    client,
    pid,
    cwd: process.cwd(),
    agent,
    ...(values.name ? { name: values.name } : {}),
    ...(values.mode ? { permissionMode: values.mode } : {}),
    onNameChange: (change) => told(`Your Switchboard session name is not the one asked for. ${change.note}`),
  });
}

/** `--print-headers`: the agent's session as the headers of an MCP connection over HTTP, then exit. */
async function printHeaders(
  values: { name?: string; mode?: string; team?: string },
  agent: AgentKind,
  ctx: Ctx,
): Promise<number> {
  const client = await connectOrStartHub();
  try {
    const pid = agentPid();
    let note: string | undefined;
    const creds = await agentSession(client, pid, values, agent, (n) => (note = n));
    const team = values.team ?? process.env.CLAUDE_CODE_TASK_LIST_ID;
    ctx.out(
      JSON.stringify(
        headersFor({ creds, pid, agent, ...(team ? { team } : {}), ...(note !== undefined ? { note } : {}) }),
      ),
    );
    return 0;
  } finally {
    client.close();
  }
}

export async function mcp(args: string[], ctx: Ctx): Promise<number> {
  const { values } = parse(args, {
    agent: { type: 'string' },
    name: { type: 'string' },
    mode: { type: 'string' },
    team: { type: 'string' },
    'print-headers': { type: 'boolean' },
  });
  const agent: AgentKind = oneOf('--agent', values.agent, AGENT_KINDS) ?? 'other';
  if (values['print-headers']) return printHeaders(values, agent, ctx);
  // Listen for the end first: an agent that stops us during start-up must not have to SIGKILL us.
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  process.once('SIGTERM', () => stop());
  process.once('SIGINT', () => stop());
  process.stdin.once('end', () => stop());
  const first = await connectOrStartHub();
  const pid = agentPid();
  let own: Credentials | undefined;
  // After a hub restart the link connects again and resumes this session (same id and token, its inbox kept). It
  // never starts a hub: one the person stopped (the desktop app quit) stays stopped, and the app can start again.
  const reconnect = (): Promise<HubClient> => HubClient.connect(hubSocketPath(), { timeoutMs: 2000 });
  const client = new HubLink(first, reconnect, async (again) => {
    if (own !== undefined) Object.assign(own, await agentSession(again, pid, values, agent, () => undefined));
  });
  // A --name another live session holds (or one rewritten): the agent is told at initialize, in the server's
  // instructions, which name peers reach it by — else it would sign messages as a name that is someone else's.
  let renamed: string | undefined;
  const ownSession = async (): Promise<Credentials> =>
    (own ??= await agentSession(client, pid, values, agent, (n) => (renamed = n)));
  // OpenCode: one MCP process serves every session of a directory; each call names its session (its plugin's).
  const opencode = agent === 'opencode';
  const creds = opencode ? opencodeCredsFor(pid, ownSession) : await ownSession();
  const server = new McpServer(
    { name: 'switchboard', version: VERSION },
    renamed !== undefined ? { instructions: renamed } : undefined,
  );
  // Where this hub keeps its quiet marks (a post-tool switchboard_hook call with nothing pending then calls no hub).
  const { runtimeDir } = await client.call('hub.info', {});
  registerTools(server, {
    client,
    creds,
    agent,
    defaultTeam: values.team ?? process.env.CLAUDE_CODE_TASK_LIST_ID,
    runtimeDir,
  });
  // A line the SDK cannot take is dropped and said on stderr; it used to close the transport and end the session.
  const stdin = boundedLines(
    process.stdin,
    MAX_FRAME_BYTES,
    (bytes) =>
      process.stderr.write(
        `switchboard mcp: dropped a message of ${bytes} bytes from the agent (the limit is ${MAX_FRAME_BYTES})\n`,
      ),
    opencode ? moveSessionArg : undefined,
  );
  const transport = new StdioServerTransport(stdin, process.stdout);
  transport.onclose = () => stop();
  await server.connect(transport);
  // Nothing on stderr when all is well: agents log every stderr line as an error.
  if (process.env.SWITCHBOARD_DEBUG)
    process.stderr.write(`switchboard mcp: session ${own?.sessionId ?? '(per call)'} for agent pid ${pid}\n`);

  await stopped;
  // A hub that went away keeps the session dormant by itself: no reconnecting at exit to say goodbye.
  if (own !== undefined && client.connected) {
    await client.call('session.unregister', own, { timeoutMs: UNREGISTER_WAIT_MS }).catch((err: unknown) => {
      if (!(err instanceof RpcError)) process.stderr.write(`switchboard mcp: unregister failed: ${String(err)}\n`);
    });
    forgetCredentials(credentialsFile(pid));
  }
  client.close();
  transport.onclose = undefined;
  await server.close().catch(() => undefined);
  // The transport only pauses stdin; an open pipe would keep this process alive after a signal.
  process.stdin.destroy();
  return 0;
}
