import { afterEach, describe, expect, it } from 'vitest';
import { HubClient } from '../../core/client/client.js';
import { cliEnv, runCli, serveCli, type Served } from '../helpers/cli.js';
import { tempDirs, until } from '../helpers/hub.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.stop('SIGKILL');
  served = undefined;
});

describe('switchboard history', () => {
  // The restart (SIGTERM) and the crash (SIGKILL) come first; what each caller may see is checked after them.
  it('finds messages across a restart and a crash, each caller seeing only its own', async () => {
    const dirs = tempDirs();
    const env = cliEnv(dirs);
    served = await serveCli(env);
    let c = await HubClient.connect(served.ready.socket);
    const a = await c.call('session.register', { cwd: '/a', name: 'alpha', pid: process.pid, liveness: 'pid' });
    const b = await c.call('session.register', { cwd: '/b', name: 'beta', pid: process.pid, liveness: 'pid' });
    const g = await c.call('session.register', { cwd: '/g', name: 'gamma', pid: process.pid, liveness: 'pid' });
    expect(
      (
        await c.call('message.send', {
          sessionId: a.sessionId,
          token: a.token,
          to: 'beta',
          summary: 'keys',
          message: 'the deploy key rotates on friday',
        })
      ).status,
    ).toBe('queued');
    c.close();
    expect(await served.stop('SIGTERM')).toBe(0);

    served = await serveCli(env);
    c = await HubClient.connect(served.ready.socket);
    expect(
      (
        await c.call('message.send', {
          sessionId: g.sessionId,
          token: g.token,
          to: 'alpha',
          summary: 'ping',
          message: 'are you around for the release',
        })
      ).status,
    ).toBe('queued');
    const token = served.ready.uiToken;
    await until(async () => (await c.call('history.status', { uiToken: token })).written >= 3); // m, decision, outcome
    c.close();
    await served.stop('SIGKILL');

    served = await serveCli(env);
    const ui = { ...env, SWITCHBOARD_UI_TOKEN: served.ready.uiToken };
    const found = await runCli(['history', '--search', 'deploy key', '--json'], ui);
    expect(found.code, found.stderr).toBe(0);
    const page = JSON.parse(found.stdout) as {
      messages: Array<{
        summary: string;
        sender: { name: string };
        receiver: { name: string };
        outcome: string;
        text: string;
      }>;
    };
    expect(page.messages, 'the message sent before the restart is found').toHaveLength(1);
    expect(page.messages[0]).toMatchObject({
      summary: 'keys',
      sender: { name: 'alpha' },
      receiver: { name: 'beta' },
      outcome: 'queued',
    });
    expect(page.messages[0]!.text).toContain('the deploy key rotates on friday');

    const text = await runCli(['history', '--with', 'alpha'], ui);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines, 'both messages, the one sent before the crash too').toHaveLength(2);
    expect(lines[0]).toMatch(/alpha → beta\s+\[queued\]\s+keys/); // oldest first
    expect(lines[1]).toMatch(/gamma → alpha\s+\[queued\]\s+ping/);
    expect((await runCli(['history', '--since', '1h', '--outcome', 'denied', '--json'], ui)).stdout).toBe(
      '{"messages":[],"next":null}\n',
    );

    // A session's credentials: only its own messages.
    const beta = await runCli(['history', '--json'], {
      ...env,
      SWITCHBOARD_SESSION: b.sessionId,
      SWITCHBOARD_TOKEN: b.token,
    });
    expect(beta.code, beta.stderr).toBe(0);
    expect(
      (JSON.parse(beta.stdout) as typeof page).messages.map((m) => m.summary),
      'a session sees only its own messages',
    ).toEqual(['keys']);
    const gamma = await runCli(['history', '--search', 'deploy', '--json'], {
      ...env,
      SWITCHBOARD_SESSION: g.sessionId,
      SWITCHBOARD_TOKEN: g.token,
    });
    expect(
      (JSON.parse(gamma.stdout) as typeof page).messages,
      'a session finds nothing of others’ conversations',
    ).toEqual([]);
  }, 60_000);

  it('says what it needs: a token, a readable --since', async () => {
    const dirs = tempDirs();
    const env = cliEnv(dirs);
    const none = await runCli(['history'], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/user-interface token/);
    const bad = await runCli(['history', '--since', 'yesterday'], { ...env, SWITCHBOARD_UI_TOKEN: 'x' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--since must be an ISO date/);
    const outcome = await runCli(['history', '--outcome', 'lost', '--json'], { ...env, SWITCHBOARD_UI_TOKEN: 'x' });
    expect(outcome.code).toBe(2);
    expect(JSON.parse(outcome.stdout)).toMatchObject({ error: { reason: 'usage' } });
  });
});
