// The bounded, non-blocking read of other programs' files against
// the read it replaced (stat, then readFile), measured in the same run on the
// same files, interleaved so machine load hits both alike. Prints µs per
// read and the ratio new / old for an inbox-sized range of files.

import fs from 'node:fs';
import path from 'node:path';
import { readBounded, readBoundedSync } from '../core/storage/bounded-read.js';
import { fmt, tempDir } from './lib.js';

const SIZES = [10 * 1024, 1024 * 1024, 8 * 1024 * 1024];
const LIMIT = 64 * 1024 * 1024;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

/** The old readSmall: stat, then readFile (blocks on a FIFO swapped in between). */
async function baseline(file: string): Promise<string | undefined> {
  const st = await fs.promises.stat(file);
  if (!st.isFile() || st.size > LIMIT) return undefined;
  return fs.promises.readFile(file, 'utf8');
}

async function timeIt(n: number, fn: () => unknown): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  return Number(process.hrtime.bigint() - t0) / 1000 / n;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(): Promise<void> {
  const dir = tempDir();
  console.log('\nbounded reads: µs per read, median of rounds, new / old');
  for (const size of SIZES) {
    const file = path.join(dir, `f${size}.json`);
    fs.writeFileSync(file, JSON.stringify([{ text: 'x'.repeat(size - 20) }]));
    const n = Math.max(5, Math.round((20 * 1024 * 1024) / size));
    const old: number[] = [];
    const now: number[] = [];
    const sync: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      old.push(await timeIt(n, () => baseline(file)));
      now.push(await timeIt(n, () => readBounded(file, LIMIT)));
      sync.push(await timeIt(n, () => fs.readFileSync(file, 'utf8')));
      sync.push(-(await timeIt(n, () => readBoundedSync(file, LIMIT))));
    }
    const syncOld = median(sync.filter((x) => x > 0));
    const syncNew = median(sync.filter((x) => x < 0).map((x) => -x));
    console.log(
      `  ${fmt(size / 1024, 0).padStart(6)} KiB  async ${fmt(median(old))} → ${fmt(median(now))} µs (×${fmt(median(now) / median(old), 2)})` +
        `  sync ${fmt(syncOld)} → ${fmt(syncNew)} µs (×${fmt(syncNew / syncOld, 2)})`,
    );
  }
  fs.rmSync(dir, { recursive: true, force: true });
}
