// The OpenCode plugin against a real hub on real sockets, OpenCode itself
// replaced by the calls it makes (its hooks, its client's promptAsync): a
// session is one row, idle from its creation; a message for an idle session
// becomes a prompt and `delivered`; one for a busy session is appended to
// the next built-in tool's result, or another MCP tool's, and acknowledged;
// our own tools get the calling session's id; a one-shot `opencode run` is
// never woken (its sender hears `waiting`), and what waited goes in with a
// prompt (appended to its text, `delivered`); a subagent session is no row;
// with no hub every hook still resolves and leaves the tool's result alone.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HubClient } from '../../../core/client/client.js';
import type { InboxItem, Registration } from '../../../core/protocol/methods.js';
import { SwitchboardPlugin } from '../../../cli/opencode/plugin.js';
import { SESSION_ARG } from '../../../cli/opencode/sessions.js';
import { startHub, tempDirs, until, type TestHub } from '../../helpers/hub.js';

type Hook = (...a: unknown[]) => Promise<void>;

describe('the OpenCode plugin', () => {
  let hub: TestHub;
  let client: HubClient;
  const env = { ...process.env };
  const prompts: Array<{ id: string; text: string }> = [];
  let hooks: Record<string, Hook>;
  const fakeClient = {
    session: {
      promptAsync: (a: { path: { id: string }; body: { parts: Array<{ text: string }> } }) => {
        prompts.push({ id: a.path.id, text: a.body.parts[0]!.text });
        return Promise.resolve({});
      },
    },
  };
  const event = (type: string, properties: unknown): Promise<void> => hooks.event!({ event: { type, properties } });
  const row = async () => (await client.call('agents.list', {})).rows.find((r) => r.agent === 'opencode');
  const send = async (from: Registration, text: string): Promise<string> => {
    const to = (await row())!.address;
    return (
      await client.call('message.send', {
        sessionId: from.sessionId,
        token: from.token,
        to,
        summary: text,
        message: text,
      })
    ).status;
  };
  const items = async (r: Registration): Promise<InboxItem[]> =>
    (await client.call('inbox.fetch', { sessionId: r.sessionId, token: r.token, limit: 50 })).items;

  beforeEach(async () => {
    const dirs = tempDirs();
    process.env.SWITCHBOARD_HOME = dirs.home;
    process.env.SWITCHBOARD_RUNTIME_DIR = dirs.runtime;
    hub = await startHub({}, dirs);
    client = await hub.client();
    prompts.length = 0;
    hooks = (await SwitchboardPlugin({ client: fakeClient, directory: dirs.root })) as Record<string, Hook>;
    await hooks.config!({});
  });
  afterEach(async () => {
    await hub.close();
    process.env = { ...env };
  });

  it('lists a session idle from its creation, and wakes it with a message that became `delivered`', async () => {
    await event('session.created', { info: { id: 'ses_one' } });
    await until(async () => (await row())?.state === 'idle');
    expect(await row()).toMatchObject({ mode: 'bypassPermissions', modeSource: 'hook', hooks: 'reported' });
    const alice = await hub.register(client, { name: 'alice', pid: process.pid, permissionMode: 'bypassPermissions' });
    expect(await send(alice, 'wake-up-note')).toBe('queued');
    await until(() => prompts.length > 0);
    expect(prompts[0]).toMatchObject({ id: 'ses_one' });
    expect(prompts[0]!.text).toContain('wake-up-note');
    await until(async () => (await items(alice)).some((i) => i.kind === 'receipt' && i.status === 'delivered'));
  });

  it('appends what waits to a busy session’s tool results and acknowledges it; tags our own tools', async () => {
    await event('session.created', { info: { id: 'ses_two' } });
    await event('session.status', { sessionID: 'ses_two', status: { type: 'busy' } });
    await until(async () => (await row())?.state === 'busy');
    const alice = await hub.register(client, { name: 'alice', pid: process.pid, permissionMode: 'bypassPermissions' });
    expect(await send(alice, 'note-for-bash')).toBe('queued');
    const built = { output: 'tool-said' };
    await hooks['tool.execute.after']!({ tool: 'bash', sessionID: 'ses_two', callID: 'c1' }, built);
    expect(built.output).toMatch(/^tool-said\n\n\[Switchboard\][\s\S]*note-for-bash/);
    expect(await send(alice, 'note-for-mcp')).toBe('queued');
    const mcp = { content: [{ type: 'text', text: 'other-server-said' }] };
    await hooks['tool.execute.after']!({ tool: 'other_tool', sessionID: 'ses_two', callID: 'c2' }, mcp);
    expect(mcp.content[1]!.text).toContain('note-for-mcp');
    const delivered = (await items(alice)).filter((i) => i.kind === 'receipt' && i.status === 'delivered');
    expect(delivered).toHaveLength(2);
    const args: Record<string, unknown> = { to: 'alice' };
    await hooks['tool.execute.before']!({ tool: 'switchboard_switchboard_send', sessionID: 'ses_two' }, { args });
    expect(args[SESSION_ARG]).toBe('ses_two');
    expect(prompts).toEqual([]); // busy: no prompt
  });

  it('in a one-shot `opencode run` wakes nothing: the sender is told its message waits', async () => {
    const argv = process.argv;
    process.argv = ['bun', '/$bunfs/root/src/index.js', 'run', 'do something'];
    try {
      hooks = (await SwitchboardPlugin({ client: fakeClient, directory: hub.dirs.root })) as Record<string, Hook>;
    } finally {
      process.argv = argv;
    }
    await hooks.config!({});
    await event('session.created', { info: { id: 'ses_run' } });
    await until(async () => (await row())?.state === 'idle');
    const alice = await hub.register(client, { name: 'alice', pid: process.pid, permissionMode: 'bypassPermissions' });
    expect(await send(alice, 'for-a-one-shot-run')).toBe('queued');
    await until(async () => (await items(alice)).some((i) => i.kind === 'receipt' && i.status === 'waiting'));
    expect(prompts).toEqual([]);
  });

  it("a prompt carries what waited in a synthetic part after the user's, `delivered` (a resumed `run -s` has it in its first request)", async () => {
    const argv = process.argv;
    process.argv = ['bun', '/$bunfs/root/src/index.js', 'run', '-s', 'ses_back', 'go on'];
    try {
      hooks = (await SwitchboardPlugin({ client: fakeClient, directory: hub.dirs.root })) as Record<string, Hook>;
    } finally {
      process.argv = argv;
    }
    await hooks.config!({});
    await event('session.created', { info: { id: 'ses_back' } });
    await until(async () => (await row())?.state === 'idle');
    const alice = await hub.register(client, { name: 'alice', pid: process.pid, permissionMode: 'bypassPermissions' });
    expect(await send(alice, 'waited-for-a-prompt')).toBe('queued');
    const ids = { sessionID: 'ses_back', messageID: 'msg_0123456789abABCDEFGHIJKLMN' };
    const typed = { ...ids, id: 'prt_fffffffffff0ABCDEFGHIJKLMN', type: 'text', text: 'go on' };
    const out: { message: object; parts: Record<string, unknown>[] } = {
      message: {},
      parts: [{ ...ids, id: 'prt_000000000001ABCDEFGHIJKLMN', type: 'file' }, typed],
    };
    await hooks['chat.message']!({ sessionID: 'ses_back' }, out);
    expect(out.parts[1]).toEqual({ ...ids, id: typed.id, type: 'text', text: 'go on' });
    expect(out.parts[2]).toMatchObject({ ...ids, type: 'text', synthetic: true });
    expect(out.parts[2]!.text).toMatch(/^\[Switchboard\] Not part of the user's prompt[\s\S]*waited-for-a-prompt/);
    expect(String(out.parts[2]!.id) > typed.id, "sorts after the user's part").toBe(true);
    await until(async () => (await items(alice)).some((i) => i.kind === 'receipt' && i.status === 'delivered'));
    // Nothing waits now: the next prompt is left as its user wrote it.
    const next = {
      message: {},
      parts: [{ ...ids, id: 'prt_fffffffffff1ABCDEFGHIJKLMN', type: 'text', text: 'and then' }],
    };
    await hooks['chat.message']!({ sessionID: 'ses_back' }, next);
    expect(next.parts).toEqual([{ ...ids, id: 'prt_fffffffffff1ABCDEFGHIJKLMN', type: 'text', text: 'and then' }]);
    expect(prompts).toEqual([]);
  });

  it('does not list a subagent session', async () => {
    await event('session.created', { info: { id: 'ses_parent' } });
    await event('session.created', { info: { id: 'ses_child', parentID: 'ses_parent' } });
    await event('session.status', { sessionID: 'ses_child', status: { type: 'busy' } });
    await until(async () => (await row()) !== undefined);
    expect((await client.call('agents.list', {})).rows.filter((r) => r.agent === 'opencode')).toHaveLength(1);
  });

  it('never throws and leaves the tool result alone when there is no hub', async () => {
    await hub.close();
    const built = { output: 'tool-said' };
    await expect(hooks['tool.execute.after']!({ tool: 'bash', sessionID: 'ses_x' }, built)).resolves.toBeUndefined();
    expect(built.output).toBe('tool-said');
    await expect(event('session.created', { info: { id: 'ses_x' } })).resolves.toBeUndefined();
    await expect(hooks['tool.execute.after']!(null, undefined)).resolves.toBeUndefined();
    const prompt = { message: {}, parts: [{ type: 'text', text: 'as typed' }] };
    await expect(hooks['chat.message']!({ sessionID: 'ses_x' }, prompt)).resolves.toBeUndefined();
    expect(prompt.parts[0]!.text).toBe('as typed');
    hub = await startHub({}, tempDirs()); // afterEach closes one
  });
});
