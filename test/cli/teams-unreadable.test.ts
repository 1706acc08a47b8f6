// `switchboard teams` lists a team whose roster cannot be read with its
// problem, never as an empty team created in 1970; `team show` shows an
// inbox it cannot read as unreadable, never as 0 messages.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { cliEnv, runCli, serveCli, type Served } from '../helpers/cli.js';
import { tempDirs } from '../helpers/hub.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.stop();
  served = undefined;
});

it('switchboard teams shows an unreadable roster with its file and problem', async () => {
  const dirs = tempDirs();
  const config = path.join(dirs.root, 'claude', 'teams', 'broken', 'config.json');
  fs.mkdirSync(path.dirname(config), { recursive: true });
  fs.writeFileSync(config, '{"name":"broken","members":[');
  const env = cliEnv(dirs);
  served = await serveCli(env);
  const r = await runCli(['teams'], env);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^broken\s+\?\s+unreadable: .*config\.json not valid JSON/m);
  expect(r.stdout).not.toContain('1970');
  expect(fs.readFileSync(config, 'utf8')).toBe('{"name":"broken","members":[');
});

it('switchboard team show shows an inbox it cannot read as unreadable, not as 0', async () => {
  const dirs = tempDirs();
  const team = path.join(dirs.root, 'claude', 'teams', 'big');
  fs.mkdirSync(path.join(team, 'inboxes'), { recursive: true });
  fs.writeFileSync(
    path.join(team, 'config.json'),
    JSON.stringify({
      name: 'big',
      createdAt: 1,
      leadAgentId: 'lead@big',
      members: ['lead', 'worker'].map((name) => ({ agentId: `${name}@big`, name, joinedAt: 1 })),
    }),
  );
  const broken = '[{"from":"lead","text":"half a messa'; // as a crash mid-write by another program leaves it
  fs.writeFileSync(path.join(team, 'inboxes', 'worker.json'), broken);
  const env = cliEnv(dirs);
  served = await serveCli(env);
  const r = await runCli(['team', 'show', 'big'], env);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^worker\s+-\s+unreadable: \S.*$/m);
  expect(r.stdout).toMatch(/^lead\s+-\s+0\s/m);
  expect(fs.readFileSync(path.join(team, 'inboxes', 'worker.json'), 'utf8')).toBe(broken);
});
