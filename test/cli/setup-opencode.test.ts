// `switchboard setup opencode` through the CLI on a temp HOME with the
// user's own OpenCode configuration: a dry run writes nothing and shows the
// change; apply writes the MCP server and the plugin beside this CLI with a
// backup and says what is left (the offline npm wait); again changes
// nothing; uninstall gives back the user's entries and comments (the
// plugin list as jsonc-parser formats an edited array).
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { CLI, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/hub.js';

const USER = `{
  // my model
  "model": "anthropic/claude-x",
  "plugin": ["opencode-wakatime"]
}
`;

describe('switchboard setup opencode', () => {
  /** A HOME with the user's own opencode.json. */
  const home = () => {
    const dir = tempDirs().root;
    const file = path.join(dir, '.config', 'opencode', 'opencode.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, USER);
    return { file, env: { PATH: process.env.PATH, HOME: dir } };
  };

  it('a dry run shows the diff and writes nothing', async () => {
    const { file, env } = home();
    const dry = await runCli(['setup', 'opencode', '--dry-run'], env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`--- ${file}`);
    expect(dry.stdout).toContain('(dry run: nothing was written)');
    expect(fs.readFileSync(file, 'utf8')).toBe(USER);
  });

  it('adds the MCP server and the plugin', async () => {
    const { file, env } = home();
    const done = await runCli(['setup', 'opencode'], env);
    expect(done.code).toBe(0);
    expect(done.stdout, 'names the backup').toMatch(/Backups: .*opencode\.json\.switchboard-backup-/);
    expect(done.stdout, 'notes the plugin’s dependency').toContain('@opencode-ai/plugin');
    const cfg = parseJsonc(fs.readFileSync(file, 'utf8')) as { mcp: Record<string, unknown>; plugin: string[] };
    expect(cfg.mcp.switchboard).toEqual({
      type: 'local',
      command: [process.execPath, '--no-memory-reducer', CLI, 'mcp', '--agent', 'opencode'],
      enabled: true,
    });
    expect(cfg.plugin).toEqual(['opencode-wakatime', path.join(path.dirname(CLI), 'switchboard-opencode.mjs')]);
  });

  it('a second run changes nothing', async () => {
    const { env } = home();
    expect((await runCli(['setup', 'opencode'], env)).code).toBe(0);
    expect((await runCli(['setup', 'opencode'], env)).stdout.trim()).toBe(
      'opencode: already set up; nothing to change.',
    );
  });

  it('uninstall restores the user’s file', async () => {
    const { file, env } = home();
    expect((await runCli(['setup', 'opencode'], env)).code).toBe(0);
    expect((await runCli(['setup', 'opencode', '--uninstall'], env)).code).toBe(0);
    const back = fs.readFileSync(file, 'utf8');
    expect(back).toContain('// my model');
    expect(parseJsonc(back)).toEqual(parseJsonc(USER));
  });
});
