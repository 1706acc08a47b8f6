// Faults: the broker killed mid-traffic (clear errors, no acknowledged
// message lost, recovery after it restarts) and a hub killed (its sessions
// vanish from the other machine's listing within the presence expiry).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HubClient } from '../../../core/client/client.js';
import { HubError } from '../../../core/protocol/errors.js';
import { cliEnv, runCli, serveCli, type Served } from '../../helpers/cli.js';
import { tempDirs, until, type TestHub } from '../../helpers/hub.js';
import { stopProcess } from '../../helpers/processes.js';
import { machine, startNats, type Nats } from './nats.js';

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

describe('relay faults', () => {
  it('a broker killed mid-traffic loses no acknowledged message, and the relay recovers when it is back', async () => {
    let nats: Nats = await startNats();
    const port = nats.port;
    cleanup.push(() => nats.stop());
    const a: TestHub = await machine('laptop', nats);
    const b: TestHub = await machine('buildbox', nats);
    cleanup.push(
      () => a.close(),
      () => b.close(),
    );
    const ca: HubClient = await a.client();
    const cb: HubClient = await b.client();
    const alice = await a.register(ca, { name: 'alice' });
    const bob = await b.register(cb, { name: 'bob' });
    await until(async () => (await ca.call('agents.list', {})).rows.some((r) => r.name === 'bob'));

    const acked: string[] = [];
    const failures: string[] = [];
    for (let i = 0; i < 40; i++) {
      if (i === 20) await nats.stop();
      try {
        const r = await ca.call(
          'message.send',
          {
            ...{ sessionId: alice.sessionId, token: alice.token },
            to: 'bob',
            summary: `m${i}`,
            message: `message ${i}`,
          },
          { timeoutMs: 15_000 },
        );
        if (r.status === 'queued') acked.push(`message ${i}`);
      } catch (err) {
        failures.push((err as { reason?: string }).reason ?? String(err));
      }
    }
    expect(acked.length, 'the sends before the kill went').toBeGreaterThanOrEqual(20);
    expect(failures.length, 'sends after the kill fail').toBeGreaterThan(0);
    expect(new Set(failures), 'with a clear error').toEqual(
      new Set(failures.filter((f) => f === 'unreachable' || f === 'timeout')),
    );
    const inbox = (await cb.call('inbox.fetch', { sessionId: bob.sessionId, token: bob.token, limit: 100 })).items;
    for (const text of acked)
      expect(
        inbox.some((m) => m.kind === 'message' && m.text.includes(`${text}\n`)),
        `acknowledged, so delivered: ${text}`,
      ).toBe(true);

    nats = await startNats(port);
    // Recovery (a hang here: the relay never reconnects or never sends again).
    await until(() => a.hub.remote.relay?.connected === true && b.hub.remote.relay?.connected === true);
    await until(async () => {
      try {
        return (
          (
            await ca.call('message.send', {
              sessionId: alice.sessionId,
              token: alice.token,
              to: 'bob',
              summary: 'after',
              message: 'after the outage',
            })
          ).status === 'queued'
        );
      } catch (err) {
        if (err instanceof HubError || (err as { reason?: string }).reason !== undefined) return false;
        throw err;
      }
    });
  }, 60_000);

  it('a hub closes promptly while its broker is down, and starts without one', async () => {
    const nats = await startNats();
    const a = await machine('laptop', nats);
    await until(() => a.hub.remote.relay?.connected === true);
    await nats.stop();
    await until(() => a.hub.remote.relay?.connected === false);
    const t0 = Date.now();
    await a.close();
    // An order: the close gives draining at most 2 s and never waits out NATS' reconnect attempts (tens of seconds).
    expect(Date.now() - t0).toBeLessThan(10_000);
    // No broker at all: the hub starts, says unreachable, and closes.
    const b = await machine('buildbox', nats);
    cleanup.push(() => b.close());
    expect(b.hub.remote.relay?.connected).toBe(false);
  });

  it("a killed hub's sessions vanish from the other machine within the presence expiry", async () => {
    const nats = await startNats();
    cleanup.push(() => nats.stop());
    const a = await machine('laptop', nats);
    cleanup.push(() => a.close());
    const ca = await a.client();

    const dirs = tempDirs();
    fs.mkdirSync(dirs.home, { recursive: true, mode: 0o700 });
    fs.writeFileSync(
      path.join(dirs.home, 'settings.json'),
      JSON.stringify({ relay: { servers: [nats.url], machine: 'buildbox', presenceSeconds: 3 } }),
    );
    const env = cliEnv(dirs);
    const served: Served = await serveCli(env);
    cleanup.push(() => served.stop());
    const holder = spawn('sleep', ['120'], { stdio: 'ignore' });
    cleanup.push(() => stopProcess(holder));
    const reg = await runCli(
      ['session', 'start', '--cwd', dirs.root, '--name', 'bob', '--pid', String(holder.pid), '--json'],
      env,
    );
    expect(reg.code).toBe(0);
    await until(
      async () => (await ca.call('agents.list', {})).rows.some((r) => r.name === 'bob' && r.machine === 'buildbox'),
      10_000,
    );

    const killedAt = Date.now();
    await served.stop('SIGKILL');
    await until(async () => !(await ca.call('agents.list', {})).rows.some((r) => r.name === 'bob'), 30_000);
    // An order, not a speed: the configured 3 s expiry ended it, well before the default 15 s one could.
    expect(Date.now() - killedAt).toBeLessThan(15_000);
  }, 60_000);
});
