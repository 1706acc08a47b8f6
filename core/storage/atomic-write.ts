// One atomic replace for our own files: write a temp file beside the target
// (exclusive create, the given mode), then rename it over the target; on any
// failure the temp file is removed and the error thrown, so a reader sees the
// old file or the new one, never a part, and nothing is left behind. Claude
// Code's own files follow its convention instead (teams/files.ts).

import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

/** node:crypto is loaded on the first write only: a command hook that writes nothing starts faster without it. */
function randomHex(): string {
  const { randomBytes } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return randomBytes(4).toString('hex');
}

export function replaceFileSync(file: string, data: string, mode: number): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomHex()}.tmp`);
  try {
    fs.writeFileSync(tmp, data, { mode, flag: 'wx' });
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}
