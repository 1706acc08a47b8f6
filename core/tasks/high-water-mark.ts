// A task list's `.highwatermark` (docs/claude-code-formats.md#3-shared-tasks): a bare decimal, the highest
// id ever used, so a deleted task's id is not handed out again. Read bounded
// and kept exact (a bigint); a mark we cannot read is never overwritten.
// Ids that are not safe integers are never counted from.

import path from 'node:path';
import { readBounded } from '../storage/bounded-read.js';
import { UnreadableFileError } from '../storage/unreadable.js';
import { writeAtomic } from '../teams/files.js';

const MAX_MARK_BYTES = 64; // a bare decimal

/** The mark file: missing (0), a bare decimal (kept exact as a bigint), or something else. */
type Mark = { state: 'missing' } | { state: 'decimal'; value: bigint } | { state: 'unreadable'; problem: string };

/** The highest id that is a safe integer (0 when none): other ids are never counted from. */
export function maxSafeId(ids: readonly string[]): number {
  let top = 0;
  for (const id of ids) top = Math.max(top, safeId(id) ?? 0);
  return top;
}

/** A safe-integer id from a file name or mark; anything else is not an id we can count from. */
export function safeId(digits: string): number | undefined {
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : undefined;
}

function markFile(listDir: string): string {
  return path.join(listDir, '.highwatermark');
}

async function readMark(listDir: string): Promise<Mark> {
  const r = await readBounded(markFile(listDir), MAX_MARK_BYTES);
  if (r.state !== 'text') return r;
  const t = r.text.trim();
  return /^\d+$/.test(t)
    ? { state: 'decimal', value: BigInt(t) }
    : { state: 'unreadable', problem: 'not a bare decimal' };
}

/** The mark as Claude Code reads it: missing or unparseable is 0; a value past 2^53 - 1 is ignored (0). */
export async function highWaterMark(listDir: string): Promise<number> {
  const m = await readMark(listDir);
  return m.state === 'decimal' ? (safeId(String(m.value)) ?? 0) : 0;
}

/** Raises the mark to `id` when it is lower; an unreadable mark is left alone and reported. */
export async function raiseHighWaterMark(listDir: string, id: number): Promise<void> {
  const m = await readMark(listDir);
  if (m.state === 'unreadable') throw new UnreadableFileError('task_unreadable', markFile(listDir), m.problem);
  if (m.state === 'decimal' && m.value >= BigInt(id)) return;
  await writeAtomic(markFile(listDir), String(id));
}
