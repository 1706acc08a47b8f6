// The command hooks' own entry (dist/cli/switchboard-hook.cjs, cli/hook-bin.ts)
// does what `switchboard hook` does, as the agents run it: a child process,
// the hook JSON on stdin, a real hub. Setup writes it, and recognises the
// commands an earlier setup wrote (`switchboard.mjs hook …`) as its own.

import fs from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, cliEnv, hookFixture, runCli, runNode } from '../helpers/cli.js';
import { startHub, tempDirs, type TestDirs, type TestHub } from '../helpers/hub.js';

const ENTRY = path.join(path.dirname(CLI), 'switchboard-hook.cjs');
let th: TestHub | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});

const fixture = hookFixture;

const run = (argv: string[], dirs: TestDirs, stdin: string) => runNode(argv, cliEnv(dirs), stdin);

describe('switchboard-hook.cjs', () => {
  it('hands a waiting message over exactly as `switchboard hook` would', async () => {
    th = await startHub();
    const dirs = th.dirs;
    expect(
      await run([ENTRY, 'session-start', '--agent', 'claude'], dirs, fixture('claude-session-start.json', dirs.root)),
      'session-start registers silently',
    ).toEqual({ code: 0, stdout: '', stderr: '' });
    const c = await th.client();
    const peer = await th.register(c, { name: 'peer' });
    const me = (await c.call('agents.list', {})).rows.find((x) => x.agent === 'claude')!;
    expect(me).toMatchObject({ kind: 'switchboard', cwd: dirs.root });
    expect(
      await run([ENTRY, 'post-tool', '--agent', 'claude'], dirs, fixture('claude-post-tool.json', dirs.root)),
      'silent with nothing pending',
    ).toEqual({ code: 0, stdout: '', stderr: '' });
    const outputs: string[] = [];
    for (const [i, argv] of [
      [ENTRY, 'post-tool'],
      [CLI, 'hook', 'post-tool'],
    ].entries()) {
      await c.call('message.send', {
        sessionId: peer.sessionId,
        token: peer.token,
        to: me.address,
        summary: `s${i}`,
        message: `tests are green on main ${i}`,
      });
      const out = await run([...argv, '--agent', 'claude'], dirs, fixture('claude-post-tool.json', dirs.root));
      expect(out.code).toBe(0);
      outputs.push(out.stdout.replace(/ \d"|s\d|main \d/g, '#'));
    }
    expect(outputs[0]).toContain('tests are green on #');
    expect(outputs[1]).toContain('tests are green on #');
    expect(outputs[0], 'the same output as the CLI').toBe(outputs[1]);
    const self = (await c.call('agents.list', {})).rows.filter((x) => x.agent === 'claude');
    expect(self, 'one session for the agent process').toHaveLength(1);
    expect(
      [...th.hub.table.live.values()].filter((x) => x.agent === 'claude').map((x) => th!.hub.mailboxes.depth(x.id)),
      'both hooks acked what they handed over',
    ).toEqual([0]);
  });

  it('never breaks the agent: no hub, bad JSON or an unknown event exit 0 with one stderr line', async () => {
    const dirs = tempDirs();
    for (const [args, input] of [
      [['post-tool', '--agent', 'claude'], fixture('claude-post-tool.json', dirs.root)],
      [['post-tool', '--agent', 'claude'], 'not json'],
      [['bogus'], '{}'],
    ] as const) {
      const r = await run([ENTRY, ...args], dirs, input);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('setup writes it for command hooks, and takes the commands an earlier setup wrote as its own (no duplicates)', async () => {
    const dirs = tempDirs();
    const env = cliEnv(dirs);
    const settings = path.join(env.CLAUDE_CONFIG_DIR!, 'settings.json');
    fs.mkdirSync(path.dirname(settings), { recursive: true });
    const old = (event: string) => ({
      hooks: [{ type: 'command', command: `"${process.execPath}" "${CLI}" hook ${event} --agent claude`, timeout: 10 }],
    });
    fs.writeFileSync(
      settings,
      JSON.stringify({
        hooks: { PostToolUse: [{ matcher: '*', ...old('post-tool') }], SessionStart: [old('session-start')] },
      }),
    );
    expect((await runCli(['setup', 'claude-code', '--agent-version', '2.1.100'], env)).code).toBe(0);
    const hooks = (
      parseJsonc(fs.readFileSync(settings, 'utf8')) as {
        hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>;
      }
    ).hooks;
    expect(hooks.PostToolUse, 'the old command replaced, not doubled').toHaveLength(1);
    expect(hooks.SessionStart).toHaveLength(1);
    expect(hooks.PostToolUse![0]!.hooks[0]!.command, JSON.stringify(hooks)).toBe(
      `"${process.execPath}" "${ENTRY}" post-tool --agent claude`,
    );
    expect((await runCli(['setup', 'claude-code', '--agent-version', '2.1.100', '--uninstall'], env)).code).toBe(0);
    expect((parseJsonc(fs.readFileSync(settings, 'utf8')) as { hooks?: unknown }).hooks ?? {}).toEqual({});
  });
});
