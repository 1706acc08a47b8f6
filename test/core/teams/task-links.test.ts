// `tasks.update` adds dependency edges like Claude Code's
// TaskUpdate (addBlocks/addBlockedBy): both task files get their side of
// each edge; a missing task, a self-block or a cycle is refused with a fixed
// reason and nothing written; create refuses a missing blocker the same way.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { RpcError } from '../../../core/client/client.js';
import { startHub, type TestHub } from '../../helpers/hub.js';

let th: TestHub | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});
const reason = async (p: Promise<unknown>): Promise<string> => ((await p.catch((e: unknown) => e)) as RpcError).reason;

describe('task dependencies through tasks.update', () => {
  it('an edge is written into both of its tasks, and a claim honours it', async () => {
    th = await startHub();
    const c = await th.client();
    const list = 'links';
    for (const subject of ['schema', 'api', 'ui', 'docs']) await c.call('tasks.create', { list, subject });
    const r = await c.call('tasks.update', {
      list,
      id: '3',
      addBlockedBy: ['1', '2'],
      addBlocks: ['4'],
      status: 'in_progress',
    });
    expect(r.task, 'the updated task').toMatchObject({
      id: '3',
      status: 'in_progress',
      blockedBy: ['1', '2'],
      blocks: ['4'],
    });
    const file = (id: string) =>
      JSON.parse(fs.readFileSync(path.join(th!.hub.teams.root, 'tasks', list, `${id}.json`), 'utf8')) as {
        blocks: string[];
        blockedBy: string[];
      };
    expect([file('1').blocks, file('2').blocks, file('4').blockedBy], 'the other side of each edge').toEqual([
      ['3'],
      ['3'],
      ['3'],
    ]);
    // Adding an edge again changes nothing; edges alone (no other field) are a valid update.
    expect((await c.call('tasks.update', { list, id: '1', addBlocks: ['3'] })).task).toMatchObject({
      blocks: ['3'],
      blockedBy: [],
    });
    expect(file('3').blockedBy, 'an edge added again changes nothing').toEqual(['1', '2']);
    expect(await reason(c.call('tasks.claim', { list, id: '4', owner: 'w1' })), 'the claim honours it').toBe('blocked');
  });

  /** Tasks 1 -> 2 -> 3 (2 is blocked by 1 and blocks 3), and a way to read their files. */
  async function chain() {
    th = await startHub();
    const c = await th.client();
    const list = 'links';
    for (const subject of ['a', 'b', 'c']) await c.call('tasks.create', { list, subject });
    await c.call('tasks.update', { list, id: '2', addBlockedBy: ['1'], addBlocks: ['3'] });
    const dir = path.join(th.hub.teams.root, 'tasks', list);
    const snapshot = () => ['1', '2', '3'].map((id) => fs.readFileSync(path.join(dir, `${id}.json`), 'utf8'));
    return { c, list, dir, snapshot };
  }

  it('refuses an edge to a missing task, to itself or that closes a cycle, and writes nothing', async () => {
    const { c, list, snapshot } = await chain();
    const before = snapshot();
    expect(await reason(c.call('tasks.update', { list, id: '2', addBlocks: ['9'] })), 'blocks 9').toBe(
      'blocker_not_found',
    );
    expect(await reason(c.call('tasks.update', { list, id: '2', addBlockedBy: ['3', '9'] })), 'blocked by 9').toBe(
      'blocker_not_found',
    );
    expect(await reason(c.call('tasks.update', { list, id: '2', addBlockedBy: ['2'] })), 'itself').toBe('blocker_self');
    expect(await reason(c.call('tasks.update', { list, id: '3', addBlocks: ['1'], subject: 'renamed' })), 'cycle').toBe(
      'blocker_cycle',
    );
    expect(await reason(c.call('tasks.update', { list, id: '9', addBlocks: ['1'] })), 'no task 9').toBe(
      'task_not_found',
    );
    expect(snapshot(), 'no task file changed').toEqual(before);
  });

  it('create refuses a missing blocker and writes no task', async () => {
    const { c, list, dir } = await chain();
    expect(await reason(c.call('tasks.create', { list, subject: 'd', blockedBy: ['1', '9'] }))).toBe(
      'blocker_not_found',
    );
    expect(fs.existsSync(path.join(dir, '4.json'))).toBe(false);
  });

  it('refuses a task id that is not a number', async () => {
    const { c, list } = await chain();
    expect(await reason(c.call('tasks.update', { list, id: '1', addBlocks: ['x'] }))).toBe('invalid_params');
  });
});
