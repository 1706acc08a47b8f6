// `switchboard teams` lists a team whose roster cannot be read with its
// problem (issue 14), never as an empty team created in 1970.
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
