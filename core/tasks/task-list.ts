// A shared task list (docs/claude-code-formats.md#3-shared-tasks): `tasks/<list>/` with `<id>.json`
// files, a bare-decimal `.highwatermark` and an empty `.lock`. List-wide
// operations (create, delete, reset, busy-checked claims, releases) hold the
// proper-lockfile lock on `.lock` (directory `.lock.lock/`); single-task
// operations hold `<id>.json`'s lock. Every write is atomic; a lock that
// cannot be had within the deadline is an error, never a silent drop. Ids
// that are not safe integers are ignored when allocating; create never
// replaces an existing file; a task or mark file we cannot read is never
// written (the mark: high-water-mark.ts).

import fs from 'node:fs';
import path from 'node:path';
import { readBounded } from '../storage/bounded-read.js';
import { UnreadableFileError } from '../storage/unreadable.js';
import { createExclusive, createAtomicExclusive, sanitizePart, writeAtomic } from '../teams/files.js';
import { withFileLock, type LockOptions } from '../teams/lock.js';
import {
  applyPatch,
  isInternal,
  MAX_TASK_BYTES,
  parseTask,
  TaskError,
  taskText,
  type Task,
  type TaskPatch,
} from './task-file.js';
import { highWaterMark, maxSafeId, raiseHighWaterMark, safeId } from './high-water-mark.js';
import { checkEdges } from './task-edges.js';

export { MAX_TASK_BYTES, TaskError, type ClaimFailure, type LinkFailure } from './task-file.js';

export interface NewTask {
  subject: string;
  description: string;
  activeForm?: string;
  blockedBy?: string[];
  metadata?: Record<string, unknown>;
}

/** Task files a list reads at once. */
const LIST_READS_AT_ONCE = 32;

export class TaskList {
  readonly dir: string;
  readonly #lock: Omit<LockOptions, 'lockfilePath' | 'realpath'>;

  constructor(tasksRoot: string, listId: string, lock: Omit<LockOptions, 'lockfilePath' | 'realpath'>) {
    this.dir = path.join(tasksRoot, sanitizePart(listId));
    this.#lock = lock;
  }

  #file(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }

  async #ensure(): Promise<void> {
    await fs.promises.mkdir(this.dir, { recursive: true });
    await createExclusive(path.join(this.dir, '.lock'), '');
  }

  #withList<T>(fn: () => Promise<T>): Promise<T> {
    const lockFile = path.join(this.dir, '.lock');
    return this.#ensure().then(() => withFileLock(lockFile, { ...this.#lock, lockfilePath: `${lockFile}.lock` }, fn));
  }

  #withTask<T>(id: string, fn: () => Promise<T>): Promise<T> {
    return withFileLock(this.#file(id), { ...this.#lock, lockfilePath: `${this.#file(id)}.lock` }, fn);
  }

  async #ids(): Promise<string[]> {
    let names: string[];
    try {
      names = await fs.promises.readdir(this.dir);
    } catch {
      return [];
    }
    return names
      .filter((n) => /^\d+\.json$/.test(n))
      .map((n) => n.slice(0, -5))
      .sort((a, b) => Number(a) - Number(b));
  }

  /** The list's high-water mark as Claude Code reads it (high-water-mark.ts). */
  highWaterMark(): Promise<number> {
    return highWaterMark(this.dir);
  }

  async get(id: string): Promise<Task | undefined> {
    const r = await this.#load(id);
    return r.state === 'ok' ? r.task : undefined;
  }

  /** A task file: missing, a valid task, or unreadable (counts as missing for readers: docs/claude-code-formats.md#3-shared-tasks). */
  async #load(
    id: string,
  ): Promise<{ state: 'missing' } | { state: 'ok'; task: Task } | { state: 'unreadable'; problem: string }> {
    if (!/^\d+$/.test(id)) return { state: 'missing' };
    const r = await readBounded(this.#file(id), MAX_TASK_BYTES);
    if (r.state !== 'text') return r;
    const task = parseTask(r.text);
    return task !== undefined ? { state: 'ok', task } : { state: 'unreadable', problem: 'not a valid task' };
  }

  /** The task for a write: not_found when missing, task_unreadable (nothing written) when it cannot be read. */
  async #forWrite(id: string): Promise<Task> {
    const r = await this.#load(id);
    if (r.state === 'unreadable') throw new UnreadableFileError('task_unreadable', this.#file(id), r.problem);
    if (r.state === 'missing') throw new TaskError('not_found', `no task ${id}`);
    return r.task;
  }

  /** Every valid task in id order; `_internal` ones hidden unless asked for. */
  async list(opts: { includeInternal?: boolean } = {}): Promise<Task[]> {
    // A few files at a time: 25 000 at once ran out of descriptors, and those tasks went missing from the list.
    const ids = await this.#ids();
    const tasks: Array<Task | undefined> = [];
    for (let i = 0; i < ids.length; i += LIST_READS_AT_ONCE)
      tasks.push(...(await Promise.all(ids.slice(i, i + LIST_READS_AT_ONCE).map((id) => this.get(id)))));
    return tasks.filter((t): t is Task => t !== undefined && (opts.includeInternal === true || !isInternal(t)));
  }

  async create(t: NewTask): Promise<Task> {
    return this.#withList(async () => {
      const ids = await this.#ids();
      const known = new Set(ids);
      const missing = (t.blockedBy ?? []).find((b) => !known.has(b));
      if (missing !== undefined) throw new TaskError('blocker_not_found', `no task ${missing} to be blocked by`);
      const next = Math.max(maxSafeId(ids), await this.highWaterMark()) + 1;
      if (!Number.isSafeInteger(next))
        throw new TaskError('task_id_unavailable', `no safe task id is left in ${this.dir}`);
      const id = String(next);
      const task: Task = {
        id,
        subject: t.subject,
        description: t.description,
        ...(t.activeForm !== undefined ? { activeForm: t.activeForm } : {}),
        status: 'pending',
        blocks: [],
        blockedBy: [...new Set(t.blockedBy ?? [])],
        ...(t.metadata !== undefined ? { metadata: t.metadata } : {}),
      };
      if (!(await createAtomicExclusive(this.#file(id), taskText(task))))
        throw new TaskError('task_id_unavailable', `${this.#file(id)} exists`);
      for (const blocker of task.blockedBy) {
        await this.#withTask(blocker, async () => {
          const b = await this.get(blocker);
          if (b !== undefined && !b.blocks.includes(id))
            await writeAtomic(this.#file(blocker), taskText(applyPatch(b, { blocks: [...b.blocks, id] })));
        });
      }
      return task;
    });
  }

  async update(id: string, patch: TaskPatch): Promise<Task> {
    return this.#withTask(id, async () => {
      const old = await this.#forWrite(id);
      const next = applyPatch(old, patch);
      await writeAtomic(this.#file(id), taskText(next));
      return next;
    });
  }

  /**
   * Adds dependency edges to task `id` under the list lock: `blocks` (id
   * blocks each) and `blockedBy` (each blocks id). Both sides of every edge
   * are written, as create does. Refused, with nothing written, when a task
   * is missing, an edge is a self-block, or an edge would close a cycle.
   */
  async link(id: string, edges: { blocks?: string[]; blockedBy?: string[] }): Promise<Task> {
    return this.#withList(async () => {
      const all = new Map((await this.list({ includeInternal: true })).map((t) => [t.id, t]));
      if (!all.has(id)) throw new TaskError('not_found', `no task ${id}`);
      const pairs: Array<[string, string]> = [
        ...(edges.blocks ?? []).map((b): [string, string] => [id, b]),
        ...(edges.blockedBy ?? []).map((b): [string, string] => [b, id]),
      ];
      checkEdges(all, pairs);
      const add = new Map<string, { blocks: string[]; blockedBy: string[] }>();
      const entry = (k: string) => add.get(k) ?? add.set(k, { blocks: [], blockedBy: [] }).get(k)!;
      for (const [from, to] of pairs) {
        entry(from).blocks.push(to);
        entry(to).blockedBy.push(from);
      }
      for (const [tid, more] of add) {
        await this.#withTask(tid, async () => {
          const t = await this.get(tid);
          if (t === undefined) throw new TaskError('blocker_not_found', `task ${tid} vanished`);
          const blocks = [...new Set([...t.blocks, ...more.blocks])];
          const blockedBy = [...new Set([...t.blockedBy, ...more.blockedBy])];
          if (blocks.length !== t.blocks.length || blockedBy.length !== t.blockedBy.length)
            await writeAtomic(this.#file(tid), taskText(applyPatch(t, { blocks, blockedBy })));
        });
      }
      return (await this.get(id)) ?? all.get(id)!;
    });
  }

  /**
   * Claims a task for `owner`: fails as already_claimed, already_resolved,
   * blocked, or (with busyCheck, under the list lock) agent_busy.
   */
  async claim(id: string, owner: string, opts: { busyCheck?: boolean } = {}): Promise<Task> {
    // A look without the lock settles most losing races cheaply; the locked re-read below decides.
    const seen = await this.get(id);
    if (seen?.owner !== undefined && seen.owner !== owner)
      throw new TaskError('already_claimed', `task ${id} is owned by ${seen.owner}`);
    if (seen?.status === 'completed') throw new TaskError('already_resolved', `task ${id} is completed`);
    const attempt = (): Promise<Task> =>
      this.#withTask(id, async () => {
        const t = await this.#forWrite(id);
        if (t.owner !== undefined && t.owner !== owner)
          throw new TaskError('already_claimed', `task ${id} is owned by ${t.owner}`);
        if (t.status === 'completed') throw new TaskError('already_resolved', `task ${id} is completed`);
        for (const b of t.blockedBy) {
          const blocker = await this.get(b);
          if (blocker !== undefined && blocker.status !== 'completed')
            throw new TaskError('blocked', `task ${id} is blocked by ${b}`);
        }
        if (opts.busyCheck) {
          const busy = (await this.list({ includeInternal: true })).find(
            (o) => o.id !== id && o.owner === owner && o.status !== 'completed',
          );
          if (busy !== undefined) throw new TaskError('agent_busy', `${owner} already owns unfinished task ${busy.id}`);
        }
        if (t.owner === owner) return t;
        const next = applyPatch(t, { owner });
        await writeAtomic(this.#file(id), taskText(next));
        return next;
      });
    return opts.busyCheck ? this.#withList(attempt) : attempt();
  }

  /** Deletes a task, raises the high-water mark to its id, prunes it from every blocks/blockedBy. */
  async delete(id: string): Promise<boolean> {
    return this.#withList(async () => {
      if ((await this.get(id)) === undefined) return false;
      const safe = safeId(id);
      if (safe !== undefined) await raiseHighWaterMark(this.dir, safe);
      await fs.promises.rm(this.#file(id), { force: true });
      for (const other of await this.list({ includeInternal: true })) {
        if (!other.blocks.includes(id) && !other.blockedBy.includes(id)) continue;
        await this.#withTask(other.id, async () => {
          const o = await this.get(other.id);
          if (o === undefined) return;
          await writeAtomic(
            this.#file(o.id),
            taskText(
              applyPatch(o, {
                blocks: o.blocks.filter((x) => x !== id),
                blockedBy: o.blockedBy.filter((x) => x !== id),
              }),
            ),
          );
        });
      }
      return true;
    });
  }

  /** A departed member's unfinished tasks go back to pending with no owner. */
  async release(owner: string): Promise<string[]> {
    return this.#withList(async () => {
      const released: string[] = [];
      for (const t of await this.list({ includeInternal: true })) {
        if (t.owner !== owner || t.status === 'completed') continue;
        await this.update(t.id, { owner: null, status: 'pending' });
        released.push(t.id);
      }
      return released;
    });
  }

  /** Removes every task; the high-water mark keeps ids from being reused. */
  async reset(): Promise<void> {
    await this.#withList(async () => {
      const ids = await this.#ids();
      await raiseHighWaterMark(this.dir, maxSafeId(ids));
      for (const id of ids) await fs.promises.rm(this.#file(id), { force: true });
    });
  }
}
