// A post-tool command hook with nothing pending does not call the hub while
// the hub's "nothing pending" mark for its session holds (core/protocol/quiet.ts):
// the hooks' own entry (dist/cli/switchboard-hook.cjs) and `switchboard hook`
// as the agents run them, a real hub. Whether a hook called the hub is read
// from the session's lastSeen (every authenticated call renews it). A stale
// mark (expired, of a dead hub, malformed, a previous hub's) only costs a
// call; a message that slips past the mark is handed over by the Stop hook.
// The same mark serves Claude Code's mcp_tool hooks (switchboard_hook in the
// agent's MCP server).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatQuietMark, parseQuietMark } from '../../core/protocol/quiet.js';
import { CLI, cliEnv, hookFixture, runNode } from '../helpers/cli.js';
import { startHub, tempDirs, type TestDirs, type TestHub } from '../helpers/hub.js';

const ENTRY = path.join(path.dirname(CLI), 'switchboard-hook.cjs');
let th: TestHub | undefined;
let mcp: Client | undefined;
afterEach(async () => {
  await mcp?.close();
  mcp = undefined;
  await th?.close();
  th = undefined;
});

const fixture = hookFixture;

/** `switchboard mcp --agent claude --name me --mode default` as an MCP client sees it; `lead`: node's argv before `mcp`. */
async function mcpSession(t: TestHub, lead: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...lead, 'mcp', '--agent', 'claude', '--name', 'me', '--mode', 'default'],
    env: cliEnv(t.dirs) as Record<string, string>,
    cwd: t.dirs.root,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'test-me', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const run = (argv: string[], dirs: TestDirs, stdin: string) => runNode(argv, cliEnv(dirs), stdin);

/** The hub, the agent's session (registered by a SessionStart hook) and a peer that sends to it. */
async function agentSession() {
  th = await startHub();
  const t = th;
  const dirs = t.dirs;
  const postTool = fixture('claude-post-tool.json', dirs.root);
  expect(
    await run([ENTRY, 'session-start', '--agent', 'claude'], dirs, fixture('claude-session-start.json', dirs.root)),
  ).toEqual({ code: 0, stdout: '', stderr: '' });
  const me = [...t.hub.table.live.values()].find((s) => s.agent === 'claude')!;
  const c = await t.client();
  const peer = await t.register(c, { name: 'peer' });
  const mark = path.join(dirs.runtime, 'quiet', me.id);
  const send = (text: string) =>
    c.call('message.send', {
      sessionId: peer.sessionId,
      token: peer.token,
      to: me.address,
      summary: 'hi',
      message: text,
    });
  /** Runs the hook and says whether it called the hub (lastSeen moved). */
  const called = async (argv: string[], input = postTool) => {
    // A call sets lastSeen to the clock's now, never earlier than this: no wait for the clock's next millisecond.
    const before = (me.lastSeen -= 1);
    const r = await run(argv, dirs, input);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    return { ...r, called: me.lastSeen !== before };
  };
  return { t, dirs, me, mark, send, called, postTool };
}

describe('quiet marks: post-tool hooks with nothing pending', () => {
  it('the first post-tool hook calls the hub, which leaves a private mark for the session', async () => {
    const { mark, called } = await agentSession();
    expect(fs.existsSync(mark), 'no mark before any fetch').toBe(false);
    expect(await called([ENTRY, 'post-tool', '--agent', 'claude'])).toMatchObject({ stdout: '', called: true });
    expect(fs.statSync(mark).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(mark)).mode & 0o777).toBe(0o700);
    expect(parseQuietMark(fs.readFileSync(mark, 'utf8'))?.hubPid).toBe(process.pid);
  });

  it('while the mark holds, post-tool hooks in every form do not call the hub', async () => {
    const { me, called } = await agentSession();
    await called([ENTRY, 'post-tool', '--agent', 'claude']);
    for (const argv of [
      [ENTRY, 'post-tool', '--agent', 'claude'],
      [ENTRY, 'post-tool', '--agent=claude'],
      [CLI, 'hook', 'post-tool', '--agent', 'claude'],
    ])
      expect(await called(argv), argv.join(' ')).toMatchObject({ stdout: '', called: false });
    expect(me.state, 'nothing the hub relies on was skipped').toBe('idle');
  });

  it('a message removes the mark before message.send answers, so the next post-tool hook hands it over', async () => {
    const { t, me, mark, send, called } = await agentSession();
    await called([ENTRY, 'post-tool', '--agent', 'claude']);
    expect(fs.existsSync(mark)).toBe(true);
    await send('tests are green on main');
    expect(fs.existsSync(mark), 'the send removed the mark').toBe(false);
    const r = await called([ENTRY, 'post-tool', '--agent', 'claude']);
    expect(r.called, 'the next hook calls the hub').toBe(true);
    expect(r.stdout, 'the next hook hands the message over').toContain('tests are green on main');
    expect(t.hub.mailboxes.depth(me.id), 'the hook acked it').toBe(0);
    expect(
      (await called([ENTRY, 'post-tool', '--agent', 'claude'])).called,
      'the ack left it empty: marked again',
    ).toBe(true);
    expect(fs.existsSync(mark)).toBe(true);
    expect((await called([ENTRY, 'post-tool', '--agent', 'claude'])).called).toBe(false);
  });

  it('a stale or foreign mark only costs a call', async () => {
    const { me, mark, called } = await agentSession();
    await called([ENTRY, 'post-tool', '--agent', 'claude']);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    for (const [what, text] of [
      ['expired', formatQuietMark(process.pid, Date.now() - 1)],
      ['a dead hub', formatQuietMark(Number(dead.stdout), Date.now() + 60_000)],
      ['malformed', 'v1 nope\n'],
      ['empty', ''],
    ] as const) {
      fs.writeFileSync(mark, text);
      expect((await called([ENTRY, 'post-tool', '--agent', 'claude'])).called, what).toBe(true);
    }
    fs.rmSync(mark);
    fs.writeFileSync(
      path.join(path.dirname(mark), 'another-session'),
      formatQuietMark(process.pid, Date.now() + 60_000),
    );
    expect((await called([ENTRY, 'post-tool', '--agent', 'claude'])).called, 'only its own mark counts').toBe(true);
    expect(me.state).toBe('idle');
  });

  it("a new hub removes a previous hub's marks at start, and its own at close", async () => {
    const dirs = tempDirs();
    fs.mkdirSync(path.join(dirs.runtime, 'quiet'), { recursive: true, mode: 0o700 });
    const old = path.join(dirs.runtime, 'quiet', '0b0c2d5e-1f6a-4c3b-9d8e-7a6b5c4d3e2f');
    fs.writeFileSync(old, formatQuietMark(process.pid, Date.now() + 60_000), { mode: 0o600 });
    th = await startHub({}, dirs);
    expect(fs.existsSync(old)).toBe(false);
    await run([ENTRY, 'session-start', '--agent', 'claude'], dirs, fixture('claude-session-start.json', dirs.root));
    await run([ENTRY, 'post-tool', '--agent', 'claude'], dirs, fixture('claude-post-tool.json', dirs.root));
    expect(fs.readdirSync(path.join(dirs.runtime, 'quiet'))).toHaveLength(1);
    await th.close();
    th = undefined;
    expect(fs.existsSync(path.join(dirs.runtime, 'quiet'))).toBe(false);
    const r = await run([ENTRY, 'post-tool', '--agent', 'claude'], dirs, fixture('claude-post-tool.json', dirs.root));
    expect(r.stderr, 'no hub: the hook says so, as before').toContain('hub not running');
  });

  it('a message that arrives after a hook read the mark is handed over by the Stop hook', async () => {
    const { t, me, mark, send, called, dirs } = await agentSession();
    await called([ENTRY, 'post-tool', '--agent', 'claude']);
    const seen = fs.readFileSync(mark, 'utf8'); // what a hook read just before the message came
    await send('review my branch');
    expect(fs.existsSync(mark)).toBe(false);
    fs.writeFileSync(mark, seen); // the hook acts on what it read
    expect(await called([ENTRY, 'post-tool', '--agent', 'claude']), 'it skipped').toMatchObject({
      stdout: '',
      called: false,
    });
    expect(t.hub.mailboxes.depth(me.id), 'nothing lost: still in the inbox').toBe(1);
    const stop = await called([ENTRY, 'stop', '--agent', 'claude'], fixture('claude-stop.json', dirs.root));
    expect(stop.called, 'the Stop hook always calls the hub').toBe(true);
    expect(JSON.parse(stop.stdout)).toMatchObject({ decision: 'block' });
    expect(stop.stdout, 'the Stop hook hands it over').toContain('review my branch');
    expect(t.hub.mailboxes.depth(me.id)).toBe(0);
  });

  it('switchboard_hook post-tool (the mcp_tool hook) honours the mark as the command hook does', async () => {
    th = await startHub();
    const t = th;
    const agent = `const c = require('node:child_process').spawn(process.execPath, process.argv.slice(1), { stdio: 'inherit' });
c.on('exit', (code) => process.exit(code ?? 0));`;
    mcp = await mcpSession(t, ['-e', agent, CLI]);
    const me = [...t.hub.table.live.values()].find((s) => s.name === 'me')!;
    const hookCall = async (): Promise<{ text: string; called: boolean }> => {
      const before = (me.lastSeen -= 1); // a call sets it to now, later than this
      const r = (await mcp!.callTool({ name: 'switchboard_hook', arguments: { event: 'post-tool' } })) as {
        content: Array<{ text: string }>;
      };
      return { text: r.content.map((c) => c.text).join(''), called: me.lastSeen !== before };
    };
    expect(await hookCall()).toEqual({ text: '', called: true });
    const mark = path.join(t.dirs.runtime, 'quiet', me.id);
    expect(fs.existsSync(mark)).toBe(true);
    expect(await hookCall(), 'marked quiet: no hub call').toEqual({ text: '', called: false });
    const c = await t.client();
    const peer = await t.register(c, { name: 'peer' });
    await c.call('message.send', {
      sessionId: peer.sessionId,
      token: peer.token,
      to: me.address,
      summary: 'hi',
      message: 'ping from peer',
    });
    const got = await hookCall();
    expect(got.called, 'a message removed the mark: the hub is called').toBe(true);
    expect(got.text, 'the message is handed over').toContain('ping from peer');
    expect(t.hub.mailboxes.depth(me.id)).toBe(0);
  });

  it('a mode through switchboard_hook (which the model can call too) makes the mode unknown, never bypass', async () => {
    th = await startHub();
    const t = th;
    mcp = await mcpSession(t, [CLI]);
    const me = [...t.hub.table.live.values()].find((s) => s.name === 'me')!;
    expect(me.modeKnown).not.toBe(false);
    await mcp.callTool({
      name: 'switchboard_hook',
      arguments: { event: 'prompt-submit', permission_mode: 'bypassPermissions' },
    });
    expect({ mode: me.permissionMode, known: me.modeKnown }).toEqual({ mode: 'bypassPermissions', known: false });
  });

  it('at stop, only a mode claim of another class than the verified one makes the mode unknown', async () => {
    th = await startHub();
    const t = th;
    mcp = await mcpSession(t, [CLI]);
    const me = [...t.hub.table.live.values()].find((s) => s.name === 'me')!;
    const c = await t.client();
    const creds = JSON.parse(
      fs.readFileSync(path.join(t.dirs.home, 'agents', fs.readdirSync(path.join(t.dirs.home, 'agents'))[0]!), 'utf8'),
    ) as {
      sessionId: string;
      token: string;
    };
    await c.call('session.mode', { ...creds, permissionMode: 'auto', source: 'hook' }); // as the prompt hook reports it
    await mcp.callTool({ name: 'switchboard_hook', arguments: { event: 'stop', permission_mode: 'auto' } });
    expect([me.permissionMode, me.modeKnown, me.modeSource], 'repeating the verified mode changes nothing').toEqual([
      'auto',
      true,
      'hook',
    ]);
    await mcp.callTool({
      name: 'switchboard_hook',
      arguments: { event: 'stop', permission_mode: 'bypassPermissions' },
    });
    expect([me.permissionMode, me.modeKnown, me.modeSource], 'another class makes it unknown').toEqual([
      'bypassPermissions',
      false,
      'unverified',
    ]);
  });
});
