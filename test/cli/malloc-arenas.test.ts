// `switchboard serve` runs with few malloc arenas (the loaded hub
// held 8–10 MB in per-thread arenas): it re-executes itself in place, so the
// pid that answers is the one that was started, its environment carries
// MALLOC_ARENA_MAX=2, and a value the user set is kept. Other commands are
// not re-executed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { QUIET_HEAP, withFewMallocArenas } from '../../cli/malloc-arenas.js';
import { CLI, cliEnv, readyLine } from '../helpers/cli.js';
import { tempDirs } from '../helpers/hub.js';
import { stopProcess } from '../helpers/processes.js';

const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const s of stops.splice(0).reverse()) await s();
});

const environOf = (pid: number): string[] => fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');

/** `serve --json --quiet` up to its ready line; the ready pid and the spawned pid. */
async function serve(extra: Record<string, string>): Promise<{ spawned: number; ready: number }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--json', '--quiet'], { env: cliEnv(tempDirs(), extra) });
  stops.push(() => stopProcess(child));
  const ready = await readyLine<{ pid: number }>(child);
  return { spawned: child.pid!, ready: ready.pid };
}

describe.skipIf(process.platform !== 'linux' || typeof process.execve !== 'function')('malloc arenas', () => {
  it('serve re-executes itself in place (same pid) with MALLOC_ARENA_MAX=2 and no memory reducer', async () => {
    const { spawned, ready } = await serve({});
    expect(ready, 'the same pid answers').toBe(spawned);
    expect(environOf(spawned)).toContain('MALLOC_ARENA_MAX=2');
    expect(fs.readFileSync(`/proc/${spawned}/cmdline`, 'utf8').split('\0')).toContain(QUIET_HEAP);
  });

  it("keeps the user's own MALLOC_ARENA_MAX", async () => {
    const { spawned } = await serve({ MALLOC_ARENA_MAX: '4' });
    expect(environOf(spawned)).toContain('MALLOC_ARENA_MAX=4');
    expect(environOf(spawned)).not.toContain('MALLOC_ARENA_MAX=2');
  });

  it('on Linux only, re-executes once with the same arguments', () => {
    const calls: Array<[string, readonly string[], NodeJS.ProcessEnv]> = [];
    const port = (platform: NodeJS.Platform, env: NodeJS.ProcessEnv) => ({
      platform,
      env,
      execPath: '/n/node',
      execArgv: ['--enable-source-maps'],
      argv: ['/n/node', '/x/switchboard.mjs', 'serve', '--ui'],
      execve: ((file: string, args: readonly string[], e: NodeJS.ProcessEnv) => {
        calls.push([file, args, e]);
      }) as unknown as (file: string, args: readonly string[], env: NodeJS.ProcessEnv) => never,
    });
    withFewMallocArenas(port('darwin', {}));
    withFewMallocArenas({ ...port('linux', { MALLOC_ARENA_MAX: '2' }), execArgv: [QUIET_HEAP] });
    expect(calls, 'not on macOS, not a second time').toEqual([]);
    withFewMallocArenas(port('linux', { HOME: '/h' }));
    withFewMallocArenas(port('linux', { MALLOC_ARENA_MAX: '4' })); // the user's arenas kept; the heap still quiet
    expect(calls, 'on Linux, with the same arguments').toEqual([
      [
        '/n/node',
        ['/n/node', QUIET_HEAP, '--enable-source-maps', '/x/switchboard.mjs', 'serve', '--ui'],
        { HOME: '/h', MALLOC_ARENA_MAX: '2' },
      ],
      [
        '/n/node',
        ['/n/node', QUIET_HEAP, '--enable-source-maps', '/x/switchboard.mjs', 'serve', '--ui'],
        { MALLOC_ARENA_MAX: '4' },
      ],
    ]);
  });
});
