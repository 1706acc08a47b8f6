// `switchboard rules` against a real `serve`: allow a sender → receiver for
// an hour (the next message passes without a hold), list, revoke (held
// again); a session token never makes a rule, and a bad --for is a usage
// error that changes nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { HubClient } from '../../core/client/client.js';
import { cliEnv, runCli, serveCli, type Served } from '../helpers/cli.js';
import { tempDirs } from '../helpers/hub.js';

let served: Served | undefined;
let client: HubClient | undefined;
afterEach(async () => {
  client?.close();
  await served?.stop();
  served = client = undefined;
});

describe('switchboard rules', () => {
  it('rules are made and revoked with the UI token only', async () => {
    const env = cliEnv(tempDirs());
    served = await serveCli(env);
    client = await HubClient.connect(served.ready.socket);
    const c = client;
    const web = await c.call('session.register', { cwd: '/work/web', name: 'web' });
    await c.call('session.register', { cwd: '/work/api', name: 'api', permissionMode: 'bypassPermissions' });
    const send = (m: string) =>
      c.call('message.send', { sessionId: web.sessionId, token: web.token, to: 'api', summary: m, message: m });
    expect((await send('before')).status).toBe('held');
    const ui = { ...env, SWITCHBOARD_UI_TOKEN: served.ready.uiToken };

    const made = await runCli(['rules', 'allow', '--from', 'web', '--to', 'api', '--for', '1h'], ui);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^allowed: web → api, 1 h \(id [0-9a-f-]+\); it decided 1 held message\(s\)/);
    expect((await send('after')).status, 'the rule lets the next message through').toBe('queued');
    const listed = JSON.parse((await runCli(['rules', '--json'], ui)).stdout) as {
      rules: Array<{ id: string; label: string; madeWith: string; decided: number }>;
    };
    expect(listed.rules).toMatchObject([{ label: 'web → api, 1 h', madeWith: 'switchboard rules', decided: 2 }]);
    expect((await runCli(['rules', 'revoke', listed.rules[0]!.id], ui)).stdout.trim()).toBe('revoked');
    expect((await send('revoked')).status, 'revoked, it holds again').toBe('held');

    const agent = await runCli(['rules', 'allow', '--from', 'web', '--to', 'api'], {
      ...env,
      SWITCHBOARD_UI_TOKEN: web.token,
    });
    expect(agent.code, 'a session token is refused').toBe(1);
    expect(agent.stderr).toMatch(/Unauthorized|unauthorized/);
    const bad = await runCli(['rules', 'allow', '--from', 'web', '--to', 'api', '--for', 'forever'], ui);
    expect([bad.code, bad.stderr.trim()]).toEqual([2, expect.stringContaining('--for takes 1h, session or always')]);
    expect(JSON.parse((await runCli(['rules', '--json'], ui)).stdout)).toMatchObject({ rules: [] });
  });
});
