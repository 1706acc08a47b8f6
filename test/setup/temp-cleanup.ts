// A vitest setupFile (runs in every test file, before its imports): the file
// gets its own TMPDIR, so what it leaves can be told apart from other files
// running in parallel. After the file's last hook (its own afterAll hooks,
// which stop the servers living there, run first), every tempDir() directory
// is removed; anything else named like ours that is still there fails the
// file, naming it. The directory is removed either way.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { removeTempDirs, TEMP_PREFIX } from '../helpers/temp.js';

/** Ours: every test directory (TEMP_PREFIX), and the hub's default runtime directory name. */
const OURS = new RegExp(`^(${TEMP_PREFIX}|switchboard-)`);

const before = process.env.TMPDIR;
const fileTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sbf-'));
process.env.TMPDIR = fileTmp;

afterAll(() => {
  removeTempDirs();
  const left = fs.readdirSync(fileTmp).filter((n) => OURS.test(n));
  fs.rmSync(fileTmp, { recursive: true, force: true, maxRetries: 3 });
  if (before === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = before;
  if (left.length > 0) {
    throw new Error(
      `this test file left ${left.length} temporary entries: ${left.slice(0, 20).join(', ')}. Make them with tempDir() from test/helpers/temp.ts, which removes them after the file.`,
    );
  }
});
