// Idle means idle (no per-second sweep): every duty the old one-second sweep did still
// happens, each when it is due, with the sweep's interval set to an hour
// (nothing here may wait for it): held countdowns, dormant retention and
// idle subscriptions end on their own timer (fake clock), a settings file
// is noticed when it is written (a watch), a pid-bound agent whose adapter
// connection closes leaves at once, and settings files are forgotten when no
// session uses them.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HubClient } from '../../core/client/client.js';
import type { InboxItem, Registration } from '../../core/protocol/methods.js';
import { fakeClock, startHub, tempDirs, until, type TestHub } from '../helpers/hub.js';
import { stopProcess } from '../helpers/processes.js';

let th: TestHub | undefined;
afterEach(async () => th?.close());

const HOUR = { livenessSweepMs: 3600_000 };
const auth = (r: Registration) => ({ sessionId: r.sessionId, token: r.token });
const items = async (c: HubClient, r: Registration): Promise<InboxItem[]> =>
  (await c.call('inbox.fetch', auth(r))).items;
const statuses = async (c: HubClient, r: Registration): Promise<string[]> =>
  (await items(c, r)).filter((i) => i.kind === 'receipt').map((i) => (i as { status: string }).status);

describe('an idle hub keeps its promises without a sweep', () => {
  it('a held message expires at its countdown’s end', async () => {
    const clock = fakeClock();
    th = await startHub({ clock, limits: HOUR });
    const sc = await th.client();
    const sender = await th.register(sc, { name: 'sender', permissionMode: 'default' });
    await th.register(await th.client(), { name: 'receiver', permissionMode: 'bypassPermissions' });
    const ui = await th.client();
    await ui.call('ui.attach', { uiToken: th.hub.uiToken });
    const sent = await sc.call('message.send', { ...auth(sender), to: 'receiver', summary: 's', message: 'one' });
    expect(sent.status).toBe('held');
    clock.advance(300_000);
    await until(async () => (await statuses(sc, sender)).includes('expired'));
  });

  it('a dormant session past its age is forgotten and its sender told', async () => {
    const clock = fakeClock();
    th = await startHub({ clock, limits: { ...HOUR, dormantRetentionMs: 60_000 } });
    const sc = await th.client();
    const sender = await th.register(sc, { name: 'sender' });
    const rc = await th.client();
    await th.register(rc, { name: 'sleepy' });
    await sc.call('message.send', { ...auth(sender), to: 'sleepy', summary: 's', message: 'wake up' });
    rc.close();
    await until(() => th!.hub.table.dormant.size === 1);
    clock.advance(60_001);
    await until(() => th!.hub.table.dormant.size === 0);
    await until(async () => (await statuses(sc, sender)).includes('undelivered'));
  });

  it('an idle subscription that never fires expires', async () => {
    const clock = fakeClock();
    th = await startHub({ clock, limits: { ...HOUR, idleSubscriptionMs: 60_000 } });
    const c = await th.client();
    const a = await th.register(c, { name: 'watcher' });
    await th.register(await th.client(), { name: 'builder' });
    await c.call('message.send', { ...auth(a), to: 'builder', notify_when_idle: true });
    clock.advance(60_000);
    await until(async () => (await items(c, a)).some((i) => /expired/.test(i.text ?? '')));
  });

  it('a settings file written into a project folder that did not exist is applied', async () => {
    const dirs = tempDirs();
    const project = path.join(dirs.home, '..', 'project');
    th = await startHub({ limits: HOUR }, dirs);
    const c = await th.client();
    await th.register(c, { name: 'agent', cwd: project });
    let changed = 0;
    th.hub.events.on((e) => void (e.type === 'settings.changed' && changed++));
    fs.mkdirSync(path.join(project, '.switchboard'), { recursive: true });
    fs.writeFileSync(
      path.join(project, '.switchboard', 'settings.json'),
      JSON.stringify({ throttle: { bucketSize: 7 } }),
    );
    await until(() => changed > 0);
  });

  it('settings files are forgotten when the last session using them ends', async () => {
    th = await startHub({ limits: HOUR });
    const c = await th.client();
    const sender = await th.register(c, { name: 'sender', cwd: '/nowhere/a' });
    const before = th.hub.settings.filesInUse; // the admin scopes' two and the sender's project's four
    expect(before).toBe(6);
    for (let i = 0; i < 5; i++) {
      const r = await th.register(c, { name: `r${i}`, cwd: `/nowhere/p${i}` });
      await c.call('message.send', { ...auth(sender), to: `r${i}`, summary: 's', message: 'hello' }); // reads its settings
      expect(th.hub.settings.filesInUse).toBe(before + 4);
      await c.call('session.unregister', auth(r));
    }
    expect(th.hub.settings.filesInUse).toBe(before);
  });

  it('a pid-bound agent whose adapter connection closes leaves within seconds, not at the hour', async () => {
    th = await startHub({ limits: HOUR });
    const agent = spawn('sleep', ['30'], { stdio: 'ignore' });
    const adapter = await th.client();
    await th.register(adapter, { name: 'hooked', pid: agent.pid!, liveness: 'pid' });
    await stopProcess(agent, 'SIGKILL');
    adapter.close(); // the agent's MCP adapter exits with it
    await until(() => th!.hub.table.live.size === 0, 10_000);
  });
});
