// Claude Code's session registry files (docs/claude-code-formats.md#5-cross-session-messaging): `<pid>.json` under
// `<claude home>/sessions/`, owned by Claude Code. Read as unknown, bounded
// (256 KiB, names that are a bare decimal pid, the pid inside matching the
// name), unknown keys kept. Liveness: the pid is alive, its start time
// matches `procStart`, and its socket answers a connect probe in 250 ms.
// EntryReader keeps each file's last reading by (device, inode, size, mtime,
// ctime), so a sweep opens and fstats an unchanged file but never reads or
// parses it again. Also the optional auth key file beside it. Never throws
// on bad files.

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { StockEntry } from '../protocol/cc-sessions.js';
import { readBoundedSync } from '../storage/bounded-read.js';
import { pidAlive, processStartTime, sameProcessStart } from '../registry/proc.js';
import { FileVersions, type Reading as FileVersionsReading } from './file-versions.js';

export const ENTRY_MAX_BYTES = 256 * 1024; // Claude Code ignores larger files too
export const PROBE_TIMEOUT_MS = 250;
const KEY_MAX_BYTES = 4096;

/** Our own entries (publishing) carry this entrypoint, so we never list or keep them as Claude Code's. */
export const SWITCHBOARD_ENTRYPOINT = 'switchboard';

export type ReadResult = { ok: true; entry: StockEntry; mtimeMs: number } | { ok: false; why: string };

export function isRegistryFileName(name: string): boolean {
  return /^[1-9]\d{0,9}\.json$/.test(name);
}

export function readEntry(file: string): ReadResult {
  return readVersion(file).result;
}

/** A file's result and the version it was read at (for a file that cannot be opened: why). */
type Reading = FileVersionsReading<ReadResult>;

const failed = (why: string, known?: Reading): Reading =>
  known?.version === why ? known : { version: why, result: { ok: false, why } };

/** Reads `file`, or returns `known` when the file is still the version `known` was read at. */
function readVersion(file: string, known?: Reading): Reading {
  const base = path.basename(file);
  if (!isRegistryFileName(base)) return failed('not a <pid>.json name', known);
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO planted as <pid>.json must never block the hub's loop.
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  } catch (err) {
    return failed(`unreadable (${(err as NodeJS.ErrnoException).code ?? 'error'})`, known);
  }
  try {
    const st = fs.fstatSync(fd);
    const version = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    if (known?.version === version) return known;
    return { version, result: parseOpen(fd, st, base) };
  } catch {
    return failed('unreadable (fstat)', known);
  } finally {
    fs.closeSync(fd);
  }
}

function parseOpen(fd: number, st: fs.Stats, base: string): ReadResult {
  try {
    if (!st.isFile()) return { ok: false, why: 'not a regular file' };
    if (st.size > ENTRY_MAX_BYTES) return { ok: false, why: `over ${ENTRY_MAX_BYTES} bytes` };
    const parsed = StockEntry.safeParse(JSON.parse(fs.readFileSync(fd, 'utf8')));
    if (!parsed.success)
      return {
        ok: false,
        why: `invalid: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`,
      };
    if (`${parsed.data.pid}.json` !== base) return { ok: false, why: 'the pid inside does not match the file name' };
    return { ok: true, entry: parsed.data, mtimeMs: st.mtimeMs };
  } catch {
    return { ok: false, why: 'not JSON' };
  }
}

/** Reads registry files, parsing each only when it changed since its last reading. */
export class EntryReader extends FileVersions<ReadResult> {
  constructor() {
    super(readVersion);
  }
}

/** The process is alive and is the same process that wrote the entry (pid reuse is detected). */
export function processMatches(
  entry: StockEntry,
  startTimeOf: (pid: number) => string | undefined = processStartTime,
): boolean {
  if (!pidAlive(entry.pid)) return false;
  if (entry.procStart === undefined) return true;
  const now = startTimeOf(entry.pid);
  return now === undefined || now === entry.procStart;
}

/**
 * Whether `socketPath` is the messaging socket of `agent`'s own process, by
 * its registry entry read now: right after Claude Code starts, discovery may
 * not have listed it yet, and a send to it must still be to_self, never a line
 * written into the sender's own session.
 */
export function isOwnMessagingSocket(
  claudeRoot: string,
  agent: { pid: number | null; procStart: string | null },
  socketPath: string,
): boolean {
  if (agent.pid === null) return false;
  const r = readEntry(path.join(claudeRoot, 'sessions', `${agent.pid}.json`));
  if (!r.ok || path.resolve(r.entry.messagingSocketPath) !== path.resolve(socketPath)) return false;
  return sameProcessStart(agent.procStart, r.entry.procStart) && processMatches(r.entry);
}

const KeyFile = z.looseObject({ peerToken: z.string().min(1).max(256), procStart: z.string().max(128).optional() });

/** The auth token from `<pid>.<sha256(resolved socket path)>.key`, when that file exists and belongs to this process. */
export function readPeerToken(sessionsDir: string, entry: StockEntry): string | undefined {
  const hash = createHash('sha256').update(path.resolve(entry.messagingSocketPath)).digest('hex');
  const file = path.join(sessionsDir, `${entry.pid}.${hash}.key`);
  const read = readBoundedSync(file, KEY_MAX_BYTES); // one open: no window to swap in a FIFO
  if (read.state !== 'text') return undefined;
  try {
    const parsed = KeyFile.safeParse(JSON.parse(read.text));
    if (!parsed.success) return undefined;
    if (
      parsed.data.procStart !== undefined &&
      entry.procStart !== undefined &&
      parsed.data.procStart !== entry.procStart
    )
      return undefined;
    return parsed.data.peerToken;
  } catch {
    return undefined;
  }
}
