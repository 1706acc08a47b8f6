// Publishing our sessions in Claude Code's registry (publishToClaudeCode,
// off by default): written in its format, never over Claude Code's own
// entry, removed when the session ends, when the setting goes off, on
// close, and as ghosts after a crash.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHub, tempDirs, until, type TestHub } from '../../helpers/hub.js';
import { stopAll } from '../../helpers/processes.js';
import { sessionsDir } from './helpers.js';

const holders: Array<ReturnType<typeof spawn>> = [];
const holder = (): number => {
  const p = spawn('sleep', ['600'], { stdio: 'ignore' });
  holders.push(p);
  return p.pid!;
};
afterEach(() => stopAll(holders.splice(0)));

async function setPublish(t: TestHub, on: boolean): Promise<void> {
  const c = await t.client();
  await c.call('settings.set', { uiToken: t.hub.uiToken, key: 'publishToClaudeCode', value: on });
}

describe('publishing to Claude Code', () => {
  let t: TestHub;
  afterEach(async () => t?.close());

  it('is off by default', async () => {
    t = await startHub();
    const dir = sessionsDir(path.join(t.dirs.root, 'claude'));
    const c = await t.client();
    await t.register(c, { name: 'alice', pid: holder(), liveness: 'pid' });
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("on, each session with a pid has an entry in Claude Code's format while it lives", async () => {
    t = await startHub();
    const dir = sessionsDir(path.join(t.dirs.root, 'claude'));
    const c = await t.client();
    const pid = holder();
    const reg = await t.register(c, { name: 'alice', pid, liveness: 'pid' });
    await setPublish(t, true);
    const file = path.join(dir, `${pid}.json`);
    await until(() => fs.existsSync(file));
    const entry = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(entry).toMatchObject({
      pid,
      sessionId: reg.sessionId,
      cwd: t.dirs.root,
      peerProtocol: 1,
      kind: 'interactive',
      entrypoint: 'switchboard',
      name: 'alice',
      status: 'idle',
      switchboardHub: t.hub.paths.hubSocket,
    });
    expect(entry.messagingSocketPath).toBe(reg.address.slice('uds:'.length));
    expect(typeof entry.procStart).toBe('string');
    expect(
      (await c.call('agents.list', {})).rows.map((r) => r.kind),
      'never listed twice',
    ).toEqual(['switchboard']);
    await c.call('session.unregister', { sessionId: reg.sessionId, token: reg.token });
    await until(() => !fs.existsSync(file)); // a hang: the entry outlived its session
  });

  it("turning it off removes the entries; it never overwrites an entry of Claude Code's own", async () => {
    t = await startHub();
    const dir = sessionsDir(path.join(t.dirs.root, 'claude'));
    const c = await t.client();
    const mine = holder();
    const theirs = holder();
    const ccEntry = JSON.stringify({
      pid: theirs,
      sessionId: 'cc',
      cwd: '/x',
      messagingSocketPath: '/tmp/none.sock',
      entrypoint: 'cli',
    });
    fs.writeFileSync(path.join(dir, `${theirs}.json`), ccEntry);
    await t.register(c, { name: 'alice', pid: mine, liveness: 'pid' });
    await t.register(c, { name: 'bob', pid: theirs, liveness: 'pid' });
    await setPublish(t, true);
    await until(() => fs.existsSync(path.join(dir, `${mine}.json`)));
    expect(fs.readFileSync(path.join(dir, `${theirs}.json`), 'utf8')).toBe(ccEntry);
    await setPublish(t, false);
    await until(() => !fs.existsSync(path.join(dir, `${mine}.json`)));
    expect(fs.readFileSync(path.join(dir, `${theirs}.json`), 'utf8')).toBe(ccEntry);
  });

  it('leaves no ghost entries, neither after a close nor after a crash', async () => {
    const dirs = tempDirs();
    t = await startHub({}, dirs);
    const dir = sessionsDir(path.join(dirs.root, 'claude'));
    const c = await t.client();
    const pid = holder();
    await t.register(c, { name: 'alice', pid, liveness: 'pid' });
    await setPublish(t, true);
    await until(() => fs.existsSync(path.join(dir, `${pid}.json`)));
    await t.close();
    expect(fs.existsSync(path.join(dir, `${pid}.json`)), 'a close removes its entries').toBe(false);

    // A crash leaves our entry and another Switchboard's whose process is gone.
    const ghost = {
      pid,
      sessionId: 's',
      cwd: '/x',
      messagingSocketPath: '/x.sock',
      entrypoint: 'switchboard',
      switchboardHub: t.hub.paths.hubSocket,
    };
    fs.writeFileSync(path.join(dir, `${pid}.json`), JSON.stringify(ghost));
    fs.writeFileSync(
      path.join(dir, '999999.json'),
      JSON.stringify({ ...ghost, pid: 999999, switchboardHub: '/elsewhere/hub.sock' }),
    );
    const live = holder();
    fs.writeFileSync(
      path.join(dir, `${live}.json`),
      JSON.stringify({ ...ghost, pid: live, switchboardHub: '/elsewhere/hub.sock' }),
    );
    t = await startHub({}, dirs);
    expect(fs.existsSync(path.join(dir, '999999.json')), 'a restart removes a dead one').toBe(false);
    expect(fs.existsSync(path.join(dir, `${live}.json`)), "another live hub's is kept").toBe(true);
    // Our restored session is published again (the setting is still on), under its own pid.
    await until(
      () =>
        fs.existsSync(path.join(dir, `${pid}.json`)) &&
        (JSON.parse(fs.readFileSync(path.join(dir, `${pid}.json`), 'utf8')) as { name?: string }).name === 'alice',
    );
  });
});
