// `switchboard setup qwen`: the MCP server entry (Gemini CLI's mcpServers
// shape) and five hooks with Claude Code's event names in Qwen Code's user
// settings ($QWEN_HOME/settings.json, else ~/.qwen/settings.json), a dry run
// that writes nothing, a backup, and an uninstall that restores the file.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/hub.js';

const QWEN_SETTINGS = `{
  // my Qwen settings
  "model": { "name": "qwen3-coder" },
  "mcpServers": { "fs": { "command": "fs-mcp" } },
  "hooks": { "PreToolUse": [ { "matcher": "run_shell_command", "hooks": [ { "type": "command", "command": "./audit.sh" } ] } ] }
}
`;

function home(): { dir: string; file: string; env: NodeJS.ProcessEnv } {
  const dir = tempDirs().root;
  fs.mkdirSync(path.join(dir, '.qwen'));
  const file = path.join(dir, '.qwen', 'settings.json');
  fs.writeFileSync(file, QWEN_SETTINGS);
  return { dir, file, env: { PATH: process.env.PATH, HOME: dir } };
}

const read = (p: string): string => fs.readFileSync(p, 'utf8');
type Settings = {
  mcpServers: Record<string, { command: string; args: string[] }>;
  hooks: Record<
    string,
    Array<{ matcher?: string; hooks: Array<{ type: string; command: string; name: string; timeout: number }> }>
  >;
};

describe('switchboard setup qwen', () => {
  it('a dry run prints the change and writes nothing', async () => {
    const h = home();
    const dry = await runCli(['setup', 'qwen', '--dry-run'], h.env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`--- ${h.file}`);
    expect(read(h.file)).toBe(QWEN_SETTINGS);
    expect(fs.readdirSync(path.join(h.dir, '.qwen'))).toEqual(['settings.json']);
  });

  it('adds the MCP server and five hooks under Claude Code event names next to the user’s own', async () => {
    const h = home();
    const r = await runCli(['setup', 'qwen'], h.env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Restart Qwen Code');
    const cfg = parseJsonc(read(h.file)) as Settings;
    expect(Object.keys(cfg.mcpServers)).toEqual(['fs', 'switchboard']);
    expect(cfg.mcpServers.switchboard!.args.slice(-3)).toEqual(['mcp', '--agent', 'qwen']);
    expect(cfg.mcpServers.switchboard).not.toHaveProperty('trust');
    expect(Object.keys(cfg.hooks)).toEqual([
      'PreToolUse',
      'SessionStart',
      'UserPromptSubmit',
      'PostToolUse',
      'Stop',
      'SessionEnd',
    ]);
    expect(cfg.hooks.PostToolUse![0]).toMatchObject({ matcher: '.*' });
    const stop = cfg.hooks.Stop![0]!.hooks[0]!;
    expect(stop).toMatchObject({ type: 'command', name: 'switchboard-stop', timeout: 10 });
    expect(stop.command).toMatch(/ stop --agent qwen$/);
    expect(read(h.file), 'the user’s comments are kept').toContain('// my Qwen settings');
    expect(
      fs.readdirSync(path.join(h.dir, '.qwen')).filter((f) => f.includes('switchboard-backup')),
      'one backup of the user’s file',
    ).toHaveLength(1);
  });

  it('is idempotent, and --uninstall restores the file', async () => {
    const h = home();
    expect((await runCli(['setup', 'qwen'], h.env)).code).toBe(0);
    const once = read(h.file);
    expect((await runCli(['setup', 'qwen'], h.env)).code).toBe(0);
    expect(read(h.file)).toBe(once);
    expect((await runCli(['setup', 'qwen', '--uninstall'], h.env)).code).toBe(0);
    expect(parseJsonc(read(h.file))).toEqual(parseJsonc(QWEN_SETTINGS));
    expect(read(h.file)).toContain('// my Qwen settings');
  });

  it('writes into $QWEN_HOME when it is set', async () => {
    const h = home();
    const qwenHome = path.join(h.dir, 'qh');
    expect((await runCli(['setup', 'qwen'], { ...h.env, QWEN_HOME: qwenHome })).code).toBe(0);
    expect(Object.keys((parseJsonc(read(path.join(qwenHome, 'settings.json'))) as Settings).mcpServers)).toEqual([
      'switchboard',
    ]);
    expect(read(h.file)).toBe(QWEN_SETTINGS);
  });
});
