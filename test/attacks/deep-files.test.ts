// Other programs' files nested past LIMITS.jsonDepth (found by a red-team
// pass): a task whose metadata is 200 000 levels deep made tasks.list and
// tasks.get never answer (the answer's JSON.stringify overflowed the stack
// inside a promise), and an inbox entry with such an unknown key made every
// write to that inbox `internal`. Now such a task counts as unreadable
// (listed without it, task_unreadable on a write) and such an inbox is
// inbox_unreadable; both stay byte-identical, and every request is answered.

import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { LIMITS } from '../../core/protocol/limits.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { rpcReason, TEAM, withFixtureTeam } from '../helpers/team-files.js';

let th: TestHub | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});

const DEEP = 200_000;
const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

async function hubWithTeam(): Promise<{ t: TestHub; root: string }> {
  const t = (th = await startHub());
  return { t, root: withFixtureTeam(t) };
}

describe('files nested past the depth limit', () => {
  it('a task with metadata 200 000 deep is read as absent and never written', async () => {
    const { t, root } = await hubWithTeam();
    const file = path.join(root, 'tasks', TEAM, '1.json');
    const text = `{"id":"1","subject":"s","description":"d","status":"pending","blocks":[],"blockedBy":[],"metadata":{"x":${nested(DEEP)}}}`;
    fs.writeFileSync(file, text);
    const c = await t.client();
    const list = await c.call('tasks.list', { list: TEAM });
    expect(
      list.tasks.map((x) => x.id),
      'tasks.list leaves it out',
    ).not.toContain('1');
    expect(list.tasks.length).toBeGreaterThan(0); // the fixture's other tasks
    expect(await rpcReason(c.call('tasks.get', { list: TEAM, id: '1' })), 'tasks.get does not find it').toBe(
      'task_not_found',
    );
    expect(
      await rpcReason(c.call('tasks.update', { list: TEAM, id: '1', status: 'completed' })),
      'an update is refused',
    ).toBe('task_unreadable');
    expect(fs.readFileSync(file, 'utf8'), 'the file stays').toBe(text);
  });

  it('metadata just inside the limit is still a task', async () => {
    const { t, root } = await hubWithTeam();
    const file = path.join(root, 'tasks', TEAM, '1.json');
    const inside = nested(LIMITS.jsonDepth - 2); // the task object and metadata are two levels
    fs.writeFileSync(
      file,
      `{"id":"1","subject":"s","description":"d","status":"pending","blocks":[],"blockedBy":[],"metadata":{"x":${inside}}}`,
    );
    const c = await t.client();
    expect((await c.call('tasks.get', { list: TEAM, id: '1' })).task.id).toBe('1');
  });

  it('an inbox entry with an unknown key 200 000 deep makes the inbox unreadable, never written', async () => {
    const { t, root } = await hubWithTeam();
    const inbox = path.join(root, 'teams', TEAM, 'inboxes', 'team-lead.json');
    const text = `[{"from":"researcher","text":"keep me","timestamp":"2026-07-14T10:00:00.000Z","read":false,"future":${nested(DEEP)}}]`;
    fs.writeFileSync(inbox, text);
    const c = await t.client();
    const reg = await t.register(c, { name: 'r', team: TEAM, member: 'researcher' });
    const auth = { sessionId: reg.sessionId, token: reg.token };
    expect(
      await rpcReason(c.call('teams.send', { ...auth, team: TEAM, to: 'team-lead', text: 'hello' })),
      'a send is refused',
    ).toBe('inbox_unreadable');
    const view = await c.call('teams.show', { team: TEAM });
    expect(view.inboxes.find((i) => i.member === 'team-lead')?.problem, 'teams.show says why').toMatch(
      /nested deeper than/,
    );
    expect(fs.readFileSync(inbox, 'utf8'), 'the file stays').toBe(text);
    expect((await c.call('hub.info', {})).pid).toBe(process.pid);
  });
});
