// The stdio MCP server outlives its hub: the hub closes (the desktop app
// quit, serve restarted) and a new hub starts on the same state, and the
// agent's next tool call works again as the same session, with the mail
// that waited for it. Before, every call answered "hub connection closed"
// until the agent restarted its MCP server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, cliEnv } from '../helpers/cli.js';
import { startHub, until, type TestHub } from '../helpers/hub.js';
import { pidAlive } from '../../core/registry/proc.js';

let th: TestHub | undefined;
let agent: Client | undefined;
afterEach(async () => {
  await agent?.close();
  await th?.close();
  th = agent = undefined;
});

type Result = { content: Array<{ type: string; text: string }>; isError?: boolean };
const text = (r: unknown): string => (r as Result).content.map((c) => c.text).join('\n');

/** `switchboard mcp` for the hub in `dirs`, as an agent starts it, connected with the SDK's client (kept in `agent`). */
async function startAdapter(
  dirs: TestHub['dirs'],
  name: string,
): Promise<{ transport: StdioClientTransport; client: Client }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--agent', 'claude', '--name', name, '--mode', 'default'],
    env: cliEnv(dirs) as Record<string, string>,
    cwd: dirs.root,
    stderr: 'pipe',
  });
  const client = new Client({ name: `test-${name}`, version: '1.0.0' });
  agent = client;
  await client.connect(transport);
  return { transport, client };
}

describe('switchboard mcp across a hub restart', () => {
  it('the next tool call after a restart acts as the same session and finds the mail that waited', async () => {
    th = await startHub();
    const dirs = th.dirs;
    const { client } = await startAdapter(dirs, 'alice');
    expect((await client.callTool({ name: 'switchboard_list_peers', arguments: {} })).isError ?? false).toBe(false);
    const before = [...th.hub.table.live.values()].find((s) => s.name === 'alice')!;

    await th.close();
    th = await startHub({}, dirs);
    const bobClient = await th.client();
    const bob = await th.register(bobClient, { name: 'bob', permissionMode: 'default' });
    // alice is dormant now (her adapter's connection went with the old hub); the note waits in her inbox.
    const sent = await bobClient.call('message.send', {
      sessionId: bob.sessionId,
      token: bob.token,
      to: 'alice',
      message: 'waited for you',
      summary: 'a note',
    });
    expect(sent.status).toBe('queued');

    const inbox = await client.callTool({ name: 'switchboard_check_inbox', arguments: {} });
    expect((inbox as Result).isError ?? false).toBe(false);
    expect(text(inbox)).toContain('waited for you');
    const after = [...th.hub.table.live.values()].find((s) => s.name === 'alice');
    expect(after?.id).toBe(before.id);
  });

  it('never starts a hub of its own after the hub went away: its calls say none runs, and it exits without one', async () => {
    th = await startHub();
    const dirs = th.dirs;
    const hubSocket = th.hub.paths.hubSocket;
    const { transport, client } = await startAdapter(dirs, 'carol');
    await th.close();
    th = undefined;
    const r = (await client.callTool({ name: 'switchboard_list_peers', arguments: {} })) as Result;
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/No hub is running/);
    const pid = transport.pid!;
    await client.close(); // ends its stdin: the adapter exits
    agent = undefined;
    await until(() => !pidAlive(pid));
    expect(fs.existsSync(hubSocket), 'no hub was started by the adapter').toBe(false);
  });
});
