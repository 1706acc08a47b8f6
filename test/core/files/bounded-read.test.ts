// The bounded, non-blocking read of files other programs control, and the
// create that never replaces: real files, FIFOs and devices in a temp dir.

import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readBounded, readBoundedSync, type FileRead } from '../../../core/storage/bounded-read.js';
import { createAtomicExclusive } from '../../../core/teams/files.js';

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
const tmp = (): string => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sbf-')));

/** Both readers must agree on every file. */
async function both(file: string, max: number): Promise<FileRead> {
  const a = await readBounded(file, max);
  expect(readBoundedSync(file, max)).toEqual(a);
  return a;
}

describe('readBounded', () => {
  it('reads a regular file (and a link to one) up to the limit; one byte more is unreadable', async () => {
    const d = tmp();
    const f = path.join(d, 'a.json');
    fs.writeFileSync(f, 'x'.repeat(10_000));
    fs.symlinkSync(f, path.join(d, 'link.json'));
    expect(await both(f, 10_000)).toEqual({ state: 'text', text: 'x'.repeat(10_000) });
    expect(await both(path.join(d, 'link.json'), 10_000)).toEqual({ state: 'text', text: 'x'.repeat(10_000) });
    expect(await both(f, 9_999)).toEqual({ state: 'unreadable', problem: 'larger than 9999 bytes' });
    expect(await both(path.join(d, 'empty'), 10)).toEqual({ state: 'missing' });
    fs.symlinkSync(path.join(d, 'gone'), path.join(d, 'dangling'));
    expect(await both(path.join(d, 'dangling'), 10)).toEqual({ state: 'missing' });
  });

  it.skipIf(process.platform === 'win32')('refuses anything but a regular file, without blocking on it', async () => {
    const d = tmp();
    const fifo = path.join(d, 'p');
    execFileSync('mkfifo', [fifo]);
    fs.symlinkSync(fifo, path.join(d, 'to-fifo'));
    fs.symlinkSync('/dev/zero', path.join(d, 'to-zero'));
    const fifoProblem = { state: 'unreadable', problem: 'not a regular file (a FIFO)' };
    expect(await both(fifo, 100), 'a FIFO').toEqual(fifoProblem);
    expect(await both(path.join(d, 'to-fifo'), 100), 'a link to a FIFO').toEqual(fifoProblem);
    // A writer that holds the FIFO open and never writes.
    const wfd = fs.openSync(fifo, fs.constants.O_RDWR);
    try {
      expect(await both(fifo, 100), 'a FIFO a writer holds open').toEqual(fifoProblem);
    } finally {
      fs.closeSync(wfd);
    }
    expect(await both(path.join(d, 'to-zero'), 100), 'a link to a device').toEqual({
      state: 'unreadable',
      problem: 'not a regular file (a device)',
    });
    expect(await both(d, 100), 'a directory').toEqual({
      state: 'unreadable',
      problem: 'not a regular file (a directory)',
    });
  });

  it.skipIf(process.platform !== 'linux')(
    'a file whose size says 0 but that holds more (as after growth past fstat) stops at the limit',
    async () => {
      // /proc files are regular files with st.size 0: the size check passes, the read must still stop.
      tmp();
      expect(fs.statSync('/proc/self/status').size).toBe(0);
      expect(await both('/proc/self/status', 16)).toEqual({ state: 'unreadable', problem: 'larger than 16 bytes' });
      const whole = await both('/proc/self/cmdline', 1024 * 1024);
      expect(whole.state).toBe('text');
    },
  );

  it.skipIf(process.platform === 'win32' || process.getuid?.() === 0)(
    'a file it may not open is unreadable, not missing',
    async () => {
      const f = path.join(tmp(), 'secret');
      fs.writeFileSync(f, '{}', { mode: 0o000 });
      expect(await both(f, 100)).toEqual({ state: 'unreadable', problem: 'cannot be opened (EACCES)' });
    },
  );
});

describe('createAtomicExclusive', () => {
  it('creates a new file whole and never replaces an existing one', async () => {
    const d = tmp();
    const f = path.join(d, '1.json');
    expect(await createAtomicExclusive(f, 'first')).toBe(true);
    expect(await createAtomicExclusive(f, 'second')).toBe(false);
    expect(fs.readFileSync(f, 'utf8')).toBe('first');
    expect(fs.readdirSync(d)).toEqual(['1.json']);
  });
});
