// `switchboard confirmations` from a terminal, with two `serve` processes as
// two machines and a real nats-server: a send that would leave waits; the
// user lists and allows it with the UI token; bad use is a usage error.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, runCli, serveCli, type Served } from '../helpers/cli.js';
import { tempDirs, until } from '../helpers/hub.js';
import { startNats, type Nats } from '../helpers/nats.js';
import { stopProcess } from '../helpers/processes.js';

const stops: Array<() => unknown> = [];
afterEach(async () => {
  for (const s of stops.splice(0).reverse()) await s();
});

function machineEnv(nats: Nats, name: string, extra: Record<string, unknown> = {}): NodeJS.ProcessEnv {
  const dirs = tempDirs();
  fs.mkdirSync(dirs.home, { recursive: true, mode: 0o700 });
  fs.writeFileSync(
    path.join(dirs.home, 'settings.json'),
    JSON.stringify({ relay: { servers: [nats.url], machine: name }, ...extra }),
  );
  return cliEnv(dirs);
}

describe('switchboard confirmations', () => {
  it('lists a waiting cross-machine send, which allow lets go on', async () => {
    const nats = await startNats();
    stops.push(() => nats.stop());
    const laptop = machineEnv(nats, 'laptop', { isolatePeerMachines: true });
    const buildbox = machineEnv(nats, 'buildbox');
    const a: Served = await serveCli(laptop);
    const b: Served = await serveCli(buildbox);
    stops.push(
      () => a.stop(),
      () => b.stop(),
    );
    const holder = spawn('sleep', ['120'], { stdio: 'ignore' });
    stops.push(() => stopProcess(holder));
    const start = async (env: NodeJS.ProcessEnv, name: string): Promise<NodeJS.ProcessEnv> => {
      const reg = JSON.parse(
        (
          await runCli(
            ['session', 'start', '--cwd', '/tmp', '--name', name, '--pid', String(holder.pid), '--json'],
            env,
          )
        ).stdout,
      ) as { sessionId: string; token: string };
      return { ...env, SWITCHBOARD_SESSION: reg.sessionId, SWITCHBOARD_TOKEN: reg.token };
    };
    const alice = await start(laptop, 'alice');
    await start(buildbox, 'bob');
    await until(async () => (await runCli(['agents'], alice)).stdout.includes('buildbox'));

    const token = a.ready.uiToken;
    expect((await runCli(['confirmations'], laptop)).code, 'without a UI token: exit 2').toBe(2);
    expect(
      (await runCli(['confirmations', 'teleport'], { ...laptop, SWITCHBOARD_UI_TOKEN: token })).code,
      'an unknown subcommand: usage error',
    ).toBe(2);
    expect((await runCli(['confirmations'], { ...laptop, SWITCHBOARD_UI_TOKEN: token })).stdout).toContain(
      'No sends wait for your confirmation',
    );
    // The relay's mode is said too: this broker runs without JetStream.
    await until(async () =>
      (await runCli(['confirmations'], { ...laptop, SWITCHBOARD_UI_TOKEN: token })).stdout.includes(
        'Relay: connected as laptop; direct mode: a machine that is away cannot be reached',
      ),
    );

    const sending = runCli(['send', '--to', 'bob', '--summary', 's', '--message', 'ship it'], alice);
    let id = '';
    await until(async () => {
      const r = JSON.parse(
        (await runCli(['confirmations', '--json'], { ...laptop, SWITCHBOARD_UI_TOKEN: token })).stdout,
      ) as { items: Array<{ id: string }> };
      id = r.items[0]?.id ?? '';
      return id !== '';
    });
    const table = (await runCli(['confirmations', 'list'], { ...laptop, SWITCHBOARD_UI_TOKEN: token })).stdout;
    expect(table).toMatch(/^ID\s+FROM\s+TO\s+EXPIRES\s+PREVIEW/);
    expect(table, 'the waiting send is listed').toContain('ship it');
    expect(table).toContain('(buildbox)');
    expect(
      (await runCli(['confirmations', 'deny', 'no-such-id'], { ...laptop, SWITCHBOARD_UI_TOKEN: token })).code,
      'an unknown id exits 1',
    ).toBe(1);
    expect(
      (await runCli(['confirmations', 'allow', id], { ...laptop, SWITCHBOARD_UI_TOKEN: token })).stdout.trim(),
    ).toBe('allowed: the send goes on');
    const sent = await sending;
    expect(sent.code).toBe(0);
    expect(sent.stdout, 'the allowed send goes on').toMatch(/^queued: /);
  }, 60_000);
});
