// The last-resort handlers of `switchboard serve` (core/kit/process-guards.ts) in
// a real Node process: a stray rejection is logged with its stack and origin
// and the process goes on; an uncaught exception is logged and handed to the
// orderly stop once. The control run shows what Node does without them.
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { installProcessGuards } from '../../core/kit/process-guards.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sbg-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const SCRIPT = (guarded: boolean) => `
import { installProcessGuards, stderrLogger } from './guards.mjs';
if (${guarded}) installProcessGuards(process, stderrLogger('warn'), (err) => {
  process.stdout.write('orderly stop after: ' + err.message + '\\n');
  process.exitCode = 70;
});
Promise.reject(new Error('lost rejection'));
setTimeout(() => {
  process.stdout.write('still running\\n');
  setTimeout(() => { throw new Error('stray throw'); }, 10);
  setTimeout(() => { throw new Error('second throw'); }, 20);
}, 100);
`;

async function runChild(
  guarded: boolean,
): Promise<{ status: number | null; stdout: string; lines: Array<Record<string, string>> }> {
  if (!fs.existsSync(path.join(dir, 'guards.mjs'))) {
    const root = path.resolve(import.meta.dirname, '../..');
    await build({
      stdin: {
        contents:
          "export { installProcessGuards } from './core/kit/process-guards.ts'; export { stderrLogger } from './core/kit/logger.ts';",
        resolveDir: root,
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: path.join(dir, 'guards.mjs'),
      logLevel: 'silent',
    });
  }
  const file = path.join(dir, `run-${guarded}.mjs`);
  fs.writeFileSync(file, SCRIPT(guarded));
  const r = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 60_000 });
  const lines = r.stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, string>);
  return { status: r.status, stdout: r.stdout, lines };
}

describe('serve process guards', () => {
  it('without them a stray rejection ends the process silently for the hub (the control)', async () => {
    const r = await runChild(false);
    expect(r.status).toBe(1);
    expect(r.stdout).not.toContain('still running');
  });

  it('log every stray error and stop in order only on an uncaught exception', async () => {
    const r = await runChild(true);
    expect(r.stdout, 'a rejection keeps it running; the first throw stops it in order, once').toBe(
      'still running\norderly stop after: stray throw\n',
    );
    expect(r.status).toBe(70);
    expect(
      r.lines.map((l) => [l.level, l.origin, l.stack?.split('\n')[0]]),
      'each error is logged with its stack and origin',
    ).toEqual([
      ['error', 'unhandledRejection', 'Error: lost rejection'],
      ['error', 'uncaughtException', 'Error: stray throw'],
      ['error', 'uncaughtException', 'Error: second throw'],
    ]);
    expect(r.lines[0]!.stack).toMatch(/run-true\.mjs:\d+/); // the origin: where it was made
  });

  it('describe a non-Error reason, and the disposer removes both handlers', () => {
    const proc = new EventEmitter();
    const logged: Array<Record<string, unknown> | undefined> = [];
    const dispose = installProcessGuards(
      proc,
      { info: () => undefined, warn: () => undefined, error: (_m, f) => void logged.push(f) },
      () => undefined,
    );
    proc.emit('unhandledRejection', 'just a string');
    expect(logged).toEqual([{ origin: 'unhandledRejection', error: 'string', value: 'just a string' }]);
    dispose();
    expect([proc.listenerCount('unhandledRejection'), proc.listenerCount('uncaughtException')]).toEqual([0, 0]);
  });
});
