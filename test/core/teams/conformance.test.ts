// Loads every Claude Code fixture, round-trips it byte for byte, and checks
// that files we write are what a reader of the documented format accepts.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { FRAME_TYPES } from '../../../core/protocol/frames.js';
import { deliverableEntries, FRAME_SCHEMAS, parseFrame, checkFrameRole } from '../../../core/teams/team-frames.js';
import { serialize, sanitizePart, sanitizeTeamDir } from '../../../core/teams/files.js';
import { Mailbox, newEntry, parseInbox } from '../../../core/teams/mailbox.js';
import { parseConfig, Roster, uniqueMemberName } from '../../../core/teams/roster.js';
import { Teams } from '../../../core/teams/teams.js';
import { parseTask } from '../../../core/tasks/task-file.js';
import { TaskList } from '../../../core/tasks/task-list.js';
import { tempDirs } from '../../helpers/hub.js';
import { FIXTURES } from '../../helpers/peer.js';

const LOCK = { deadlineMs: 10_000, staleMs: 10_000 };
const fixture = (p: string): string => fs.readFileSync(path.join(FIXTURES, p), 'utf8');

function copyFixtures(): string {
  const root = path.join(tempDirs().root, 'claude');
  fs.cpSync(FIXTURES, root, { recursive: true });
  for (const p of fs.readdirSync(root, { recursive: true, withFileTypes: true }))
    fs.chmodSync(path.join(p.parentPath, p.name), p.isDirectory() ? 0o700 : 0o600);
  fs.chmodSync(root, 0o700);
  return root;
}

describe('fixtures round-trip byte for byte', () => {
  it('the inbox', () => {
    const text = fixture('teams/session-3f9a1c2e/inboxes/team-lead.json');
    const { entries, invalid } = parseInbox(text);
    expect(invalid).toBe(0);
    expect(entries).toHaveLength(2);
    expect(serialize(entries)).toBe(text);
  });

  it('the roster', () => {
    const text = fixture('teams/session-3f9a1c2e/config.json');
    const cfg = parseConfig(text)!;
    expect(cfg.members.map((m) => m.name)).toEqual(['team-lead', 'researcher']);
    expect(serialize(cfg)).toBe(text);
  });

  it('the tasks and the high-water mark', async () => {
    for (const id of ['1', '2']) {
      const text = fixture(`tasks/session-3f9a1c2e/${id}.json`);
      expect(serialize(parseTask(text))).toBe(text);
    }
    const root = copyFixtures();
    const list = new TaskList(path.join(root, 'tasks'), 'session-3f9a1c2e', LOCK);
    expect(await list.highWaterMark()).toBe(Number(fixture('tasks/session-3f9a1c2e/.highwatermark')));
    expect((await list.list()).map((t) => [t.id, t.status, t.owner])).toEqual([
      ['1', 'in_progress', 'researcher'],
      ['2', 'pending', undefined],
    ]);
  });

  it('an untouched update writes the same bytes; a new key lands at the end', async () => {
    const root = copyFixtures();
    const list = new TaskList(path.join(root, 'tasks'), 'session-3f9a1c2e', LOCK);
    await list.update('1', {});
    expect(fs.readFileSync(path.join(root, 'tasks/session-3f9a1c2e/1.json'), 'utf8')).toBe(
      fixture('tasks/session-3f9a1c2e/1.json'),
    );
    await list.update('2', { owner: 'researcher', metadata: { priority: null, area: 'auth' } });
    const text = fs.readFileSync(path.join(root, 'tasks/session-3f9a1c2e/2.json'), 'utf8');
    expect(Object.keys(JSON.parse(text) as object)).toEqual([
      'id',
      'subject',
      'description',
      'status',
      'blocks',
      'blockedBy',
      'metadata',
      'owner',
    ]);
    expect((JSON.parse(text) as { metadata: unknown }).metadata).toEqual({ area: 'auth' });
    expect(text.endsWith('}')).toBe(true);
  });

  it('frame type lists agree between the sender check and the schemas', () => {
    expect([...FRAME_TYPES].sort()).toEqual(Object.keys(FRAME_SCHEMAS).sort());
    const idle = parseFrame(parseInbox(fixture('teams/session-3f9a1c2e/inboxes/team-lead.json')).entries[1]!.text);
    expect(idle).toMatchObject({ type: 'idle_notification', from: 'researcher', idleReason: 'available' });
  });
});

describe('what we write, a documented-format reader accepts', () => {
  /** An independent reader: docs/claude-code-formats.md#1-team-inboxes field list and order. */
  function documentedInboxReader(text: string): Array<Record<string, unknown>> {
    expect(text.endsWith('\n')).toBe(false);
    const arr = JSON.parse(text) as Array<Record<string, unknown>>;
    expect(Array.isArray(arr)).toBe(true);
    for (const e of arr) {
      const keys = Object.keys(e);
      expect(
        keys.filter((k) =>
          ['from', 'text', 'summary', 'timestamp', 'color', 'msgV', 'msg_id', 'type', 'read'].includes(k),
        ),
      ).toEqual(keys);
      expect(keys.slice(0, 2)).toEqual(['from', 'text']);
      expect(keys.slice(-4)).toEqual(['msgV', 'msg_id', 'type', 'read']);
      expect(e.msg_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(new Date(e.timestamp as string).toISOString()).toBe(e.timestamp);
    }
    return arr;
  }

  it('appends to an inbox (creating it), keeping existing entries', async () => {
    const root = copyFixtures();
    const teams = new Teams(root, LOCK);
    await teams
      .mailbox('session-3f9a1c2e', 'team-lead')
      .append(newEntry({ from: 'researcher', text: 'more', summary: 'more', color: 'blue' }));
    const lead = documentedInboxReader(
      fs.readFileSync(path.join(root, 'teams/session-3f9a1c2e/inboxes/team-lead.json'), 'utf8'),
    );
    expect(lead).toHaveLength(3);
    await teams.mailbox('session-3f9a1c2e', 'new member!').append(newEntry({ from: 'team-lead', text: 'hi' }));
    const created = path.join(root, 'teams/session-3f9a1c2e/inboxes/new-member-.json');
    expect(documentedInboxReader(fs.readFileSync(created, 'utf8'))).toHaveLength(1);
    expect(fs.existsSync(`${created}.lock`)).toBe(false);
  });

  it('reads a missing or garbage inbox as empty', async () => {
    const dir = tempDirs().root;
    const file = path.join(dir, 'inbox.json');
    const box = new Mailbox(file, LOCK);
    expect((await box.peek()).entries, 'missing').toEqual([]);
    fs.writeFileSync(file, 'not json');
    expect((await box.peek()).entries, 'not JSON').toEqual([]);
    fs.writeFileSync(file, '{"an":"object"}');
    expect((await box.peek()).entries, 'not an array').toEqual([]);
  });

  describe('an inbox with an invalid entry', () => {
    const legacy = { from: 'a', text: 'old style', timestamp: '2026-01-01T00:00:00.000Z', read: false };
    const bad = { from: 7 };
    const withExtra = { ...newEntry({ from: 'b', text: 'new' }), from_plugin: 'x', lead_sig: 'y' };
    function mixed() {
      const file = path.join(tempDirs().root, 'inbox.json');
      const original = serialize([legacy, bad, withExtra]);
      fs.writeFileSync(file, original);
      return { file, original, box: new Mailbox(file, LOCK) };
    }

    it('a peek counts it and never writes', async () => {
      const { file, original, box } = mixed();
      const peeked = await box.peek();
      expect(peeked).toMatchObject({ invalid: 1 });
      expect(fs.readFileSync(file, 'utf8')).toBe(original);
    });

    it('a read consumes the valid entries and prunes the invalid one', async () => {
      const { file, box } = mixed();
      const read = await box.read();
      expect(read).toEqual([legacy, withExtra]);
      expect(fs.readFileSync(file, 'utf8')).toBe(serialize([legacy, withExtra]));
    });
  });

  it("a zero-byte inbox (Claude Code's wx create before its [] is written) is empty and takes an append", async () => {
    // Found by CI: a worker read another's half-made inbox and failed inbox_unreadable.
    const file = path.join(tempDirs().root, 'inbox.json');
    fs.writeFileSync(file, '');
    const box = new Mailbox(file, LOCK);
    expect(await box.peek()).toEqual({ entries: [], invalid: 0 });
    const e = newEntry({ from: 'lead', text: 'hi' });
    await box.append(e);
    expect(fs.readFileSync(file, 'utf8')).toBe(serialize([e]));
    fs.writeFileSync(file, ' ');
    expect((await box.peek()).problem).toBe('not valid JSON'); // only zero bytes
  });

  it('removes delivered entries by from|timestamp|text plus leftover read:true ones', async () => {
    const file = path.join(tempDirs().root, 'inbox.json');
    const a = newEntry({ from: 'a', text: 'one' });
    const b = newEntry({ from: 'b', text: 'two' });
    const c = { ...newEntry({ from: 'c', text: 'three' }), read: true };
    fs.writeFileSync(file, serialize([a, b, c]));
    const box = new Mailbox(file, LOCK);
    expect(await box.removeDelivered([{ from: 'a', timestamp: a.timestamp, text: 'one' }])).toBe(2);
    expect(await box.peek()).toEqual({ entries: [b], invalid: 0 });
    await box.clear();
    expect(fs.readFileSync(file, 'utf8')).toBe('[]');
  });

  it('creates a team and adds members the way Claude Code names them', async () => {
    const root = tempDirs().root;
    const roster = new Roster(path.join(root, 'teams'), 'My_Team', LOCK);
    expect(roster.dir.endsWith('/my-team')).toBe(true);
    await roster.create({ name: 'My_Team', leadSessionId: 's-1', cwd: '/w', now: 5 });
    expect(await roster.addMember({ name: 'worker@x', cwd: '/w', now: 6 })).toBe('worker-x');
    expect(await roster.addMember({ name: 'Worker-X', cwd: '/w', now: 7 })).toBe('Worker-X-2');
    await expect(roster.addMember({ name: 'main', cwd: '/w' })).rejects.toMatchObject({ code: 'reserved_name' });
    const text = fs.readFileSync(roster.file, 'utf8');
    expect(parseConfig(text)!.members.map((m) => m.agentId)).toEqual([
      'team-lead@My_Team',
      'worker-x@My_Team',
      'Worker-X-2@My_Team',
    ]);
    expect(text).toBe(serialize(JSON.parse(text)));
    expect(uniqueMemberName('a', ['A', 'a-2'])).toBe('a-3');
    expect(sanitizePart('a.b c_d-E')).toBe('a-b-c_d-E');
    expect(sanitizeTeamDir('a.b c_d-E')).toBe('a-b-c-d-e');
  });
});

describe('frames and roles', () => {
  const plan = JSON.stringify({ type: 'plan_approval_response', requestId: 'r', approved: true, timestamp: 't' });
  const perm = JSON.stringify({ type: 'permission_response', request_id: 'r', subtype: 'success', response: {} });
  const mode = JSON.stringify({ type: 'mode_set_request', mode: 'bypassPermissions', from: 'x' });
  const update = JSON.stringify({ type: 'team_permission_update', rules: [] });

  it('drops permission, plan and mode frames from anyone but team-lead', () => {
    const entries = [
      { from: 'team-lead', text: plan },
      { from: 'researcher', text: plan },
      { from: 'researcher', text: perm },
      { from: 'researcher', text: mode },
      { from: 'researcher', text: 'plain' },
    ];
    const dropped: string[] = [];
    const ok = deliverableEntries(entries, (_e, reason) => dropped.push(reason));
    expect(ok).toEqual([entries[0], entries[4]]);
    expect(dropped).toHaveLength(3);
  });

  it('never applies a permission-rule update, not even from team-lead', () => {
    expect(deliverableEntries([{ from: 'team-lead', text: update }], () => undefined)).toEqual([]);
    expect(checkFrameRole(parseFrame(update)!, 'team-lead')).toEqual({
      accept: false,
      reason: 'permission-rule updates are never accepted from an inbox',
    });
  });
});

describe('task list maintenance', () => {
  it('a deleted task raises the high-water mark, so its id is never reused', async () => {
    const root = path.join(tempDirs().root, 'tasks');
    const list = new TaskList(root, 'm', LOCK);
    for (const s of ['a', 'b', 'c']) await list.create({ subject: s, description: '' });
    expect(await list.delete('3')).toBe(true);
    expect(fs.readFileSync(path.join(root, 'm', '.highwatermark'), 'utf8')).toBe('3');
    expect((await list.create({ subject: 'd', description: '' })).id).toBe('4');
  });

  it('a reset removes every task, keeps the lock file and never reuses an id', async () => {
    const root = path.join(tempDirs().root, 'tasks');
    const list = new TaskList(root, 'm', LOCK);
    for (const s of ['a', 'b', 'c', 'd']) await list.create({ subject: s, description: '' });
    await list.reset();
    expect(await list.list()).toEqual([]);
    expect((await list.create({ subject: 'e', description: '' })).id).toBe('5');
    expect(fs.existsSync(path.join(root, 'm', '.lock'))).toBe(true);
    expect(fs.readFileSync(path.join(root, 'm', '.lock'), 'utf8')).toBe('');
  });
});
