// Claude Code 2.1.332 reaching Switchboard over MCP's streamable HTTP, the
// real binary interactive in tmux, offline against the scripted model, set
// up by `switchboard setup claude-code --transport http`: its headersHelper
// registers its session (bound to the claude process) and exits, so while
// it runs no Switchboard process is left beside it; its model's tool call
// reaches a peer; and when the process is killed (no SessionEnd hook runs)
// its session ends as its connection closes, with the hub's liveness sweep
// an hour away.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMcpGateway, type McpGateway } from '../../cli/mcp-http/gateway.js';
import { stderrLogger } from '../../core/kit/logger.js';
import type { InboxItem } from '../../core/protocol/methods.js';
import { CLI, runCli } from '../helpers/cli.js';
import { until } from '../helpers/hub.js';
import { pidGone, stopPid } from '../helpers/processes.js';
import { agentCommand } from './harness/binaries.js';
import { startInteractiveClaude, type Pane } from './harness/interactive.js';
import { waitInbox } from './harness/observe.js';
import { OPTED_OUT } from './harness/opt-out.js';
import { PROFILES } from './harness/profiles.js';
import { startWorld, type World } from './harness/world.js';
import { typeLine } from './harness/type.js';

let w: World | undefined;
let pane: Pane | undefined;
let gw: McpGateway | undefined;
let bridge: net.Server | undefined;
afterEach(async () => {
  await pane?.stop();
  await gw?.close();
  await new Promise((r) => (bridge ? bridge.close(r) : r(undefined)));
  await w?.close();
  pane = gw = bridge = w = undefined;
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** The pids under `root` (children, grandchildren …) with their command lines. */
function descendants(root: number): Array<{ pid: number; cmd: string }> {
  const all = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => {
      try {
        const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        const cmd = fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').join(' ');
        return [{ pid: Number(d), ppid, cmd }];
      } catch {
        return [];
      }
    });
  const out: Array<{ pid: number; cmd: string }> = [];
  const walk = (p: number): void => {
    for (const c of all.filter((x) => x.ppid === p)) {
      out.push({ pid: c.pid, cmd: c.cmd });
      walk(c.pid);
    }
  };
  walk(root);
  return out;
}

describe.skipIf(OPTED_OUT)('Claude Code 2.1.332 over MCP streamable HTTP', () => {
  it('acts as its own Switchboard session with no Switchboard process beside it', async () => {
    w = await startWorld({ limits: { livenessSweepMs: 3_600_000 } });
    const world = w;
    const port = await freePort();
    gw = await startMcpGateway({ port, hubSocket: world.hub.hub.paths.hubSocket, logger: stderrLogger('warn') });
    // Inside the agent's network namespace 127.0.0.1:<port> is piped to this socket, and on to the hub's port.
    const socket = path.join(world.root, 'mcp.sock');
    bridge = net.createServer((c) => {
      const up = net.connect(port, '127.0.0.1');
      c.pipe(up).pipe(c);
      c.on('error', () => up.destroy());
      up.on('error', () => c.destroy());
    });
    await new Promise<void>((r) => bridge!.listen(socket, r));

    PROFILES.claude.seed(world.home);
    const PATH = `${path.dirname(agentCommand('claude')[0]!)}:${process.env.PATH ?? '/usr/bin:/bin'}`;
    const env = { ...world.env, PATH, SWITCHBOARD_MCP_PORT: String(port) };
    const setup = await runCli(['setup', 'claude-code', '--transport', 'http'], env, undefined, '', CLI);
    expect(setup.code, setup.stderr).toBe(0);
    const entry = (
      JSON.parse(fs.readFileSync(path.join(world.home, '.claude.json'), 'utf8')) as {
        mcpServers: Record<string, { type: string; url: string; headersHelper: string }>;
      }
    ).mcpServers.switchboard!;
    expect(entry, 'setup wrote an HTTP MCP entry').toMatchObject({ type: 'http', url: `http://127.0.0.1:${port}/mcp` });
    expect(entry.headersHelper, 'its headers come from our helper').toMatch(
      /^exec .* mcp --print-headers --agent claude$/,
    );

    const alice = await world.register('alice');
    const text = `over http ${Date.now()}`;
    pane = await startInteractiveClaude(world, {
      name: 'http',
      mode: 'default',
      steps: [
        { tool: 'switchboard_send', input: { to: 'alice', message: text, summary: 'a note' } },
        { text: 'Sent.' },
      ],
      forwards: [{ port, socket }],
    });
    const p = pane;
    await until(() => [...world.hub.hub.table.live.values()].some((s) => s.pid === p.pid), 30_000);
    const session = [...world.hub.hub.table.live.values()].find((s) => s.pid === p.pid)!;
    expect(session.agent, 'its own session, as claude').toBe('claude');

    await typeLine(p, 'send alice a note', () => p.model.main().length > 0);
    const got = await waitInbox(
      world.client,
      alice,
      (i: InboxItem) => i.kind === 'message' && i.text.includes(text),
      60_000,
    );
    expect(got, 'its message reached alice').toMatchObject({ kind: 'message' });
    expect(p.model.errors, 'the script ran as written').toEqual([]);

    const ours = descendants(p.pid).filter((d) => /switchboard/.test(d.cmd) && !/forward\.mjs/.test(d.cmd));
    expect(ours, 'no process of ours beside the agent').toEqual([]);
    expect(gw.sessionCount(), 'one MCP session at the gateway').toBe(1);

    await stopPid(p.pid, 'SIGKILL');
    expect(await pidGone(p.pid), 'the agent is gone').toBe(true);
    const t0 = Date.now();
    await until(() => !world.hub.hub.table.live.has(session.id), 30_000);
    console.log(`claude over HTTP: session ended ${Date.now() - t0} ms after the process was gone`);
  }, 240_000);
});
