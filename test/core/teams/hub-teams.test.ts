import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { RpcError } from '../../../core/client/client.js';
import { parseInbox } from '../../../core/teams/mailbox.js';
import { startHub, until, type TestHub } from '../../helpers/hub.js';
import { FIXTURES } from '../../helpers/peer.js';

let th: TestHub;
afterEach(async () => th?.close());
const reason = async (p: Promise<unknown>): Promise<string> => ((await p.catch((e: unknown) => e)) as RpcError).reason;

function seedClaudeHome(th: TestHub): string {
  const root = th.hub.teams.root;
  fs.mkdirSync(root, { recursive: true });
  for (const sub of ['teams', 'tasks']) fs.cpSync(path.join(FIXTURES, sub), path.join(root, sub), { recursive: true });
  for (const p of fs.readdirSync(root, { recursive: true, withFileTypes: true }))
    fs.chmodSync(path.join(p.parentPath, p.name), p.isDirectory() ? 0o700 : 0o600);
  return root;
}

describe('teams and tasks through the hub', () => {
  it("shows Claude Code's own team, with inbox depths read without consuming", async () => {
    th = await startHub();
    const root = seedClaudeHome(th);
    const c = await th.client();
    expect((await c.call('teams.list', {})).teams).toEqual([
      {
        name: 'session-3f9a1c2e',
        dir: 'session-3f9a1c2e',
        members: 2,
        createdAt: 1784000000000,
        leadSessionId: '3f9a1c2e-7b41-4c55-9d2a-0e6f1b2c3d4e',
      },
    ]);
    const inbox = path.join(root, 'teams/session-3f9a1c2e/inboxes/team-lead.json');
    const before = fs.readFileSync(inbox, 'utf8');
    const view = await c.call('teams.show', { team: 'session-3f9a1c2e' });
    expect(view.inboxes).toEqual([
      { member: 'team-lead', depth: 2, unread: 2 },
      { member: 'researcher', depth: 0, unread: 0 },
    ]);
    expect(fs.readFileSync(inbox, 'utf8')).toBe(before);
    expect(await reason(c.call('teams.show', { team: 'nope' }))).toBe('team_not_found');
  });

  describe('tasks', () => {
    const list = 'session-3f9a1c2e';

    /** The fixture's team, and task 4 created blocked by task 2. */
    async function withTask4() {
      th = await startHub();
      const root = seedClaudeHome(th);
      const c = await th.client();
      const created = await c.call('tasks.create', {
        list,
        subject: 'Write tests',
        description: 'for auth',
        blockedBy: ['2'],
      });
      return { root, c, created };
    }

    it("a new task takes the id above the high-water mark and is listed in its blocker's blocks", async () => {
      const { c, created } = await withTask4();
      // The fixture's high-water mark (3) is above the highest file (2): ids never reuse a deleted one.
      expect(created.task).toMatchObject({ id: '4', status: 'pending', blockedBy: ['2'] });
      expect((await c.call('tasks.get', { list, id: '2' })).task.blocks).toEqual(['4']);
    });

    it('a claim of a blocked, claimed or resolved task is refused with its reason', async () => {
      const { c } = await withTask4();
      expect(await reason(c.call('tasks.claim', { list, id: '4', owner: 'a' })), 'blocked by 2').toBe('blocked');
      expect(await reason(c.call('tasks.claim', { list, id: '1', owner: 'a' })), 'owned').toBe('already_claimed');
      await c.call('tasks.update', { list, id: '1', status: 'completed' });
      expect(await reason(c.call('tasks.claim', { list, id: '1', owner: 'researcher' })), 'completed').toBe(
        'already_resolved',
      );
    });

    it('a claim of an open task makes the claimer its owner', async () => {
      const { c } = await withTask4();
      await c.call('tasks.update', { list, id: '1', status: 'completed' }); // task 2's blocker
      expect((await c.call('tasks.claim', { list, id: '2', owner: 'researcher' })).task.owner).toBe('researcher');
    });

    it("an assignment sets the owner and writes a task_assignment frame to the owner's inbox", async () => {
      const { root, c } = await withTask4();
      const assigned = await c.call('tasks.assign', { team: 'session-3f9a1c2e', id: '4', owner: 'researcher' });
      expect(assigned.task.owner).toBe('researcher');
      const inbox = parseInbox(
        fs.readFileSync(path.join(root, 'teams/session-3f9a1c2e/inboxes/researcher.json'), 'utf8'),
      ).entries;
      expect(inbox).toHaveLength(1);
      expect(JSON.parse(inbox[0]!.text)).toMatchObject({
        type: 'task_assignment',
        taskId: '4',
        subject: 'Write tests',
        assignedBy: 'user',
      });
    });

    it('with busyCheck, a claim by an owner who already holds a task is refused as busy', async () => {
      const { c } = await withTask4();
      await c.call('tasks.update', { list, id: '1', status: 'completed' }); // task 2's blocker
      await c.call('tasks.assign', { team: 'session-3f9a1c2e', id: '4', owner: 'researcher' });
      expect(await reason(c.call('tasks.claim', { list, id: '2', owner: 'researcher', busyCheck: true }))).toBe(
        'agent_busy',
      );
    });

    it('a release frees every task of its owner', async () => {
      const { c } = await withTask4();
      await c.call('tasks.update', { list, id: '1', status: 'completed' }); // task 2's blocker
      await c.call('tasks.claim', { list, id: '2', owner: 'researcher' });
      await c.call('tasks.assign', { team: 'session-3f9a1c2e', id: '4', owner: 'researcher' });
      expect((await c.call('tasks.release', { list, owner: 'researcher' })).released).toEqual(['2', '4']);
    });

    it('deleting a blocker unblocks the tasks it blocked', async () => {
      const { c } = await withTask4();
      expect(await c.call('tasks.delete', { list, id: '2' })).toEqual({ deleted: true });
      expect((await c.call('tasks.get', { list, id: '4' })).task.blockedBy).toEqual([]);
    });

    it("a deleted task's id is never taken again", async () => {
      const { root, c } = await withTask4();
      await c.call('tasks.delete', { list, id: '2' });
      expect(fs.readFileSync(path.join(root, 'tasks', list, '.highwatermark'), 'utf8')).toBe(
        fs.readFileSync(path.join(FIXTURES, 'tasks', list, '.highwatermark'), 'utf8'),
      );
      expect((await c.call('tasks.create', { list, subject: 'next' })).task.id).toBe('5');
    });
  });

  it('sends to a teammate with role checks, as the session member', async () => {
    th = await startHub();
    const root = seedClaudeHome(th);
    const c = await th.client();
    const researcher = await th.register(c, { name: 'r', team: 'session-3f9a1c2e', member: 'researcher' });
    const auth = { sessionId: researcher.sessionId, token: researcher.token };
    await c.call('teams.send', {
      ...auth,
      team: 'session-3f9a1c2e',
      to: 'team-lead',
      text: 'done with the survey',
      summary: 'survey done',
    });
    const plan = JSON.stringify({
      type: 'plan_approval_response',
      requestId: 'r1',
      approved: true,
      timestamp: new Date().toISOString(),
    });
    expect(await reason(c.call('teams.send', { ...auth, team: 'session-3f9a1c2e', to: 'team-lead', text: plan }))).toBe(
      'frame_role',
    );
    const perm = JSON.stringify({ type: 'team_permission_update', rules: [] });
    expect(await reason(c.call('teams.send', { ...auth, team: 'session-3f9a1c2e', to: 'team-lead', text: perm }))).toBe(
      'frame_not_allowed',
    );
    const shutdown = JSON.stringify({
      type: 'shutdown_approved',
      requestId: 'q',
      from: 'researcher',
      timestamp: new Date().toISOString(),
    });
    await c.call('teams.send', { ...auth, team: 'session-3f9a1c2e', to: 'team-lead', text: shutdown });
    expect(await reason(c.call('teams.send', { ...auth, team: 'other', to: 'team-lead', text: 'x' }))).toBe(
      'not_a_member',
    );
    const entries = parseInbox(
      fs.readFileSync(path.join(root, 'teams/session-3f9a1c2e/inboxes/team-lead.json'), 'utf8'),
    ).entries;
    expect(entries.slice(2).map((e) => [e.from, e.summary ?? null])).toEqual([
      ['researcher', 'survey done'],
      ['researcher', null],
    ]);
  });

  it('reports changes on disk by anyone as teams.changed events', async () => {
    th = await startHub({ limits: { livenessSweepMs: 50 } });
    const ui = await th.client();
    const events: string[] = [];
    ui.on('ui.event', (e) => events.push(e.type));
    await ui.call('ui.attach', { uiToken: th.hub.uiToken });
    seedClaudeHome(th);
    await until(() => events.includes('teams.changed'));
    events.length = 0;
    fs.writeFileSync(
      path.join(th.hub.teams.root, 'tasks/session-3f9a1c2e/9.json'),
      JSON.stringify(
        { id: '9', subject: 's', description: 'd', status: 'pending', blocks: [], blockedBy: [] },
        null,
        2,
      ),
    );
    await until(() => events.includes('teams.changed'));
  });
});
