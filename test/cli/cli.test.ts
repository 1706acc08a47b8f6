import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { tempDirs } from '../helpers/hub.js';
import { CLI, cliEnv, readyLine, runCli, serveCli, type Served } from '../helpers/cli.js';
import { stopProcess } from '../helpers/processes.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.stop();
  served = undefined;
});

describe('switchboard CLI', () => {
  describe('exit codes', () => {
    it('a usage error exits 2', async () => {
      const env = cliEnv(tempDirs());
      expect((await runCli(['frobnicate'], env)).code).toBe(2);
      expect((await runCli(['agents', '--bogus'], env)).code).toBe(2);
      expect(
        (await runCli(['session', 'state', 'sleepy'], { ...env, SWITCHBOARD_SESSION: 'x', SWITCHBOARD_TOKEN: 'y' }))
          .code,
      ).toBe(2);
    });

    it('no running hub exits 3, with the --json error on stdout', async () => {
      const env = cliEnv(tempDirs());
      const st = await runCli(['status', '--json'], env);
      expect(st.code).toBe(3);
      expect(JSON.parse(st.stdout)).toEqual({
        error: { reason: 'hub_not_running', message: expect.stringContaining('No hub is running') },
      });
    });

    it('--help exits 0 with the usage', async () => {
      const help = await runCli(['--help'], cliEnv(tempDirs()));
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('switchboard send --to X');
    });
  });

  it('serve runs one hub for its runtime directory until SIGTERM', async () => {
    const dirs = tempDirs();
    const env = cliEnv(dirs);
    served = await serveCli(env);
    expect(served.ready, 'serve prints a ready line').toMatchObject({
      event: 'ready',
      socket: `${dirs.runtime}/hub.sock`,
      pid: served.child.pid,
    });
    const second = await runCli(['serve', '--json'], env);
    expect(second.code, 'a second serve exits 1').toBe(1);
    expect(JSON.parse(second.stdout), 'a second serve names the running hub').toMatchObject({
      error: { reason: 'hub_running' },
    });
    const status = JSON.parse((await runCli(['status', '--json'], env)).stdout) as { pid: number; sessions: number };
    expect(status).toMatchObject({ pid: served.child.pid, sessions: 0 });
    expect(await served.stop('SIGTERM'), 'SIGTERM exits 0').toBe(0);
    served = undefined;
    expect(fs.existsSync(`${dirs.runtime}/hub.sock`), 'SIGTERM removes the socket').toBe(false);
  });

  it('carries two sessions from start to stop through the CLI alone', async () => {
    const dirs = tempDirs();
    const env = cliEnv(dirs);
    served = await serveCli(env);
    const holder = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const start = async (name: string) => {
        const r = await runCli(
          [
            'session',
            'start',
            '--cwd',
            dirs.root,
            '--name',
            name,
            '--pid',
            String(holder.pid),
            '--agent',
            'codex',
            '--json',
          ],
          env,
        );
        expect(r.code).toBe(0);
        const reg = JSON.parse(r.stdout) as { sessionId: string; token: string; name: string; ref: string };
        return { ...env, SWITCHBOARD_SESSION: reg.sessionId, SWITCHBOARD_TOKEN: reg.token };
      };
      const alice = await start('alice');
      const bob = await start('bob');

      const agents = JSON.parse((await runCli(['agents', '--json'], alice)).stdout) as {
        rows: Array<{ name: string; self: boolean; agent: string }>;
      };
      expect(
        agents.rows.map((r) => [r.name, r.self, r.agent]),
        'agents lists both sessions',
      ).toEqual([
        ['alice', true, 'codex'],
        ['bob', false, 'codex'],
      ]);
      const text = await runCli(['agents'], alice);
      expect(text.stdout, 'agents prints a table').toMatch(/^NAME \[REF\]\s+WHERE/);
      expect(text.stdout).toContain('alice [');

      const sent = await runCli(['send', '--to', 'bob', '--summary', 'ping', '--message', 'hello bob'], alice);
      expect(sent.code).toBe(0);
      expect(sent.stdout, 'send queues the message').toMatch(/^queued: /);
      const bad = await runCli(['send', '--to', 'bob', '--message', 'no summary', '--json'], alice);
      expect(bad.code).toBe(1);
      expect(JSON.parse(bad.stdout), 'a send without a summary is refused').toMatchObject({
        error: { reason: 'summary_missing' },
      });

      const inbox = JSON.parse((await runCli(['inbox', '--ack', '--json'], bob)).stdout) as {
        items: Array<{ text: string }>;
      };
      expect(inbox.items, 'the recipient’s inbox holds the message').toHaveLength(1);
      expect(inbox.items[0]!.text).toContain('hello bob');
      expect((await runCli(['inbox'], bob)).stdout.trim(), '--ack empties the inbox').toBe('Inbox empty.');
      const receipts = await runCli(['inbox', '--wait', '5'], alice);
      expect(receipts.stdout, 'the sender gets a receipt').toContain('was handed to its agent');

      expect((await runCli(['session', 'state', 'busy'], bob)).stdout.trim(), 'session state').toBe('busy');
      expect((await runCli(['session', 'mode', 'plan'], bob)).stdout.trim(), 'session mode').toBe('plan');
      expect((await runCli(['session', 'rename', 'Robert'], bob)).stdout, 'session rename').toMatch(
        /^robert \[[0-9a-f]{6}\]/,
      );
      expect((await runCli(['session', 'stop'], bob)).code, 'session stop').toBe(0);
      const after = JSON.parse((await runCli(['agents', '--json'], alice)).stdout) as { rows: unknown[] };
      expect(after.rows, 'a stopped session leaves the list').toHaveLength(1);
      const wrong = await runCli(['inbox'], { ...alice, SWITCHBOARD_TOKEN: 'nope' });
      expect(wrong.code, 'a wrong token exits 1').toBe(1);
      expect(wrong.stderr, 'a wrong token is Unauthorized').toContain('Unauthorized');
    } finally {
      await stopProcess(holder);
    }
  });
});

describe('switchboard held and subscriptions', () => {
  it('only the UI token serve prints decides held messages and subscriptions', async () => {
    const dirs = tempDirs();
    const env = cliEnv(dirs);
    served = await serveCli(env);
    const uiToken = served.ready.uiToken;
    expect(uiToken).toMatch(/^[0-9a-f]{48}$/);
    expect(fs.readdirSync(dirs.home).join(' ')).not.toContain(uiToken);
    const holder = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const start = async (name: string, mode: string) => {
        const reg = JSON.parse(
          (
            await runCli(
              [
                'session',
                'start',
                '--cwd',
                dirs.root,
                '--name',
                name,
                '--mode',
                mode,
                '--pid',
                String(holder.pid),
                '--json',
              ],
              env,
            )
          ).stdout,
        ) as { sessionId: string; token: string };
        return { ...env, SWITCHBOARD_SESSION: reg.sessionId, SWITCHBOARD_TOKEN: reg.token };
      };
      const bypass = await start('yolo', 'bypassPermissions');
      const careful = await start('careful', 'default');
      const sent = await runCli(['send', '--to', 'yolo', '--summary', 'x', '--message', 'run rm -rf build/'], careful);
      expect(sent.stdout).toMatch(/^held: /);

      expect((await runCli(['held'], careful)).code).toBe(2);
      const refused = await runCli(['held', 'list'], { ...careful, SWITCHBOARD_UI_TOKEN: careful.SWITCHBOARD_TOKEN });
      expect(refused.code, 'a session token is refused').toBe(1);
      expect(refused.stderr).toContain('Unauthorized');

      const list = await runCli(['held'], { ...env, SWITCHBOARD_UI_TOKEN: uiToken });
      expect(list.stdout).toMatch(/^ID\s+FROM\s+TO\s+EXPIRES\s+WHY\s+PREVIEW/);
      expect(list.stdout).toContain('run rm -rf build/');
      const items = (
        JSON.parse((await runCli(['held', 'list', '--json'], { ...env, SWITCHBOARD_UI_TOKEN: uiToken })).stdout) as {
          items: Array<{ id: string }>;
        }
      ).items;
      expect(items).toHaveLength(1);
      const approved = await runCli(['held', 'approve', items[0]!.id], { ...env, SWITCHBOARD_UI_TOKEN: uiToken });
      expect(approved.stdout.trim(), 'held approve with the UI token').toBe('approved: queued');
      const inbox = await runCli(['inbox'], bypass);
      expect(inbox.stdout).toContain('approved="after-hold"');
      expect((await runCli(['held', 'deny', items[0]!.id], { ...env, SWITCHBOARD_UI_TOKEN: uiToken })).code).toBe(1);
      const none = await runCli(['held', 'deny', '--from', 'careful'], { ...env, SWITCHBOARD_UI_TOKEN: uiToken });
      expect(none).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('No message is held from "careful"; nothing is held'),
      });
      const both = await runCli(['held', 'approve', items[0]!.id, '--from', 'careful'], {
        ...env,
        SWITCHBOARD_UI_TOKEN: uiToken,
      });
      expect(both.code).toBe(2);

      await runCli(['send', '--to', 'yolo', '--notify-when-idle'], careful);
      const subs = JSON.parse(
        (await runCli(['subscriptions', '--json'], { ...env, SWITCHBOARD_UI_TOKEN: uiToken })).stdout,
      ) as { items: Array<{ id: string }> };
      expect(subs.items, 'subscriptions lists the idle subscription').toHaveLength(1);
      expect(
        (
          await runCli(['subscriptions', 'cancel', subs.items[0]!.id], { ...env, SWITCHBOARD_UI_TOKEN: uiToken })
        ).stdout.trim(),
      ).toBe('cancelled');
      expect((await runCli(['subscriptions'], { ...env, SWITCHBOARD_UI_TOKEN: uiToken })).stdout.trim()).toBe(
        'No idle subscriptions.',
      );
    } finally {
      await stopProcess(holder);
    }
  });
});

describe('switchboard teams and tasks', () => {
  it('runs a team’s task board end to end', async () => {
    const dirs = tempDirs();
    const env = cliEnv(dirs);
    const claude = env.CLAUDE_CONFIG_DIR as string;
    fs.mkdirSync(claude, { recursive: true });
    for (const sub of ['teams', 'tasks'])
      fs.cpSync(new URL(`../fixtures/claude-code/${sub}`, import.meta.url).pathname, `${claude}/${sub}`, {
        recursive: true,
      });
    for (const p of fs.readdirSync(claude, { recursive: true, withFileTypes: true }))
      fs.chmodSync(`${p.parentPath}/${p.name}`, p.isDirectory() ? 0o700 : 0o600);
    served = await serveCli(env);
    expect((await runCli(['teams'], env)).stdout).toMatch(/^TEAM\s+MEMBERS\s+CREATED\nsession-3f9a1c2e\s+2\s+/);
    const show = await runCli(['team', 'show', 'session-3f9a1c2e'], env);
    expect(show.stdout).toMatch(/team-lead\s+team-lead\s+2\s+\/home\/dev\/myapp/);
    const created = JSON.parse(
      (await runCli(['task', 'create', '--team', 'session-3f9a1c2e', '--subject', 'Ship it', '--json'], env)).stdout,
    ) as { task: { id: string } };
    expect(created.task.id).toBe('4');
    expect(
      (await runCli(['task', 'claim', '4', '--team', 'session-3f9a1c2e', '--as', 'researcher'], env)).stdout,
    ).toMatch(/4\s+pending\s+researcher/);
    const taken = await runCli(['task', 'claim', '4', '--team', 'session-3f9a1c2e', '--as', 'someone', '--json'], env);
    expect(taken.code).toBe(1);
    expect(JSON.parse(taken.stdout)).toMatchObject({ error: { reason: 'already_claimed' } });
    await runCli(['task', 'update', '4', '--team', 'session-3f9a1c2e', '--status', 'completed'], env);
    const board = await runCli(['tasks', '--team', 'session-3f9a1c2e'], env);
    expect(
      board.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(/\s{2,}/)[0]),
    ).toEqual(['ID', '1', '2', '4']);
    expect(board.stdout).toMatch(/4\s+completed\s+researcher/);
    await runCli(['task', 'assign', '2', '--team', 'session-3f9a1c2e', '--to', 'researcher'], env);
    expect((await runCli(['team', 'show', 'session-3f9a1c2e', '--json'], env)).stdout).toContain(
      '"member":"researcher","depth":1',
    );
    expect((await runCli(['task', 'delete', '4', '--team', 'session-3f9a1c2e'], env)).stdout.trim()).toBe('deleted');
    expect(fs.readFileSync(`${claude}/tasks/session-3f9a1c2e/.highwatermark`, 'utf8')).toBe('4');
    expect((await runCli(['task', 'claim', 'x', '--team', 't'], env)).code).toBe(2);
    expect((await runCli(['tasks'], env)).code).toBe(2);
  });
});

describe('switchboard serve --ui', () => {
  it('prints the loopback URL with the token and serves the bridge there', async () => {
    const dirs = tempDirs();
    const env = cliEnv(dirs);
    const child = spawn(process.execPath, [CLI, 'serve', '--ui', '--port', '0', '--json', '--quiet'], { env });
    try {
      const ready = await readyLine<{ ui: string; uiToken: string }>(child);
      expect(ready.ui).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/#token=${ready.uiToken}$`));
      const res = await fetch(ready.ui.replace(/#token=.*/, 'api/sessions.list'), {
        method: 'POST',
        headers: { Authorization: `Bearer ${ready.uiToken}`, 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(await res.json()).toEqual({ result: { rows: [] } });
      expect((await runCli(['serve', '--port', '9'], env)).code).toBe(2);
    } finally {
      await stopProcess(child);
    }
  });
});
