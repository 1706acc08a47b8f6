// The hub's signal rules (core/kit/signals.ts) on an emitter: a stop signal
// starts the orderly stop once and hands the next one back to Node's default;
// every other signal that would end the process is logged, at most once a
// minute per signal, and ignored; aliases get one listener; the disposer
// removes what is left. The real process is in test/attacks/signals.test.ts.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { handleSignals, OUTLIVED_SIGNALS, STOP_SIGNALS } from '../../../core/kit/signals.js';
import type { Logger } from '../../../core/kit/logger.js';

const LINUX = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGUSR1: 10, SIGUSR2: 12, SIGTERM: 15, SIGIO: 29, SIGPOLL: 29 };

function setup(now = { t: 0 }) {
  const proc = new EventEmitter();
  const lines: string[] = [];
  const log: Logger = {
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
  const stops: string[] = [];
  const dispose = handleSignals(proc, log, (s) => stops.push(s), { available: LINUX, now: () => now.t });
  const count = (s: string): number => proc.listenerCount(s);
  return { proc, lines, stops, dispose, count, now };
}

describe('handleSignals', () => {
  it('listens to the stop signals and to every outlived signal the platform has, one per signal number', () => {
    const { count } = setup();
    for (const s of STOP_SIGNALS) expect(count(s)).toBe(1);
    expect(count('SIGUSR1')).toBe(1);
    expect(count('SIGUSR2')).toBe(1);
    expect(count('SIGIO') + count('SIGPOLL')).toBe(1); // aliases: one listener, one log line per signal
    expect(count('SIGPWR')).toBe(0); // not on this "platform"
    expect(OUTLIVED_SIGNALS).not.toContain('SIGSEGV');
  });

  it('the first stop signal stops once and gives the stop signals back to their default', () => {
    const { proc, stops, count, lines } = setup();
    proc.emit('SIGHUP', 'SIGHUP');
    expect(stops).toEqual(['SIGHUP']);
    for (const s of STOP_SIGNALS) expect(count(s)).toBe(0); // a second one ends the process at once
    expect(count('SIGUSR2')).toBe(1); // still outlived while stopping
    expect(lines).toEqual(['info SIGHUP: the hub stops (send it again to end the process at once)']);
  });

  it('logs an ignored signal at most once a minute, with the count it did not log', () => {
    const { proc, lines, stops, now } = setup();
    for (let i = 0; i < 5; i++) proc.emit('SIGUSR2', 'SIGUSR2');
    proc.emit('SIGUSR1', 'SIGUSR1');
    now.t += 60_000;
    proc.emit('SIGUSR2', 'SIGUSR2');
    expect(stops).toEqual([]);
    expect(lines).toEqual([
      'warn SIGUSR2 ignored: the hub stops only on SIGINT, SIGTERM, SIGHUP, SIGQUIT',
      'warn SIGUSR1 ignored: the hub stops only on SIGINT, SIGTERM, SIGHUP, SIGQUIT',
      'warn SIGUSR2 ignored (and 4 more since the last line): the hub stops only on SIGINT, SIGTERM, SIGHUP, SIGQUIT',
    ]);
  });

  it('the disposer removes every listener still installed, before or after a stop', () => {
    const before = setup();
    before.dispose();
    expect(before.proc.eventNames()).toEqual([]);
    const after = setup();
    after.proc.emit('SIGTERM', 'SIGTERM');
    after.dispose();
    expect(after.proc.eventNames()).toEqual([]);
  });
});
