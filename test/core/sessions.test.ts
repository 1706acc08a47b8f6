import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { RpcError } from '../../core/client/client.js';
import { processStartTime, sameProcessAlive } from '../../core/registry/proc.js';
import { refHash } from '../../core/registry/names.js';
import { startHub, until, type TestHub } from '../helpers/hub.js';
import { stopProcess } from '../helpers/processes.js';

let th: TestHub;
afterEach(async () => th?.close());

describe('sessions', () => {
  async function registered() {
    th = await startHub();
    const c = await th.client();
    const r = await th.register(c, { cwd: '/home/u/MyApp', agent: 'claude' });
    return { c, r, auth: { sessionId: r.sessionId, token: r.token } };
  }

  it('a registration is named after its project folder and gets a ref of its uds address', async () => {
    const { r } = await registered();
    expect(r.name).toMatch(/^myapp-[0-9a-f]{2}$/);
    expect(r.address).toMatch(/^uds:\//);
    expect(r.ref).toBe(refHash(r.address).slice(0, 6));
    expect(r.token).toMatch(/^[0-9a-f]{48}$/);
  });

  it('a rename is normalized to the name form', async () => {
    const { c, auth } = await registered();
    const renamed = await c.call('session.rename', { ...auth, name: 'API Worker' });
    expect(renamed.name).toBe('api-worker');
  });

  it("the listing shows the session's current name, state and permission mode", async () => {
    const { c, r, auth } = await registered();
    await c.call('session.state', { ...auth, state: 'busy' });
    await c.call('session.rename', { ...auth, name: 'API Worker' });
    await c.call('session.mode', { ...auth, permissionMode: 'acceptEdits' });
    const { rows } = await c.call('agents.list', auth);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      name: 'api-worker',
      label: `api-worker [${r.ref}]`,
      cwd: '/home/u/MyApp',
      agent: 'claude',
      kind: 'switchboard',
      state: 'busy',
      mode: 'acceptEdits',
      self: true,
      canReceive: true,
      machine: null,
      inboxDepth: 0,
      inbound: { value: null, source: 'parity' },
    });
  });

  it('a rename to a reserved name is refused', async () => {
    const { c, auth } = await registered();
    const bad = await c.call('session.rename', { ...auth, name: 'main' }).catch((e: unknown) => e);
    expect((bad as RpcError).reason).toBe('name_invalid');
  });

  it('a connection-bound session leaves listings when its connection closes, and with unread messages can resume with its token', async () => {
    th = await startHub();
    const watcher = await th.client();
    const w = await th.register(watcher, { name: 'watcher' });
    const c = await th.client();
    const r = await th.register(c, { name: 'short-lived' });
    expect((await watcher.call('agents.list', {})).rows).toHaveLength(2);
    await watcher.call('message.send', {
      sessionId: w.sessionId,
      token: w.token,
      to: 'short-lived',
      summary: 's',
      message: 'keep me',
    });
    c.close();
    await until(async () => (await watcher.call('agents.list', {})).rows.length === 1);

    const again = await th.client();
    const wrong = await again
      .call('session.register', { cwd: '/x', resume: { sessionId: r.sessionId, token: 'f'.repeat(48) } })
      .catch((e: unknown) => e);
    expect((wrong as RpcError).reason).toBe('unauthorized');
    const resumed = await again.call('session.register', {
      cwd: '/x',
      resume: { sessionId: r.sessionId, token: r.token },
    });
    expect(resumed).toMatchObject({ sessionId: r.sessionId, name: 'short-lived', address: r.address, resumed: true });
  });

  it('a pid-bound session lives on its process, and leaves at the next batched liveness check after it dies', async () => {
    const limits = { livenessSweepMs: 500 };
    th = await startHub({ limits });
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    const canary = spawn('sleep', ['30'], { stdio: 'ignore' });
    const c = await th.client();
    await th.register(c, { name: 'hooked', pid: child.pid!, liveness: 'pid' });
    await th.register(c, { name: 'canary', pid: canary.pid!, liveness: 'pid' });
    const watcher = await th.client();
    await stopProcess(canary, 'SIGKILL');
    // The canary leaves at a check: the same batch found the other alive.
    await until(async () => (await watcher.call('agents.list', {})).rows.length === 1, 30_000);
    expect((await watcher.call('agents.list', {})).rows.map((x) => x.name)).toEqual(['hooked']);
    const t0 = Date.now();
    await stopProcess(child, 'SIGKILL'); // no connection closes: only the liveness check can notice
    await until(async () => (await watcher.call('agents.list', {})).rows.length === 0, 30_000);
    // A loaded machine may delay a check, so the bound counts checks generously.
    expect(Date.now() - t0).toBeLessThan(10 * limits.livenessSweepMs);
  });

  it('refuses pid liveness for a pid that is not alive', async () => {
    th = await startHub();
    const c = await th.client();
    const err = await th.register(c, { pid: 2 ** 30, liveness: 'pid' }).catch((e: unknown) => e);
    expect((err as RpcError).reason).toBe('pid_not_alive');
  });

  it('detects pid reuse through the process start time', async () => {
    const start = processStartTime(process.pid);
    expect(start).toMatch(/^\d+$/);
    expect(await sameProcessAlive({ pid: process.pid, startTime: start })).toBe(true);
    expect(await sameProcessAlive({ pid: process.pid, startTime: String(Number(start) + 1) })).toBe(false);
  });

  it('unregister removes the session from listings', async () => {
    th = await startHub();
    const c = await th.client();
    const r = await th.register(c, { name: 'gone' });
    await c.call('session.unregister', { sessionId: r.sessionId, token: r.token });
    expect((await c.call('agents.list', {})).rows).toHaveLength(0);
  });
});
