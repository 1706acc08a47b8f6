// A tool result never passes over an inbox it could not read. Every
// Switchboard tool appends the caller's unread items; when the hub cannot
// be asked (its connection closed, it is restarting), check_inbox used to
// answer "Checked the inbox." as if it were empty. Now it is an error that
// says why, and the other tools say it beside their own result. The MCP
// server is the real one (SDK, in-memory transport); the hub is a fake that
// fails the inbox fetch.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { HubCaller } from '../../cli/agent/hub-link.js';
import { registerTools } from '../../cli/agent/mcp-tools.js';

type Result = { content: Array<{ type: string; text: string }>; isError?: boolean };
const text = (r: unknown): string => (r as Result).content.map((c) => c.text).join('\n');

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

/** A hub whose inbox cannot be read; it answers agents.list with no peers. */
const failingInbox = {
  call: async (method: string) => {
    if (method === 'inbox.fetch') throw new Error('hub connection closed');
    if (method === 'agents.list') return { rows: [] };
    throw new Error(`unexpected ${method}`);
  },
} as unknown as HubCaller;

async function connect(hub: HubCaller): Promise<Client> {
  const server = new McpServer({ name: 'switchboard', version: '0.0.0' });
  registerTools(server, {
    client: hub,
    creds: { sessionId: 's1', token: 't1' },
    defaultTeam: undefined,
    agent: 'claude',
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(b);
  return client;
}

describe('an inbox that cannot be read', () => {
  it('check_inbox is an error that says so', async () => {
    const c = await connect(failingInbox);
    const r = (await c.callTool({ name: 'switchboard_check_inbox', arguments: {} })) as Result;
    expect(r.isError).toBe(true);
    expect(text(r)).toBe('Error: the inbox could not be read (hub connection closed); what waits there stays there.');
  });

  it('another tool keeps its own result and says the inbox was not read', async () => {
    const c = await connect(failingInbox);
    const r = (await c.callTool({ name: 'switchboard_list_peers', arguments: {} })) as Result;
    expect(r.isError ?? false).toBe(false);
    expect(text(r)).toBe(
      'No other sessions are reachable right now.\n\n(Your inbox could not be read: hub connection closed. What waits there stays there.)',
    );
  });
});
