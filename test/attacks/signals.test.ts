// Signals against a real `switchboard serve` process: none that would end it
// by Node's default does, except the ones people send to stop a program,
// which stop it in order (exit 0, its socket gone). SIGUSR1 opens no
// debugger (Node's default listens on 127.0.0.1:9229 for anyone on the
// machine). A pipe whose reader went away costs the hub its output only:
// it serves on and still stops cleanly (a failed stderr write used to turn
// the next stop into exit 70 after the 5 s fatal timeout).
// Needs dist/cli (npm run build, or node cli/build.mjs).

import fs from 'node:fs';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { OUTLIVED_SIGNALS } from '../../core/kit/signals.js';
import { cliEnv, runCli, serveCli, type Served } from '../helpers/cli.js';
import { tempDirs, until } from '../helpers/hub.js';
import { sendSignal } from '../helpers/processes.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.stop();
  served = undefined;
});

const here = OUTLIVED_SIGNALS.filter((s) => s in os.constants.signals);
const numberOf = (s: string): number => (os.constants.signals as Record<string, number>)[s]!;
/** One name per signal number (Linux's SIGPOLL is SIGIO): an alias is the same signal, logged under the first name. */
const distinct = here.filter((s, i) => here.findIndex((o) => numberOf(o) === numberOf(s)) === i);

async function stillServing(env: NodeJS.ProcessEnv, pid: number): Promise<void> {
  const status = await runCli(['status', '--json'], env);
  expect(status.code, status.stderr).toBe(0);
  expect(JSON.parse(status.stdout)).toMatchObject({ pid });
}

function stderrOf(s: Served): () => string {
  let err = '';
  s.child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return () => err;
}

describe('switchboard serve under signals', () => {
  it(`outlives ${here.join(' ')} and logs each`, async () => {
    const env = cliEnv(tempDirs());
    served = await serveCli(env);
    const err = stderrOf(served);
    const pid = served.ready.pid;
    for (const signal of distinct) {
      sendSignal(pid, signal as NodeJS.Signals);
      // Its log line says the hub handled it (the first of each signal is always logged).
      await until(() => err().includes(`${signal} ignored`));
      expect({ signal, exitCode: served.child.exitCode, killedBy: served.child.signalCode }).toEqual({
        signal,
        exitCode: null,
        killedBy: null,
      });
    }
    await stillServing(env, pid);
    expect(err()).not.toContain('Debugger listening'); // Node's SIGUSR1 default
    expect(err()).toContain('SIGUSR2 ignored');
  });

  it.each(['SIGHUP', 'SIGQUIT', 'SIGINT', 'SIGTERM'])(
    '%s stops it in order: exit 0, its socket removed',
    async (signal) => {
      const env = cliEnv(tempDirs());
      const s = await serveCli(env);
      const code = await s.stop(signal as NodeJS.Signals);
      expect({ code, killedBy: s.child.signalCode }).toEqual({ code: 0, killedBy: null });
      expect(fs.existsSync(s.ready.socket)).toBe(false);
    },
  );

  it('keeps serving and stops cleanly when the readers of its stdout and stderr went away', async () => {
    const env = cliEnv(tempDirs());
    const s = (served = await serveCli(env));
    s.child.stdout?.destroy();
    s.child.stderr?.destroy();
    sendSignal(s.ready.pid, 'SIGUSR2'); // a warning to a closed stderr
    await stillServing(env, s.ready.pid); // a request after the signal: handled in order
    expect(s.child.exitCode).toBe(null);
    expect(await s.stop()).toBe(0); // not 70, the fatal timeout's code
  });
});
