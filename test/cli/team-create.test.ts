// `switchboard team create` against a real `serve`: a team in
// Claude Code's format (teams/<dir>/config.json, JSON.stringify(cfg, null, 2),
// the lead its only member, an inboxes/ directory), the acting session as its
// lead or none for the user, refused when it exists, and written only under
// Claude Code's roster lock (config.json.lock): while another writer holds
// it, nothing is written and the command says so.

import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, runCli, serveCli, type Served } from '../helpers/cli.js';
import { tempDirs } from '../helpers/hub.js';
import { stopProcess } from '../helpers/processes.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.stop();
  served = undefined;
});

describe('switchboard team create', () => {
  /** A hub, and `team create "Release Crew"` run by the user (no session). */
  const created = async () => {
    const dirs = tempDirs();
    const env = cliEnv(dirs);
    served = await serveCli(env);
    const r = await runCli(['team', 'create', 'Release Crew', '--cwd', dirs.root], env);
    const file = path.join(dirs.root, 'claude', 'teams', 'release-crew', 'config.json');
    return { dirs, env, r, file };
  };

  it('the user creates a Claude Code roster with no lead session', async () => {
    const { dirs, env, r, file } = await created();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('created team Release Crew');
    const text = fs.readFileSync(file, 'utf8');
    const cfg = JSON.parse(text) as Record<string, unknown> & { members: Array<Record<string, unknown>> };
    expect(text).toBe(JSON.stringify(cfg, null, 2)); // Claude Code's serialization: no trailing newline
    expect(Object.keys(cfg)).toEqual(['name', 'createdAt', 'leadAgentId', 'leadSessionId', 'members']);
    expect(cfg).toMatchObject({ name: 'Release Crew', leadAgentId: 'team-lead@Release Crew', leadSessionId: '' });
    expect(cfg.members).toEqual([
      expect.objectContaining({ agentId: 'team-lead@Release Crew', name: 'team-lead', cwd: dirs.root }),
    ]);
    expect(fs.statSync(path.join(path.dirname(file), 'inboxes')).isDirectory()).toBe(true);
    expect(fs.existsSync(`${file}.lock`)).toBe(false); // the lock was released

    const listed = JSON.parse((await runCli(['teams', '--json'], env)).stdout) as { teams: Array<{ name: string }> };
    expect(listed.teams.map((t) => t.name)).toEqual(['Release Crew']);
  });

  it('a second create of the same name is refused, leaving the roster as it was', async () => {
    const { env, file } = await created();
    const text = fs.readFileSync(file, 'utf8');
    const again = await runCli(['team', 'create', 'release crew', '--json'], env);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toMatchObject({ error: { reason: 'team_exists' } });
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });

  it('the acting session is the lead, with its cwd', async () => {
    const dirs = tempDirs();
    const env = cliEnv(dirs);
    served = await serveCli(env);
    const holder = spawn('sleep', ['600'], { stdio: 'ignore' });
    try {
      const cwd = fs.mkdtempSync(path.join(dirs.root, 'lead-'));
      const reg = JSON.parse(
        (await runCli(['session', 'start', '--cwd', cwd, '--name', 'lead', '--pid', String(holder.pid), '--json'], env))
          .stdout,
      ) as { sessionId: string; token: string };
      const as = { ...env, SWITCHBOARD_SESSION: reg.sessionId, SWITCHBOARD_TOKEN: reg.token };
      const r = await runCli(['team', 'create', 'crew', '--json'], as);
      expect(r.code, r.stderr).toBe(0);
      const written = JSON.parse(
        fs.readFileSync(path.join(dirs.root, 'claude', 'teams', 'crew', 'config.json'), 'utf8'),
      );
      expect(JSON.parse(r.stdout)).toEqual({ config: written });
      expect(written).toMatchObject({ leadSessionId: reg.sessionId, members: [{ name: 'team-lead', cwd }] });
    } finally {
      await stopProcess(holder);
    }
  });

  it('waits for the roster lock and writes nothing when it stays held past the deadline', async () => {
    const dirs = tempDirs();
    fs.mkdirSync(dirs.home, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(dirs.home, 'settings.json'), JSON.stringify({ teamLockDeadlineSeconds: 1 }));
    const env = cliEnv(dirs);
    served = await serveCli(env);
    const dir = path.join(dirs.root, 'claude', 'teams', 'locked');
    fs.mkdirSync(path.join(dir, 'config.json.lock'), { recursive: true }); // Claude Code holds it (fresh mtime)
    const r = await runCli(['team', 'create', 'locked', '--json'], env);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { reason: 'lock_timeout' } });
    expect(fs.existsSync(path.join(dir, 'config.json'))).toBe(false);
    fs.rmdirSync(path.join(dir, 'config.json.lock')); // released
    const after = await runCli(['team', 'create', 'locked'], env);
    expect(after.code, after.stderr).toBe(0);
    expect(fs.existsSync(path.join(dir, 'config.json'))).toBe(true);
  });
});
