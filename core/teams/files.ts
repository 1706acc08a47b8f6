// Claude Code's file conventions: path-part sanitizers, JSON written as
// `JSON.stringify(x, null, 2)` with no trailing newline, and atomic replace
// through `<file>.tmp.<8 hex>` + rename (copy + unlink across devices), or
// linked into place where an existing file must never be replaced.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';

/** Inbox, task-list and member file names: every char outside [A-Za-z0-9_-] to `-`, case kept. */
export function sanitizePart(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '-');
}

/** Team directory names: lowercased, every non-alphanumeric to `-`. */
export function sanitizeTeamDir(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '-');
}

export function serialize(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

export async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.tmp.${randomBytes(4).toString('hex')}`;
  await fs.promises.writeFile(tmp, text, { mode: 0o600 });
  try {
    await fs.promises.rename(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') {
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
    await fs.promises.copyFile(tmp, file);
    await fs.promises.rm(tmp, { force: true });
  }
}

/**
 * Creates `file` with all of `text` at once, never replacing anything: the
 * temp file is hard-linked into place (link fails on an existing name).
 * Where links are unsupported, an O_EXCL create and write. False when `file` exists.
 */
export async function createAtomicExclusive(file: string, text: string): Promise<boolean> {
  const tmp = `${file}.tmp.${randomBytes(4).toString('hex')}`;
  await fs.promises.writeFile(tmp, text, { mode: 0o600 });
  try {
    await fs.promises.link(tmp, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
  } finally {
    await fs.promises.rm(tmp, { force: true });
  }
  try {
    await fs.promises.writeFile(file, text, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** Creates `file` with `content` unless it exists (O_EXCL). */
export async function createExclusive(file: string, content: string): Promise<void> {
  try {
    await fs.promises.writeFile(file, content, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}
