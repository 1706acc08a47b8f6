// Other machines' presences (core/relay/presences.ts): each listed until its
// time runs out, one timer for the earliest, and a presence refreshed before
// its time stays listed. The time presences are judged by is the test's;
// the timer is real, and waits end on the change they wait for, so a slow
// machine only makes a timer fire late.
import { afterEach, describe, expect, it } from 'vitest';
import { Presences } from '../../../core/relay/presences.js';
import { until } from '../../helpers/hub.js';

let p: Presences | undefined;
afterEach(() => p?.close());

const hub = (machine: string) => ({ machine, hubId: `h-${machine}`, sessions: [] });

describe('presences', () => {
  it('lists a machine until its presence runs out, then says it changed', async () => {
    let now = 0;
    let changes = 0;
    p = new Presences(
      () => now,
      () => void changes++,
    );
    p.set(hub('buildbox'), 50);
    expect([p.live().map((h) => h.machine), changes]).toEqual([['buildbox'], 1]);
    now = 50; // its time is up when the timer armed for it fires
    await until(() => p!.map.size === 0);
    expect([p.live(), changes]).toEqual([[], 2]);
  });

  it('keeps a machine whose presence was refreshed, and drops the one that went silent', async () => {
    let now = 0;
    p = new Presences(
      () => now,
      () => undefined,
    );
    p.set(hub('quiet'), 50);
    p.set(hub('chatty'), 50);
    now = 40;
    p.set(hub('chatty'), 50); // until 90
    now = 60;
    await until(() => !p!.map.has('quiet'));
    expect(p.live().map((h) => h.machine)).toEqual(['chatty']);
    now = 90;
    await until(() => p!.map.size === 0); // the timer was armed again for the refreshed one
  });
});
