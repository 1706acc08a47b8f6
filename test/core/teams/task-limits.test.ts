// What a request may carry and what the task reader takes agree: a task
// that would be written but not read back (metadata at the request's depth
// limit sits one level deeper in the file; pretty-printing can make 64 KiB
// of metadata larger than the 2 MiB a task file may be) is refused with
// task_too_large before anything is written, for create and for update.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RpcError } from '../../../core/client/client.js';
import { LIMITS } from '../../../core/protocol/limits.js';
import { startHub, type TestHub } from '../../helpers/hub.js';

let th: TestHub | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});
const reason = async (p: Promise<unknown>): Promise<string> => ((await p.catch((e: unknown) => e)) as RpcError).reason;

/** An object nested `levels` deep: the deepest the request schema takes when levels = jsonDepth - 1. */
function nested(levels: number): Record<string, unknown> {
  let v: Record<string, unknown> = { leaf: 1 };
  for (let i = 0; i < levels; i++) v = { k: v };
  return v;
}

/** Under 64 KiB as compact JSON, past 2 MiB pretty-printed: many small values deep in arrays. */
function wideAndDeep(): Record<string, unknown> {
  let v: unknown = Array.from({ length: 12_000 }, () => 0);
  for (let i = 0; i < 30; i++) v = [v];
  return { v };
}

describe('task metadata the reader could not read back', () => {
  it('create at the depth limit or past 2 MiB pretty-printed: task_too_large, no file', async () => {
    th = await startHub();
    const c = await th.client();
    const list = 'limits';
    const dir = path.join(th.hub.teams.root, 'tasks', list);
    const deep = { m: nested(LIMITS.jsonDepth - 2) }; // metadata itself adds one level: at the request's limit
    expect(await reason(c.call('tasks.create', { list, subject: 'deep', metadata: deep }))).toBe('task_too_large');
    expect(JSON.stringify(wideAndDeep()).length).toBeLessThan(64 * 1024);
    expect(await reason(c.call('tasks.create', { list, subject: 'wide', metadata: wideAndDeep() }))).toBe(
      'task_too_large',
    );
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
    expect(files).toEqual([]);
    // What is accepted is read back.
    const ok = await c.call('tasks.create', { list, subject: 'fine', metadata: { m: nested(LIMITS.jsonDepth - 4) } });
    expect((await c.call('tasks.get', { list, id: ok.task.id })).task?.subject).toBe('fine');
  });

  it('an update that would push a task past what the reader takes is refused; the file stays as it was', async () => {
    th = await startHub();
    const c = await th.client();
    const list = 'limits';
    const t = await c.call('tasks.create', { list, subject: 'grows' });
    const file = path.join(th.hub.teams.root, 'tasks', list, `${t.task.id}.json`);
    const before = fs.readFileSync(file, 'utf8');
    expect(
      await reason(c.call('tasks.update', { list, id: t.task.id, metadata: { m: nested(LIMITS.jsonDepth - 2) } })),
    ).toBe('task_too_large');
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    expect((await c.call('tasks.list', { list })).tasks.map((x) => x.subject)).toEqual(['grows']);
  });
});
