// Tests clean up what they make in the temp directory. Each test
// file works in a private TMPDIR; tempDir() directories go after the file;
// a file that leaves anything named like ours fails, naming what it left, and
// nothing reaches the shared temp directory either way.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeTempDir, tempDir } from './helpers/temp.js';

const ROOT = new URL('..', import.meta.url).pathname;
const VITEST = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const CONFIG = path.join(ROOT, 'test', 'fixtures', 'temp-leak', 'vitest.config.ts');

function runFixture(env: Record<string, string>, tmp: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [VITEST, 'run', '--config', CONFIG], {
      cwd: ROOT,
      env: { ...process.env, ...env, TMPDIR: tmp, NO_COLOR: '1' },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('temporary directories', () => {
  it("this file runs in its own TMPDIR inside the run's private one; tempDir() needs our prefix", () => {
    expect(path.basename(os.tmpdir())).toMatch(/^sbf-/);
    expect(path.basename(path.dirname(os.tmpdir()))).toMatch(/^sbr/);
    const dir = tempDir();
    expect(path.dirname(dir)).toBe(os.tmpdir());
    removeTempDir(dir);
    expect(fs.existsSync(dir)).toBe(false);
    expect(() => tempDir('tmp-')).toThrow(/prefixes start with "sb"/);
  });

  it('the leak check fails only a test file that leaks, and names the leak', async () => {
    const outer = tempDir('sbt-hygiene-');
    const clean = await runFixture({}, outer);
    expect(clean.code, clean.out).toBe(0);
    const leaky = await runFixture({ SB_LEAK: '1' }, outer);
    expect(leaky.code, 'a leak fails the file').toBe(1);
    expect(leaky.out, 'and names the leak').toMatch(/this test file left 1 temporary entries: sbt-leaked-\w+/);
    expect(leaky.out, 'only the leak').not.toContain('sbt-kept-');
    expect(fs.readdirSync(outer), 'neither run leaves anything').toEqual([]);
  }, 60_000);
});
