// The MCP server driven by the SDK's own client over stdio, against a real
// hub: two agents (each a separate parent process) list each other,
// exchange a message, and get truthful statuses and receipts.
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { RpcError } from '../../core/client/client.js';
import { CLI, cliEnv } from '../helpers/cli.js';
import { startHub, until, type TestHub } from '../helpers/hub.js';
import { stopAll, stopPid, stopProcess } from '../helpers/processes.js';

let th: TestHub | undefined;
const clients: Client[] = [];
const children: ChildProcess[] = [];
const hubPids: number[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await stopAll(children.splice(0));
  for (const pid of hubPids.splice(0)) await stopPid(pid);
  await th?.close();
  th = undefined;
});

/** An "agent": a node process that runs the MCP server as its child, wired to our stdio. */
const AGENT = `const { spawn } = require('node:child_process');
const child = spawn(process.execPath, process.argv.slice(1), { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));`;

async function agent(th: TestHub, name: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['-e', AGENT, CLI, 'mcp', '--agent', 'claude', '--name', name, '--mode', 'default'],
    env: cliEnv(th.dirs) as Record<string, string>,
    cwd: th.dirs.root,
    stderr: 'pipe',
  });
  const client = new Client({ name: `test-${name}`, version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

type Result = { content: Array<{ type: string; text: string }>; isError?: boolean };
const text = (r: unknown): string => (r as Result).content.map((c) => c.text).join('\n');

describe('switchboard mcp', () => {
  it('an agent whose --name a live session holds is told, at initialize, the name it got', async () => {
    th = await startHub();
    const first = await agent(th, 'api');
    const second = await agent(th, 'api');
    expect(first.getInstructions()).toBeUndefined();
    expect(second.getInstructions()).toMatch(
      /^Your Switchboard session name is not the one asked for\. The name "api" is held by the live session api \[[0-9a-f]{6}\], so this session is "api-2"\.$/,
    );
    const peers = text(await second.callTool({ name: 'switchboard_list_peers', arguments: {} }));
    expect(peers).toMatch(/^api \[[0-9a-f]{6}\] — /m);
  });

  it('offers switchboard_* tools that two agents use to find and message each other', async () => {
    th = await startHub();
    const alice = await agent(th, 'alice');
    const bob = await agent(th, 'bob');
    const tools = (await alice.listTools()).tools.map((t) => t.name).sort();
    expect(tools).toEqual([
      'switchboard_check_inbox',
      'switchboard_history',
      'switchboard_hook',
      'switchboard_list_peers',
      'switchboard_send',
      'switchboard_task_claim',
      'switchboard_task_create',
      'switchboard_task_get',
      'switchboard_task_update',
      'switchboard_tasks',
    ]);
    // switchboard_hook: Claude Code's mcp_tool hooks call it (no process per tool call); other agents are not offered it.
    expect(tools.some((t) => /^(SendMessage|ListAgents)$/.test(t))).toBe(false);

    const peers = text(await alice.callTool({ name: 'switchboard_list_peers', arguments: {} }));
    expect(peers).toMatch(/^bob \[[0-9a-f]{6}\] — this machine, claude, idle since/);
    expect(peers).not.toContain('alice');

    const sent = text(
      await alice.callTool({
        name: 'switchboard_send',
        arguments: { to: 'bob', summary: 'ping', message: 'Are the auth tests green?' },
      }),
    );
    expect(sent).toMatch(/^queued: Queued in bob \[[0-9a-f]{6}\]'s inbox/);

    // Any tool result carries unread items; they are acknowledged after the result was returned.
    const inbox = text(await bob.callTool({ name: 'switchboard_check_inbox', arguments: {} }));
    expect(inbox).toContain('[Switchboard] 1 new item(s) from other sessions');
    const from = /<cross-session-message from="([^"]+)" from-name="alice"/.exec(inbox)![1]!;
    expect(inbox).toContain('Are the auth tests green?');
    await until(
      async () =>
        !text(await bob.callTool({ name: 'switchboard_check_inbox', arguments: {} })).includes('[Switchboard]'),
    );

    const reply = text(
      await bob.callTool({
        name: 'switchboard_send',
        arguments: { to: from, summary: 'pong', message: 'Yes, green.' },
      }),
    );
    expect(reply).toMatch(/^queued:/);
    const back = text(await alice.callTool({ name: 'switchboard_check_inbox', arguments: {} }));
    expect(back).toContain('was handed to its agent');
    expect(back).toContain('Yes, green.');
  });

  it('answers bad arguments and refused sends with a tool error, never a crash', async () => {
    th = await startHub();
    const alice = await agent(th, 'alice');
    const bad = (await alice.callTool({ name: 'switchboard_send', arguments: { to: 42 } })) as Result;
    expect(bad.isError).toBe(true);
    const noSummary = (await alice.callTool({
      name: 'switchboard_send',
      arguments: { to: 'nobody', message: 'x' },
    })) as Result;
    expect(noSummary.isError).toBe(true);
    expect(text(noSummary)).toMatch(/^Error \(summary_missing\)/);
    const broadcast = (await alice.callTool({
      name: 'switchboard_send',
      arguments: { to: '*', summary: 's', message: 'x' },
    })) as Result;
    expect(text(broadcast)).toMatch(/^Error \(to_broadcast\)/);
    expect(text(await alice.callTool({ name: 'switchboard_list_peers', arguments: {} }))).toBe(
      'No other sessions are reachable right now.',
    );
  });

  it('task tools work on a team list', async () => {
    th = await startHub();
    const alice = await agent(th, 'alice');
    const created = JSON.parse(
      text(
        await alice.callTool({ name: 'switchboard_task_create', arguments: { team: 'crew', subject: 'Write docs' } }),
      ).split('\n\n')[0]!,
    ) as { id: string };
    expect(created.id).toBe('1');
    const claimed = JSON.parse(
      text(await alice.callTool({ name: 'switchboard_task_claim', arguments: { team: 'crew', id: '1' } })).split(
        '\n\n',
      )[0]!,
    ) as { owner: string };
    expect(claimed.owner).toBe('alice');
    const listed = JSON.parse(
      text(await alice.callTool({ name: 'switchboard_tasks', arguments: { team: 'crew' } })).split('\n\n')[0]!,
    ) as unknown[];
    expect(listed).toHaveLength(1);
  });
});

describe('switchboard_history', () => {
  it("returns the agent's own history only: never another session's private conversation with a third, whatever it passes", async () => {
    th = await startHub();
    const c = await th.client();
    const alice = await th.register(c, { name: 'alice' });
    const bob = await th.register(c, { name: 'bob' });
    const carol = await agent(th, 'carol');
    const send = (from: { sessionId: string; token: string }, to: string, summary: string, message: string) =>
      c.call('message.send', { sessionId: from.sessionId, token: from.token, to, summary, message });
    await send(alice, 'bob', 'private plan', 'the merger codeword is zanzibar');
    await send(bob, 'alice', 'private reply', 'zanzibar acknowledged');
    await send(bob, 'carol', 'for carol', 'carol please review zanzibar-free docs');
    const carolSent = text(
      await carol.callTool({
        name: 'switchboard_send',
        arguments: { to: 'bob', summary: 'carol to bob', message: 'reviewed, all good' },
      }),
    );
    expect(carolSent).toMatch(/^queued:/);

    const own = text(await carol.callTool({ name: 'switchboard_history', arguments: {} }));
    expect(own).toContain('you → bob  [queued]  carol to bob');
    expect(own).toContain('bob → you');
    expect(own).toContain('for carol');
    for (const args of [
      {},
      { text: 'zanzibar' },
      { with: 'bob' },
      { with: 'alice' },
      { text: 'merger codeword' },
      { session: alice.sessionId },
      { sessionId: alice.sessionId, token: alice.token },
    ]) {
      const r = text(await carol.callTool({ name: 'switchboard_history', arguments: args }));
      expect(r, JSON.stringify(args)).not.toContain('merger');
      expect(r, JSON.stringify(args)).not.toContain('private plan');
      expect(r, JSON.stringify(args)).not.toContain('acknowledged');
    }
    expect(text(await carol.callTool({ name: 'switchboard_history', arguments: { with: 'alice' } }))).toContain(
      'No messages of yours',
    );
    // The method behind it: a session's token with a foreign session id (or a foreign scope) is refused.
    const refused = async (p: Promise<unknown>): Promise<string> =>
      p.then(
        () => 'answered',
        (err: unknown) => (err instanceof RpcError ? err.reason : String(err)),
      );
    expect(await refused(c.call('history.search', { sessionId: alice.sessionId, token: bob.token }))).toBe(
      'unauthorized',
    );
    expect(
      await refused(c.call('history.search', { sessionId: bob.sessionId, token: bob.token, session: alice.sessionId })),
    ).toBe('unauthorized');
    // Alice's own tool view (the same method and credentials) does see it: the scope is per session, not a blanket refusal.
    expect(
      (await c.call('history.search', { sessionId: alice.sessionId, token: alice.token, text: 'zanzibar' })).messages
        .map((m) => m.summary)
        .sort(),
    ).toEqual(['private plan', 'private reply']);
  });
});

describe('switchboard mcp without a hub', () => {
  it('starts a hub and holds the agent’s session for as long as the agent is there', async () => {
    const { tempDirs } = await import('../helpers/hub.js');
    const { runCli } = await import('../helpers/cli.js');
    const dirs = tempDirs();
    const env = cliEnv(dirs) as Record<string, string>;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['-e', AGENT, CLI, 'mcp', '--agent', 'gemini', '--name', 'solo'],
      env,
      cwd: dirs.root,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'solo', version: '1.0.0' });
    await client.connect(transport);
    const status = JSON.parse((await runCli(['status', '--json'], env)).stdout) as { pid: number; sessions: number };
    hubPids.push(status.pid); // the hub the MCP server started is no child of ours
    expect(status.sessions, 'a hub was started, with the session').toBe(1);
    const agents = JSON.parse((await runCli(['agents', '--json'], env)).stdout) as {
      rows: Array<{ name: string; agent: string }>;
    };
    expect(
      agents.rows.map((r) => [r.name, r.agent]),
      'registered as the agent',
    ).toEqual([['solo', 'gemini']]);
    await client.close();
    await until(
      async () => (JSON.parse((await runCli(['status', '--json'], env)).stdout) as { sessions: number }).sessions === 0,
    );
  });
});

describe('switchboard mcp lifecycle', () => {
  /** Starts `switchboard mcp` with its stdin held open (as an agent does) and waits for its session. */
  async function startMcp(
    th: TestHub,
  ): Promise<{ child: ChildProcessWithoutNullStreams; stderr: () => string; exited: Promise<number | null> }> {
    const child = spawn(process.execPath, [CLI, 'mcp', '--agent', 'claude', '--name', 'life'], {
      env: cliEnv(th.dirs),
      cwd: th.dirs.root,
    });
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) =>
      child.once('exit', (code, signal) => r(signal === null ? code : -1)),
    );
    const c = await th.client();
    await until(async () => (await c.call('agents.list', {})).rows.some((r) => r.name === 'life'));
    return { child, stderr: () => stderr, exited };
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`exits on the first ${signal}, after unregistering`, async () => {
      th = await startHub();
      const { child } = await startMcp(th);
      // The grace before SIGKILL bounds a hang, not a speed: the old code never exits on its own.
      expect(await stopProcess(child, signal)).toEqual({ code: 0, signal: null, escalated: false });
      const c = await th.client();
      expect((await c.call('agents.list', {})).rows.some((r) => r.name === 'life')).toBe(false);
    });
  }

  it('writes nothing to stderr when all is well (agents log stderr as errors)', async () => {
    th = await startHub();
    const { child, stderr, exited } = await startMcp(th);
    child.stdin.end();
    await exited;
    expect(stderr()).toBe('');
  });
});
