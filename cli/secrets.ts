// Secrets never come from argv (every user on the machine reads argv in
// `ps`): a session token or the UI token comes from the environment, from a
// file only this user can read (`--token-file PATH`, `--ui-token-file PATH`)
// or from stdin (`-`). The removed `--token`/`--ui-token` flags are usage
// errors that say what to use instead. Bad files fail closed with a reason.

import fs from 'node:fs';
import { UsageError } from './errors.js';

/** A token is at most 128 characters on the wire; a little slack for a trailing newline. */
export const MAX_SECRET_BYTES = 4096;

/** Flags that used to carry a secret in argv, and what replaces each. */
export const REMOVED_SECRET_FLAGS: Record<string, string> = {
  token: 'set SWITCHBOARD_TOKEN, or pass --token-file PATH (a file only you can read) or --token-file - (stdin)',
  'ui-token':
    'set SWITCHBOARD_UI_TOKEN, or pass --ui-token-file PATH (a file only you can read) or --ui-token-file - (stdin)',
};

/** Refuses any removed secret-bearing flag before parsing; stops at `--`. */
export function refuseSecretFlags(args: readonly string[]): void {
  for (const arg of args) {
    if (arg === '--') return;
    if (!arg.startsWith('--')) continue;
    const name = arg.slice(2).split('=', 1)[0] as string;
    const instead = Object.prototype.hasOwnProperty.call(REMOVED_SECRET_FLAGS, name)
      ? REMOVED_SECRET_FLAGS[name]
      : undefined;
    if (instead !== undefined) {
      throw new UsageError(
        `--${name} is not accepted: a secret on the command line is visible to every user of this machine (ps). Instead ${instead}`,
      );
    }
  }
}

async function readStdin(flag: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_SECRET_BYTES)
      throw new UsageError(`${flag} -: more than ${MAX_SECRET_BYTES} bytes on stdin; expected one token`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function readFile(flag: string, source: string): string {
  let fd: number;
  try {
    fd = fs.openSync(source, 'r');
  } catch (err) {
    throw new UsageError(`${flag} ${source}: cannot open (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() && !st.isFIFO()) throw new UsageError(`${flag} ${source}: not a regular file`);
    const uid = process.getuid?.();
    if (uid !== undefined && st.uid !== uid)
      throw new UsageError(`${flag} ${source}: owned by another user; use a file of your own`);
    if (uid !== undefined && (st.mode & 0o077) !== 0) {
      throw new UsageError(
        `${flag} ${source}: readable by other users (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}); chmod 600 it first`,
      );
    }
    const buf = Buffer.alloc(MAX_SECRET_BYTES + 1);
    let size = 0;
    for (;;) {
      const n = size < buf.length ? fs.readSync(fd, buf, size, buf.length - size, null) : 0;
      if (n === 0) break;
      size += n;
    }
    if (size > MAX_SECRET_BYTES)
      throw new UsageError(`${flag} ${source}: more than ${MAX_SECRET_BYTES} bytes; expected one token`);
    return buf.subarray(0, size).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** The token in `source` (a path, or `-` for stdin), trimmed. */
export async function readSecret(flag: string, source: string): Promise<string> {
  const text = source === '-' ? await readStdin(flag) : readFile(flag, source);
  const token = text.trim();
  if (token === '' || /\s/.test(token)) throw new UsageError(`${flag} ${source}: expected exactly one token`);
  return token;
}
