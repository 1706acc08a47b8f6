// Team inboxes (docs/claude-code-formats.md#1-team-inboxes): `teams/<team>/inboxes/<member>.json`, one
// JSON array. Writers create it as `[]` exclusively (we link a complete temp
// file into place), lock it with proper-lockfile at `<inbox>.lock`, re-read,
// change, and replace it atomically. Only a missing or zero-byte file (a
// `wx` create whose `[]` is not written yet) is empty. Invalid entries inside a valid
// array are skipped and pruned by writers; a file that is not a regular file,
// over the read limit, not JSON, not an array or nested deeper than
// LIMITS.jsonDepth is unreadable: peek() reports it, every writer fails with
// `inbox_unreadable` and leaves it byte-identical.

import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { FILE_JSON_BOUNDS, jsonBoundsProblem } from '../protocol/bounded-json.js';
import { readBounded, type FileRead } from '../storage/bounded-read.js';
import { UnreadableFileError } from '../storage/unreadable.js';
import { createAtomicExclusive, serialize, writeAtomic } from './files.js';
import { withFileLock, type LockOptions } from './lock.js';

export const MAX_INBOX_BYTES = 64 * 1024 * 1024; // a bigger "inbox" is not one

/** An entry as Claude Code writes it; extra keys (from_plugin, lead_sig …) are kept. */
export const InboxEntry = z.looseObject({
  from: z.string(),
  text: z.string(),
  summary: z.string().optional(),
  timestamp: z.string(),
  color: z.string().optional(),
  msgV: z.number().optional(),
  msg_id: z.string().optional(),
  type: z.string().optional(),
  read: z.boolean().optional(),
});
export type InboxEntry = z.infer<typeof InboxEntry>;

export interface ReadResult {
  entries: InboxEntry[];
  /** How many array elements failed validation. */
  invalid: number;
  /** Set when the file exists but is not an inbox we can read: no one may write it. */
  problem?: string;
}

/**
 * An inbox's text (undefined: missing). Not JSON or not an array is a problem,
 * not an empty inbox. Zero bytes is empty: it is how a `wx` create (Claude
 * Code's) looks before its `[]` is written, and it holds nothing to lose.
 */
export function parseInbox(text: string | undefined): ReadResult {
  if (text === undefined || text === '') return { entries: [], invalid: 0 };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { entries: [], invalid: 0, problem: 'not valid JSON' };
  }
  if (!Array.isArray(value)) return { entries: [], invalid: 0, problem: 'not a JSON array' };
  // An entry (or an unknown key of one) nested that deep could be neither answered nor written back.
  const deep = jsonBoundsProblem(value, FILE_JSON_BOUNDS);
  if (deep !== undefined) return { entries: [], invalid: 0, problem: deep };
  const entries: InboxEntry[] = [];
  let invalid = 0;
  for (const raw of value) {
    // Keep the object itself (key order and unknown keys) when it is valid.
    if (InboxEntry.safeParse(raw).success) entries.push(raw as InboxEntry);
    else invalid++;
  }
  return { entries, invalid };
}

/** The identity Claude Code matches delivered entries on. */
export function entryKey(e: Pick<InboxEntry, 'from' | 'timestamp' | 'text'>): string {
  return `${e.from}|${e.timestamp}|${e.text}`;
}

/** A new entry in Claude Code's key order. */
export function newEntry(args: {
  from: string;
  text: string;
  summary?: string;
  color?: string;
  timestamp?: string;
}): InboxEntry {
  return {
    from: args.from,
    text: args.text,
    ...(args.summary !== undefined ? { summary: args.summary } : {}),
    timestamp: args.timestamp ?? new Date().toISOString(),
    ...(args.color !== undefined ? { color: args.color } : {}),
    msgV: 1,
    msg_id: randomUUID(),
    type: 'message',
    read: false,
  };
}

export class Mailbox {
  readonly file: string;
  readonly #lock: LockOptions;

  constructor(file: string, lock: Omit<LockOptions, 'lockfilePath' | 'realpath'>) {
    this.file = file;
    this.#lock = { ...lock, lockfilePath: `${file}.lock`, realpath: false };
  }

  /** Reads without writing anything, ever; an unreadable file comes back empty with its problem. */
  async peek(): Promise<ReadResult> {
    return fromRead(await readBounded(this.file, MAX_INBOX_BYTES));
  }

  async append(entry: InboxEntry): Promise<void> {
    await this.#change((entries) => [...entries, entry]);
  }

  /** Reads for consumption: invalid entries are pruned under the lock; an unreadable file throws. */
  async read(): Promise<InboxEntry[]> {
    const first = await this.peek();
    if (first.problem !== undefined) throw new UnreadableFileError('inbox_unreadable', this.file, first.problem);
    if (first.invalid === 0) return first.entries;
    return this.#change((entries) => entries).then(async () => (await this.peek()).entries);
  }

  /** Removes delivered entries (by from|timestamp|text) and any leftover `read: true` ones. */
  async removeDelivered(delivered: readonly Pick<InboxEntry, 'from' | 'timestamp' | 'text'>[]): Promise<number> {
    const keys = new Set(delivered.map(entryKey));
    let removed = 0;
    await this.#change((entries) => {
      const kept = entries.filter((e) => !keys.has(entryKey(e)) && e.read !== true);
      removed = entries.length - kept.length;
      return kept;
    });
    return removed;
  }

  async clear(): Promise<void> {
    await this.#change(() => []);
  }

  /** The locked read-modify-write every writer goes through; creates the inbox when it is missing. */
  async #change(fn: (entries: InboxEntry[]) => InboxEntry[]): Promise<InboxEntry[]> {
    try {
      return await this.#locked(fn);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await fs.promises.mkdir(path.dirname(this.file), { recursive: true });
      await createAtomicExclusive(this.file, '[]'); // never a moment of zero bytes
      return this.#locked(fn);
    }
  }

  #locked(fn: (entries: InboxEntry[]) => InboxEntry[]): Promise<InboxEntry[]> {
    return withFileLock(this.file, this.#lock, async () => {
      const { entries, invalid, problem } = fromRead(await readBounded(this.file, MAX_INBOX_BYTES));
      if (problem !== undefined) throw new UnreadableFileError('inbox_unreadable', this.file, problem);
      const next = fn(entries);
      if (next !== entries || invalid > 0) await writeAtomic(this.file, serialize(next));
      return next;
    });
  }
}

function fromRead(r: FileRead): ReadResult {
  if (r.state === 'unreadable') return { entries: [], invalid: 0, problem: r.problem };
  return parseInbox(r.state === 'text' ? r.text : undefined);
}
