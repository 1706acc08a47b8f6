// Every subcommand takes only its own flags. A flag that does not
// apply is a usage error (exit 2) naming it, before anything is changed;
// `task update` adds blockers (--add-blocked-by/--add-blocks, Claude Code's
// addBlockedBy/addBlocks) with create's checks.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, pool, runCli, serveCli, type Served } from '../helpers/cli.js';
import { tempDirs } from '../helpers/hub.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.stop();
  served = undefined;
});

describe('strict flags per subcommand', () => {
  it('task claim --owner is refused (exit 2, naming the flag) and the task stays unclaimed', async () => {
    const dirs = tempDirs();
    const env = cliEnv(dirs);
    served = await serveCli(env);
    const created = await runCli(['task', 'create', '--team', 't', '--subject', 'one'], env);
    expect(created.code, created.stderr).toBe(0); // a failure says why (a fresh machine once saw exit 3 here)
    const claim = await runCli(['task', 'claim', '1', '--team', 't', '--owner', 'w1', '--json'], env);
    expect(claim.code).toBe(2);
    expect(claim.stderr).toContain('task claim does not take --owner');
    expect(JSON.parse(claim.stdout)).toMatchObject({
      error: { reason: 'usage', message: expect.stringContaining('--as') },
    });
    const update = await runCli(['task', 'update', '1', '--team', 't', '--blocked-by', '2'], env);
    expect([update.code, update.stderr]).toEqual([
      2,
      expect.stringContaining('task update does not take --blocked-by'),
    ]);
    const task = JSON.parse(fs.readFileSync(path.join(dirs.root, 'claude', 'tasks', 't', '1.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(task).toEqual({ id: '1', subject: 'one', description: '', status: 'pending', blocks: [], blockedBy: [] });
  });

  it('flags of one subcommand are usage errors on every other; extra arguments too', async () => {
    const env = cliEnv(tempDirs()); // no hub: a command that got past its flags would exit 3
    const cases: Array<[string[], string]> = [
      [['task', 'create', '--team', 't', '--subject', 's', '--as', 'x'], '--as'],
      [['task', 'create', '--team', 't', '--subject', 's', '--add-blocks', '1'], '--add-blocks'],
      [['task', 'update', '1', '--team', 't', '--busy-check'], '--busy-check'],
      [['task', 'claim', '1', '--team', 't', '--status', 'completed'], '--status'],
      [['task', 'assign', '1', '--team', 't', '--as', 'x'], '--as'],
      [['task', 'delete', '1', '--team', 't', '--to', 'x'], '--to'],
      [['task', 'claim', '1', '2', '--team', 't'], '"2"'],
      [['task', 'create', 'extra', '--team', 't', '--subject', 's'], '"extra"'],
      [['task', 'update', '1', '--team', 't', '--owner', 'a', '--no-owner'], 'not both'],
      [['task', 'update', '1', '--team', 't', '--add-blocked-by', '1,x'], '--add-blocked-by takes task IDs'],
      [['tasks', '--team', 't', '--subject', 's'], '--subject'],
      [['team', 'show', 't', '--to', 'x'], '--to'],
      [['session', 'stop', '--name', 'x'], '--name'],
      [['session', 'start', '--cwd', '.', '--session', 'x'], '--session'],
      [['inbox', '--to', 'x'], '--to'],
      [['send', '--to', 'x', '--message', 'm', '--ack'], '--ack'],
      [['agents', '--team', 't'], '--team'],
      [['held', '--to', 'x'], '--to'],
      [['held', 'list', 'extra'], '"extra"'],
      [['subscriptions', 'cancel', '1', '2'], '"2"'],
      [['confirmations', 'allow', '1', '2'], '"2"'],
      [['serve', '--agent', 'x'], '--agent'],
      [['status', '--team', 't'], '--team'],
      [['setup', 'codex', '--agent', 'x'], '--agent'],
    ];
    const results = await pool(cases, 3, async ([args, named]) => ({
      args,
      named,
      r: await runCli(args, { ...env, SWITCHBOARD_UI_TOKEN: 'x' }),
    }));
    for (const { args, named, r } of results) {
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr).toContain(named);
    }
  });

  it('task update --add-blocked-by/--add-blocks writes both sides; bad edges fail with the hub reason', async () => {
    const dirs = tempDirs();
    const env = cliEnv(dirs);
    served = await serveCli(env);
    for (const s of ['a', 'b', 'c'])
      expect((await runCli(['task', 'create', '--team', 't', '--subject', s], env)).code).toBe(0);
    const r = await runCli(
      ['task', 'update', '2', '--team', 't', '--add-blocked-by', '1', '--add-blocks', '3', '--json'],
      env,
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ task: { id: '2', blockedBy: ['1'], blocks: ['3'] } });
    const file = (id: string) =>
      JSON.parse(fs.readFileSync(path.join(dirs.root, 'claude', 'tasks', 't', `${id}.json`), 'utf8')) as {
        blocks: string[];
        blockedBy: string[];
      };
    expect([file('1').blocks, file('3').blockedBy]).toEqual([['2'], ['2']]);
    for (const [args, reason] of [
      [['--add-blocks', '7'], 'blocker_not_found'],
      [['--add-blocked-by', '2'], 'blocker_self'],
      [['--add-blocks', '1'], 'blocker_cycle'],
    ] as const) {
      const bad = await runCli(['task', 'update', '2', '--team', 't', ...args, '--json'], env);
      expect([bad.code, JSON.parse(bad.stdout)]).toEqual([1, { error: { reason, message: expect.any(String) } }]);
    }
    const create = await runCli(
      ['task', 'create', '--team', 't', '--subject', 'd', '--blocked-by', '9', '--json'],
      env,
    );
    expect([create.code, JSON.parse(create.stdout)]).toEqual([
      1,
      { error: { reason: 'blocker_not_found', message: expect.any(String) } },
    ]);
  });
});
