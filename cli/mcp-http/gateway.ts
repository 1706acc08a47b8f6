// MCP over streamable HTTP, served beside the hub on 127.0.0.1: an agent
// that can reach it (Claude Code through `headersHelper`) needs no
// Switchboard process of its own. Every request carries its session's id
// and token (headers.ts); the initialize is checked against the hub, and
// every later request of that MCP session must carry the same pair, so no
// connection can act as another session. Refusals are 403 with a JSON-RPC
// error, never 401 (that sends Claude Code into OAuth discovery for good);
// an unknown MCP session is 404 (the spec: the client initializes again).
// Only loopback Host headers pass and no browser Origin does (DNS
// rebinding, other local ports). When the agent's event stream closes and
// its process is gone, its Switchboard session ends at once — no polling.
// The tools are the stdio adapter's (agent/mcp-tools.ts), talking to the
// hub over its socket like every client.

import { readFileSync } from 'node:fs';
import http from 'node:http';
import { timingSafeEqual, randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { HubClient, RpcError } from '../../core/client/client.js';
import { pidAlive } from '../../core/registry/proc.js';
import type { Logger } from '../../core/kit/logger.js';
import { credentialsFile, forgetCredentials } from '../agent/credentials.js';
import { registerTools } from '../agent/mcp-tools.js';
import { VERSION } from '../version.js';
import { parseCallerHeaders, type CallerHeaders } from './headers.js';

/**
 * How often an idle event stream gets a comment frame. The SDK's 15 s woke the hub once per open stream every
 * 15 s (6.5 wakeups/s at 100 idle sessions, bench/peers.bench.ts); on loopback no intermediary needs it sooner,
 * and 2 min stays inside a client's 5 min idle read timeout.
 */
const EVENT_STREAM_KEEPALIVE_MS = 120_000;
/** Longest request body taken (the stdio adapter's frame bound). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Open connections at once (agents keep one or two each). */
const MAX_CONNECTIONS = 1024;
/** How often Node checks the header timeout of connections: rarely (each check is a wakeup of the hub). */
const CHECK_INTERVAL_MS = 5 * 60_000;
/** MCP sessions kept at once; an initialize beyond it is answered 503. */
const MAX_MCP_SESSIONS = 512;

export interface McpGatewayOptions {
  port: number;
  hubSocket: string;
  logger: Logger;
}

export interface McpGateway {
  readonly port: number;
  /** MCP sessions open now. */
  sessionCount(): number;
  close(): Promise<void>;
}

interface Entry {
  caller: CallerHeaders;
  transport: StreamableHTTPServerTransport;
  server: McpServer;
}

const sameSecret = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

function refuse(res: http.ServerResponse, status: number, message: string): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}

/** The body, settled exactly once: on its end, past the bound, or when the client went away mid-body. */
function readBody(req: http.IncomingMessage): Promise<Buffer | 'too large' | 'gone'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      req.removeAllListeners('data');
      req.resume();
      resolve('too large');
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve('gone'));
    req.on('close', () => resolve('gone'));
  });
}

/** Whether the agent's process has ended (a zombie has: its parent has not reaped it yet). */
function processGone(pid: number): boolean {
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
    } catch {
      return true;
    }
  }
  return !pidAlive(pid);
}

/** After an event stream closed: when the agent exits it closes its connections first, then ends. */
const GONE_CHECKS_MS = [0, 250, 1000, 3000];

export async function startMcpGateway(opts: McpGatewayOptions): Promise<McpGateway> {
  const client = await HubClient.connect(opts.hubSocket);
  const { runtimeDir } = await client.call('hub.info', {});
  const entries = new Map<string, Entry>();
  let port = opts.port;
  let closing = false;

  const loopbackHost = (host: string | undefined): boolean =>
    host === `127.0.0.1:${port}` || host === `localhost:${port}` || host === `[::1]:${port}`;

  /** Ends an MCP session (the agent's Switchboard session stays). */
  const closeEntry = (id: string): void => {
    const entry = entries.get(id);
    if (entry === undefined) return;
    entries.delete(id);
    void entry.server.close().catch(() => undefined);
  };

  /** The agent's process is gone: its Switchboard session ends (kept for a resume when bound to a conversation). */
  const endSession = ({ creds, pid }: CallerHeaders): void => {
    for (const [id, e] of entries) if (e.caller.creds.sessionId === creds.sessionId) closeEntry(id);
    client.call('session.unregister', creds).then(
      () => forgetCredentials(credentialsFile(pid)),
      (err: unknown) => {
        if (!(err instanceof RpcError) && !closing)
          opts.logger.warn('mcp http: unregister failed', { error: String(err) });
      },
    );
  };

  /**
   * The agent closed its event stream or its MCP session (an agent does both
   * as it exits, some while still alive): a few checks whether its process
   * ended, then nothing more.
   */
  const watchExit = (caller: CallerHeaders): void => {
    const check = (i: number): void => {
      if (closing) return;
      if (processGone(caller.pid)) return endSession(caller);
      const next = GONE_CHECKS_MS[i + 1];
      if (next !== undefined) setTimeout(() => check(i + 1), next - (GONE_CHECKS_MS[i] ?? 0)).unref();
    };
    check(0);
  };

  const open = async (caller: CallerHeaders, req: http.IncomingMessage, res: http.ServerResponse, body: unknown) => {
    if (entries.size >= MAX_MCP_SESSIONS) return refuse(res, 503, 'too many MCP sessions');
    try {
      await client.call('inbox.ack', { ...caller.creds, ids: [] }); // the pair is a live session's
    } catch (err) {
      if (err instanceof RpcError && err.reason === 'unauthorized')
        return refuse(res, 403, 'this Switchboard session is unknown or its token is wrong');
      throw err;
    }
    // One agent connection per session: an earlier one (before a reconnect) is closed.
    for (const [id, e] of entries) if (e.caller.creds.sessionId === caller.creds.sessionId) closeEntry(id);
    const server = new McpServer(
      { name: 'switchboard', version: VERSION },
      caller.note !== undefined ? { instructions: caller.note } : undefined,
    );
    registerTools(server, {
      client,
      creds: caller.creds,
      agent: caller.agent,
      defaultTeam: caller.team,
      runtimeDir,
    });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      keepAliveMs: EVENT_STREAM_KEEPALIVE_MS,
      onsessioninitialized: (id) => void entries.set(id, { caller, transport, server }),
      onsessionclosed: (id) => {
        closeEntry(id);
        watchExit(caller);
      },
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    if (!loopbackHost(req.headers.host) || req.headers.origin !== undefined)
      return refuse(res, 403, 'only local agents may connect (no browser origin, a loopback host)');
    if ((req.url ?? '').split('?')[0] !== '/mcp') return refuse(res, 404, 'not found: the MCP endpoint is /mcp');
    const caller = parseCallerHeaders(req.headers);
    if ('problem' in caller) return refuse(res, 403, caller.problem);
    let body: unknown;
    if (req.method === 'POST') {
      const raw = await readBody(req);
      if (raw === 'gone') return void res.destroy();
      if (raw === 'too large') return refuse(res, 413, `a request body over ${MAX_BODY_BYTES} bytes`);
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return refuse(res, 400, 'the request body is not JSON');
      }
    }
    const mcpSession = req.headers['mcp-session-id'];
    if (typeof mcpSession !== 'string') {
      if (req.method !== 'POST') return refuse(res, 400, 'no Mcp-Session-Id: initialize first');
      return open(caller, req, res, body);
    }
    const entry = entries.get(mcpSession);
    if (entry === undefined) return refuse(res, 404, 'this MCP session is unknown (it ended, or the hub restarted)');
    const { creds } = entry.caller;
    if (!sameSecret(caller.creds.sessionId, creds.sessionId) || !sameSecret(caller.creds.token, creds.token))
      return refuse(res, 403, 'this MCP session belongs to another Switchboard session');
    if (req.method === 'GET') res.once('close', () => watchExit(entry.caller));
    await entry.transport.handleRequest(req, res, body);
  };

  // Timeouts are checked at a long interval: an idle hub must not wake for them (a stalled local client costs a slot).
  const server = http.createServer({ connectionsCheckingInterval: CHECK_INTERVAL_MS }, (req, res) => {
    handle(req, res).catch((err: unknown) => {
      opts.logger.warn('mcp http: request failed', { error: String(err) });
      refuse(res, 500, 'internal error');
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 0; // event streams stay open
  server.maxConnections = MAX_CONNECTIONS;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    client.close();
    throw err;
  }
  server.on('error', (err) => opts.logger.warn('mcp http: server error', { error: String(err) }));
  port = (server.address() as { port: number }).port;

  return {
    port,
    sessionCount: () => entries.size,
    close: async () => {
      closing = true;
      for (const id of [...entries.keys()]) closeEntry(id);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      client.close();
    },
  };
}
