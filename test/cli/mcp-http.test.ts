// MCP over streamable HTTP from the hub's side (cli/mcp-http/), with the
// SDK's own HTTP client against a real hub and a real loopback port: each
// "agent" is a live node process whose child runs `switchboard mcp
// --print-headers` as Claude Code's headersHelper does, so the session is
// bound to the agent's pid and no Switchboard process stays. Requests
// without that session's id and token are refused with 403 (never 401),
// and when the agent is gone its session ends as its event stream closes,
// with the hub's liveness sweep an hour away.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startMcpGateway, type McpGateway } from '../../cli/mcp-http/gateway.js';
import { stderrLogger } from '../../core/kit/logger.js';
import { CLI, cliEnv } from '../helpers/cli.js';
import { startHub, until, type TestHub } from '../helpers/hub.js';
import { stopAll, stopProcess } from '../helpers/processes.js';

let th: TestHub | undefined;
let gw: McpGateway | undefined;
const clients: Client[] = [];
const agents: ChildProcess[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await stopAll(agents.splice(0));
  await gw?.close();
  await th?.close();
  gw = undefined;
  th = undefined;
});

/** An agent process that runs the headers helper once (as headersHelper does) and stays alive. */
const AGENT = `const { spawnSync } = require('node:child_process');
const r = spawnSync(process.execPath, process.argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
process.stdout.write(r.stdout);
setInterval(() => {}, 1 << 30);`;

interface Agent {
  proc: ChildProcess;
  headers: Record<string, string>;
}

async function startAgent(name: string): Promise<Agent> {
  const proc = spawn(
    process.execPath,
    ['-e', AGENT, CLI, 'mcp', '--print-headers', '--agent', 'claude', '--name', name, '--mode', 'default'],
    {
      env: cliEnv(th!.dirs),
      cwd: th!.dirs.root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  agents.push(proc);
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await until(() => out.includes('\n') || out.trim().endsWith('}'));
  return { proc, headers: JSON.parse(out) as Record<string, string> };
}

const url = (): URL => new URL(`http://127.0.0.1:${gw!.port}/mcp`);

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url(), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

type Result = { content: Array<{ type: string; text: string }>; isError?: boolean };
const text = (r: unknown): string => (r as Result).content.map((c) => c.text).join('\n');

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

async function post(headers: Record<string, string>, body: unknown = INIT): Promise<Response> {
  return fetch(url(), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

/** A POST with exactly these headers (fetch would not send another Host). */
function rawStatus(headers: Record<string, string>): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const req = http.request(url(), { method: 'POST', headers }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', reject);
    req.end(JSON.stringify(INIT));
  });
}

async function start(): Promise<void> {
  th = await startHub({ limits: { livenessSweepMs: 3_600_000 } });
  gw = await startMcpGateway({ port: 0, hubSocket: th.hub.paths.hubSocket, logger: stderrLogger('warn') });
}

describe('MCP over HTTP', () => {
  it('two agents reach the hub with no process of ours, as their own sessions, and message each other', async () => {
    await start();
    const [a, b] = [await startAgent('alpha'), await startAgent('beta')];
    expect(a.headers['X-Switchboard-Pid']).toBe(String(a.proc.pid));
    const alpha = await connect(a.headers);
    const beta = await connect(b.headers);
    const tools = (await alpha.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('switchboard_send');
    const peers = text(await alpha.callTool({ name: 'switchboard_list_peers', arguments: {} }));
    expect(peers).toMatch(/^beta \[[0-9a-f]{6}\]/m);
    const sent = text(
      await alpha.callTool({ name: 'switchboard_send', arguments: { to: 'beta', message: 'over http', summary: 's' } }),
    );
    expect(sent).toMatch(/queued/);
    const got = text(await beta.callTool({ name: 'switchboard_list_peers', arguments: {} }));
    expect(got).toContain('over http');
    const rows = [...th!.hub.table.live.values()].map((s) => [s.name, s.pid]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['alpha', a.proc.pid],
        ['beta', b.proc.pid],
      ]),
    );
    expect(gw!.sessionCount()).toBe(2);
  });

  // 403, never 401: a 401 would send the agent into an OAuth flow.
  it('answers 403 (never 401) to every request not made with its own session’s credentials', async () => {
    await start();
    const [a, b] = [await startAgent('alpha'), await startAgent('beta')];
    const none = await post({});
    expect(none.status, 'without a session').toBe(403);
    expect(((await none.json()) as { error: { message: string } }).error.message).toMatch(/--print-headers/);
    const stolen = await post({ ...a.headers, 'X-Switchboard-Token': b.headers['X-Switchboard-Token']! });
    expect(stolen.status, 'with another session’s token').toBe(403);
    expect(await post({ ...a.headers, Origin: 'http://evil.example' }), 'from a browser').toHaveProperty('status', 403);
    expect(await rawStatus({ ...a.headers, host: `evil.example:${gw!.port}` }), 'a rebound DNS name').toBe(403);
    // An MCP session opened by alpha cannot be used with beta's credentials.
    const opened = await post(a.headers);
    expect(opened.status).toBe(200);
    const mcpSession = opened.headers.get('mcp-session-id')!;
    const hijack = await post(
      { ...b.headers, 'mcp-session-id': mcpSession, 'mcp-protocol-version': '2025-06-18' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    );
    expect(hijack.status, 'an MCP session used with another session’s credentials').toBe(403);
    const unknown = await post(
      { ...a.headers, 'mcp-session-id': 'no-such-session', 'mcp-protocol-version': '2025-06-18' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    );
    expect(unknown.status).toBe(404);
    expect(await post(a.headers, '{not json')).toHaveProperty('status', 400);
  });

  it('keeps serving after malformed targets, a client gone mid-body and an oversized body', async () => {
    await start();
    const a = await startAgent('sturdy');
    for (const target of ['//[', '/%zz', '/mcp?x=%', '*']) {
      const status = await new Promise<number | undefined>((resolve) => {
        const req = http.request({
          host: '127.0.0.1',
          port: gw!.port,
          path: target,
          method: 'POST',
          headers: a.headers,
        });
        req.on('response', (res) => (res.resume(), resolve(res.statusCode)));
        req.on('error', () => resolve(undefined));
        req.end('{}');
      });
      expect(status === undefined || status >= 400, `${target}: ${status}`).toBe(true);
    }
    await new Promise<void>((resolve) => {
      const req = http.request(url(), { method: 'POST', headers: { ...a.headers, 'content-length': '1000' } });
      req.on('error', () => resolve());
      req.write('{"jsonrpc":', () => setImmediate(() => (req.destroy(), resolve())));
    });
    const big = await post(a.headers, { pad: 'x'.repeat(9 * 1024 * 1024) }).catch(() => undefined);
    if (big !== undefined) expect(big.status).toBe(413);
    const client = await connect(a.headers);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('ends the session when the agent has exited and its event stream closes, without waiting for a sweep', async () => {
    await start();
    const a = await startAgent('gone');
    const client = await connect(a.headers);
    await client.callTool({ name: 'switchboard_list_peers', arguments: {} });
    const id = a.headers['X-Switchboard-Session']!;
    expect([...th!.hub.table.live.values()].some((s) => s.id === id)).toBe(true);
    await stopProcess(a.proc, 'SIGKILL');
    await client.close(); // the agent's connections close as it dies
    clients.splice(clients.indexOf(client), 1);
    await until(() => ![...th!.hub.table.live.values()].some((s) => s.id === id));
    expect(gw!.sessionCount()).toBe(0);
  });

  it('ends the session of an agent that ended its MCP session (DELETE) while alive and then exited', async () => {
    await start();
    const a = await startAgent('deleting');
    const client = await connect(a.headers);
    await client.callTool({ name: 'switchboard_list_peers', arguments: {} });
    const id = a.headers['X-Switchboard-Session']!;
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await stopProcess(a.proc, 'SIGKILL');
    await until(() => ![...th!.hub.table.live.values()].some((s) => s.id === id));
    expect(gw!.sessionCount()).toBe(0);
  });

  it('keeps the session of a live agent whose connection closed (a reconnect), and its new connection works', async () => {
    await start();
    const a = await startAgent('stays');
    const first = await connect(a.headers);
    await first.close();
    clients.splice(clients.indexOf(first), 1);
    const again = await connect(a.headers);
    expect(text(await again.callTool({ name: 'switchboard_list_peers', arguments: {} }))).not.toMatch(/^Error/);
    expect([...th!.hub.table.live.values()].some((s) => s.id === a.headers['X-Switchboard-Session'])).toBe(true);
  });
});
