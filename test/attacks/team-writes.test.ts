// Team writes that could not finish (found by a red-team pass): tasks.assign
// changed the task's owner and then failed on the owner's unreadable inbox,
// answering "nothing was written" while the task said otherwise; and a
// 256-character name the schema allowed became a file name over the file
// system's 255 bytes, answered `internal`.

import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { startHub, type TestHub } from '../helpers/hub.js';
import { rpcReason, TEAM, withFixtureTeam } from '../helpers/team-files.js';

let th: TestHub | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});

async function hubWithTeam(): Promise<{ t: TestHub; root: string }> {
  const t = (th = await startHub());
  return { t, root: withFixtureTeam(t) };
}

describe('team writes are whole or not at all', () => {
  it('tasks.assign to an owner whose inbox cannot be read changes neither the task nor the inbox', async () => {
    const { t, root } = await hubWithTeam();
    const taskFile = path.join(root, 'tasks', TEAM, '2.json');
    const inbox = path.join(root, 'teams', TEAM, 'inboxes', 'writer.json');
    fs.writeFileSync(inbox, '[{"from": "team-lead", "te');
    const task = fs.readFileSync(taskFile, 'utf8');
    const c = await t.client();
    expect(await rpcReason(c.call('tasks.assign', { team: TEAM, id: '2', owner: 'writer' }))).toBe('inbox_unreadable');
    expect(fs.readFileSync(taskFile, 'utf8')).toBe(task);
    expect(fs.readFileSync(inbox, 'utf8')).toBe('[{"from": "team-lead", "te');
  });

  it('a name longer than a file name can hold is invalid_params, and nothing is written', async () => {
    const { t, root } = await hubWithTeam();
    const taskFile = path.join(root, 'tasks', TEAM, '1.json');
    const task = fs.readFileSync(taskFile, 'utf8');
    const c = await t.client();
    const long = 'w'.repeat(256);
    expect(await rpcReason(c.call('tasks.assign', { team: TEAM, id: '1', owner: long }))).toBe('invalid_params');
    expect(await rpcReason(c.call('tasks.create', { list: long, subject: 's' }))).toBe('invalid_params');
    expect(fs.readFileSync(taskFile, 'utf8')).toBe(task);
    expect(fs.existsSync(path.join(root, 'teams', TEAM, 'inboxes', `${long}.json`))).toBe(false);
    // The longest name allowed works as a file name (with room for its lock file).
    const longest = 'w'.repeat(200);
    expect((await c.call('tasks.assign', { team: TEAM, id: '1', owner: longest })).task.owner).toBe(longest);
    expect(fs.existsSync(path.join(root, 'teams', TEAM, 'inboxes', `${longest}.json`))).toBe(true);
  });
});
