// Attacks through other programs' files, against a real hub on
// real sockets and real files: inboxes and rosters that cannot be read are
// errors naming the file and stay byte-identical; task ids past 2^53 never
// make two creates share a file; a member claim is checked against the roster.

import { afterEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { RpcError } from '../../core/client/client.js';
import { MAX_INBOX_BYTES, parseInbox } from '../../core/teams/mailbox.js';
import { MAX_CONFIG_BYTES } from '../../core/teams/roster.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { FIXTURES } from '../helpers/peer.js';

let th: TestHub | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});

const TEAM = 'session-3f9a1c2e';
const failure = async (p: Promise<unknown>): Promise<RpcError> => {
  const err = await p.then(
    () => new Error('the call succeeded'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RpcError);
  return err as RpcError;
};
const digest = (file: string): string => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** A hub whose Claude Code home holds the fixture team and task list. */
async function hubWithTeam(): Promise<{ th: TestHub; root: string; teamDir: string }> {
  th = await startHub();
  const root = th.hub.teams.root;
  fs.mkdirSync(root, { recursive: true });
  for (const sub of ['teams', 'tasks']) fs.cpSync(path.join(FIXTURES, sub), path.join(root, sub), { recursive: true });
  return { th, root, teamDir: path.join(root, 'teams', TEAM) };
}

/** A session registered as the fixture team's `researcher` (a member in its roster). */
async function researcher(t: TestHub) {
  const c = await t.client();
  const reg = await t.register(c, { name: 'r', team: TEAM, member: 'researcher' });
  return { c, auth: { sessionId: reg.sessionId, token: reg.token } };
}

describe('inboxes that cannot be read are never written', () => {
  it('a send into an inbox over the read limit (130 000 entries) fails as inbox_unreadable and leaves it byte-identical', async () => {
    const { th, teamDir } = await hubWithTeam();
    const inbox = path.join(teamDir, 'inboxes', 'team-lead.json');
    const entry = (i: number) =>
      JSON.stringify(
        {
          from: 'researcher',
          text: `note ${i} ${'x'.repeat(500)}`,
          timestamp: '2026-07-14T10:00:00.000Z',
          msgV: 1,
          type: 'message',
          read: false,
        },
        null,
        2,
      );
    const parts: string[] = [];
    for (let i = 0; i < 130_000; i++) parts.push(entry(i));
    fs.writeFileSync(inbox, `[\n${parts.join(',\n')}\n]`);
    expect(fs.statSync(inbox).size).toBeGreaterThan(MAX_INBOX_BYTES);
    const before = digest(inbox);
    const { c, auth } = await researcher(th);
    const err = await failure(c.call('teams.send', { ...auth, team: TEAM, to: 'team-lead', text: 'one more' }));
    expect(err.reason).toBe('inbox_unreadable');
    expect(err.data).toMatchObject({ file: inbox, problem: `larger than ${MAX_INBOX_BYTES} bytes` });
    expect(digest(inbox)).toBe(before);
  }, 60_000);

  it('a send into an inbox holding truncated JSON is refused as inbox_unreadable, writing nothing', async () => {
    const { th, teamDir } = await hubWithTeam();
    const inbox = path.join(teamDir, 'inboxes', 'team-lead.json');
    const full = fs.readFileSync(inbox, 'utf8');
    fs.writeFileSync(inbox, full.slice(0, Math.floor(full.length / 2)));
    const before = fs.readFileSync(inbox);
    const { c, auth } = await researcher(th);
    const err = await failure(c.call('teams.send', { ...auth, team: TEAM, to: 'team-lead', text: 'hello' }));
    expect(err.reason).toBe('inbox_unreadable');
    expect(err.data).toMatchObject({ file: inbox, problem: 'not valid JSON' });
    expect(fs.readFileSync(inbox)).toEqual(before);
    const view = await c.call('teams.show', { team: TEAM });
    expect(view.inboxes[0], 'teams.show reports the problem').toEqual({
      member: 'team-lead',
      depth: 0,
      unread: 0,
      problem: 'not valid JSON',
    });
    // A valid array that is not an inbox (an object) is just as unreadable.
    fs.writeFileSync(inbox, '{"not": "an array"}');
    expect(
      (await failure(c.call('teams.send', { ...auth, team: TEAM, to: 'team-lead', text: 'hello' }))).data,
    ).toMatchObject({ problem: 'not a JSON array' });
    expect(fs.readFileSync(inbox, 'utf8')).toBe('{"not": "an array"}');
  });

  it('an inbox that is a directory is inbox_unreadable (not internal), and the hub keeps answering', async () => {
    const { th, teamDir } = await hubWithTeam();
    const inbox = path.join(teamDir, 'inboxes', 'researcher.json');
    fs.mkdirSync(inbox);
    fs.writeFileSync(path.join(inbox, 'keep'), 'x');
    const c = await th.client();
    const lead = await c.call('session.register', {
      cwd: th.dirs.root,
      name: 'other',
      team: TEAM,
      member: 'researcher',
    });
    const err = await failure(
      c.call('teams.send', { sessionId: lead.sessionId, token: lead.token, team: TEAM, to: 'researcher', text: 'hi' }),
    );
    expect(err.reason).toBe('inbox_unreadable');
    expect(err.data).toMatchObject({ file: inbox, problem: 'not a regular file (a directory)' });
    expect(fs.readFileSync(path.join(inbox, 'keep'), 'utf8')).toBe('x');
    expect((await c.call('teams.show', { team: TEAM })).inboxes[1]).toMatchObject({
      member: 'researcher',
      problem: 'not a regular file (a directory)',
    });
    expect((await c.call('hub.info', {})).pid).toBe(process.pid);
  });

  it('malformed entries inside a valid array are still pruned on write (docs/claude-code-formats.md#1-team-inboxes)', async () => {
    const { th, teamDir } = await hubWithTeam();
    const inbox = path.join(teamDir, 'inboxes', 'team-lead.json');
    const entries = JSON.parse(fs.readFileSync(inbox, 'utf8')) as unknown[];
    fs.writeFileSync(inbox, JSON.stringify([...entries, { from: 7 }, 'junk'], null, 2));
    const { c, auth } = await researcher(th);
    await c.call('teams.send', { ...auth, team: TEAM, to: 'team-lead', text: 'kept' });
    const after = parseInbox(fs.readFileSync(inbox, 'utf8'));
    expect(after.invalid).toBe(0);
    expect(after.entries.map((e) => e.text).slice(entries.length)).toEqual(['kept']);
    expect(after.entries).toHaveLength(entries.length + 1);
  });
});

describe('rosters that cannot be read', () => {
  it('a roster over 4 MiB is listed with its problem, answers team_unreadable, and is never written', async () => {
    const { th, teamDir } = await hubWithTeam();
    const config = path.join(teamDir, 'config.json');
    const cfg = JSON.parse(fs.readFileSync(config, 'utf8')) as { members: Array<Record<string, unknown>> };
    cfg.members[1]!.prompt = 'p'.repeat(MAX_CONFIG_BYTES);
    fs.writeFileSync(config, JSON.stringify(cfg, null, 2));
    const before = digest(config);
    const { c, auth } = await researcher(th);
    const { teams } = await c.call('teams.list', {});
    expect(teams).toEqual([
      {
        name: TEAM,
        dir: TEAM,
        members: 0,
        createdAt: 0,
        leadSessionId: null,
        problem: { file: config, problem: `larger than ${MAX_CONFIG_BYTES} bytes` },
      },
    ]);
    // One call at a time: a second call made at once could be refused before anything awaited it (under load its
    // answer came first), an unhandled rejection that failed the run.
    for (const call of [
      () => c.call('teams.show', { team: TEAM }),
      () => c.call('teams.send', { ...auth, team: TEAM, to: 'team-lead', text: 'hi' }),
    ]) {
      const err = await failure(call());
      expect(err.reason).toBe('team_unreadable');
      expect(err.data).toMatchObject({ file: config });
    }
    await expect(th.hub.teams.roster(TEAM).addMember({ name: 'w', cwd: '/w' })).rejects.toMatchObject({
      code: 'team_unreadable',
      file: config,
    });
    expect(digest(config)).toBe(before);
  });

  it('a truncated roster refuses every write and stays as it was', async () => {
    const { th, teamDir } = await hubWithTeam();
    const config = path.join(teamDir, 'config.json');
    fs.writeFileSync(config, fs.readFileSync(config, 'utf8').slice(0, 100));
    const before = fs.readFileSync(config);
    const roster = th.hub.teams.roster(TEAM);
    await expect(roster.create({ name: TEAM, leadSessionId: 'x', cwd: '/w' })).rejects.toMatchObject({
      code: 'team_unreadable',
    });
    await expect(roster.removeMember('researcher')).rejects.toMatchObject({ code: 'team_unreadable' });
    expect(fs.readFileSync(config), 'the file stays as it was').toEqual(before);
    const c = await th.client();
    expect((await c.call('teams.list', {})).teams[0]!.problem).toEqual({ file: config, problem: 'not valid JSON' });
  });
});

describe('task ids stay unique near 2^53', () => {
  /** Creates `n` tasks one after another; the ones that succeed, and the reasons of the rest. */
  async function createMany(t: TestHub, list: string, n: number) {
    const c = await t.client();
    const made: Array<{ id: string; subject: string }> = [];
    const refused: string[] = [];
    for (let i = 0; i < n; i++) {
      await c.call('tasks.create', { list, subject: `task ${i}`, description: '' }).then(
        (r) => void made.push({ id: r.task.id, subject: r.task.subject }),
        (e: unknown) => void refused.push((e as RpcError).reason),
      );
    }
    return { made, refused };
  }
  const subjectOnDisk = (dir: string, id: string): unknown =>
    (JSON.parse(fs.readFileSync(path.join(dir, `${id}.json`), 'utf8')) as { subject: unknown }).subject;

  it('a high-water mark near 2^53: the last safe id is used once, then creates fail as task_id_unavailable', async () => {
    const { th, root } = await hubWithTeam();
    const dir = path.join(root, 'tasks', 'big');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, '.highwatermark'), String(Number.MAX_SAFE_INTEGER - 1));
    const { made, refused } = await createMany(th, 'big', 3);
    expect(made).toEqual([{ id: String(Number.MAX_SAFE_INTEGER), subject: 'task 0' }]);
    expect(refused).toEqual(['task_id_unavailable', 'task_id_unavailable']);
    for (const t of made) expect(subjectOnDisk(dir, t.id)).toBe(t.subject);
  });

  it('a 20-digit task file name is ignored for new ids: no create overwrites another', async () => {
    const { th, root } = await hubWithTeam();
    const dir = path.join(root, 'tasks', 'odd');
    fs.mkdirSync(dir, { recursive: true });
    const huge = path.join(dir, '12345678901234567890.json');
    fs.writeFileSync(
      huge,
      JSON.stringify(
        {
          id: '12345678901234567890',
          subject: 'theirs',
          description: '',
          status: 'pending',
          blocks: [],
          blockedBy: [],
        },
        null,
        2,
      ),
    );
    const before = fs.readFileSync(huge);
    const { made, refused } = await createMany(th, 'odd', 3);
    expect(refused).toEqual([]);
    expect(made.map((t) => t.id)).toEqual(['1', '2', '3']);
    for (const t of made) expect(subjectOnDisk(dir, t.id)).toBe(t.subject);
    expect(fs.readFileSync(huge)).toEqual(before);
  });

  it('an update of a task file that cannot be read is task_unreadable and writes nothing', async () => {
    const { th, root } = await hubWithTeam();
    const file = path.join(root, 'tasks', TEAM, '1.json');
    fs.writeFileSync(file, '{"id": "1", "subj');
    const c = await th.client();
    const err = await failure(c.call('tasks.update', { list: TEAM, id: '1', status: 'completed' }));
    expect(err.reason).toBe('task_unreadable');
    expect(err.data).toMatchObject({ file });
    expect(fs.readFileSync(file, 'utf8')).toBe('{"id": "1", "subj');
  });
});

describe('roles come from the roster, not from the registration', () => {
  const plan = () =>
    JSON.stringify({
      type: 'plan_approval_response',
      requestId: 'r1',
      approved: true,
      timestamp: new Date().toISOString(),
    });

  it('a session that registers as team-lead of a team it does not lead cannot write as team-lead', async () => {
    const { th, teamDir } = await hubWithTeam();
    const inbox = path.join(teamDir, 'inboxes', 'researcher.json');
    const c = await th.client();
    const fake = await th.register(c, { name: 'fake', team: TEAM, member: 'team-lead' });
    const auth = { sessionId: fake.sessionId, token: fake.token };
    for (const text of [plan(), 'plain words as the lead']) {
      expect((await failure(c.call('teams.send', { ...auth, team: TEAM, to: 'researcher', text }))).reason).toBe(
        'not_lead',
      );
    }
    expect((await failure(c.call('tasks.assign', { ...auth, team: TEAM, id: '2', owner: 'researcher' }))).reason).toBe(
      'not_lead',
    );
    expect(fs.existsSync(inbox)).toBe(false);
    const stranger = await th.register(c, { name: 'stranger', team: TEAM, member: 'nobody' });
    expect(
      (
        await failure(
          c.call('teams.send', {
            sessionId: stranger.sessionId,
            token: stranger.token,
            team: TEAM,
            to: 'researcher',
            text: 'hi',
          }),
        )
      ).reason,
    ).toBe('not_a_member');
  });

  it('the session the roster names as lead (leadSessionId) sends lead-only frames as team-lead', async () => {
    const { th, root } = await hubWithTeam();
    const c = await th.client();
    const lead = await th.register(c, { name: 'boss', team: 'crew', member: 'team-lead' });
    const roster = th.hub.teams.roster('crew');
    await roster.create({ name: 'crew', leadSessionId: lead.sessionId, cwd: th.dirs.root });
    await roster.addMember({ name: 'worker', cwd: th.dirs.root });
    const text = plan();
    await c.call('teams.send', { sessionId: lead.sessionId, token: lead.token, team: 'crew', to: 'worker', text });
    const entries = parseInbox(
      fs.readFileSync(path.join(root, 'teams', 'crew', 'inboxes', 'worker.json'), 'utf8'),
    ).entries;
    expect(entries.map((e) => [e.from, e.text])).toEqual([['team-lead', text]]);
  });
});
