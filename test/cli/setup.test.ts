// `switchboard setup` on temp HOMEs with realistic existing configurations:
// apply, apply again (no change), dry run, uninstall (back to the original).
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { CLI, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/hub.js';

const CLAUDE_JSON = `{
  "numStartups": 42,
  "mcpServers": {
    "github": { "type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"], "env": {} }
  },
  "projects": { "/home/dev/api": { "hasTrustDialogAccepted": true } }
}
`;
const CLAUDE_SETTINGS = `{
  // my own formatter hook
  "permissions": { "allow": ["Bash(npm test:*)"] },
  "hooks": {
    "PostToolUse": [
      { "matcher": "Edit|Write", "hooks": [{ "type": "command", "command": "prettier --write \\"$CLAUDE_FILE\\"" }] }
    ]
  }
}
`;
const CODEX_TOML = `# my Codex settings
model = "gpt-5-codex"   # keep this comment

[mcp_servers.docs]
command = "docs-mcp"
args = ["--port", "0"]
`;
const GEMINI_SETTINGS = `{
  // theme and tools
  "theme": "GitHub",
  "mcpServers": { "fs": { "command": "fs-mcp" } },
  "hooks": { "BeforeTool": [ { "matcher": "run_shell_command", "hooks": [ { "type": "command", "command": "./audit.sh" } ] } ] }
}
`;

function home(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = tempDirs().root;
  fs.mkdirSync(path.join(dir, '.claude'));
  fs.mkdirSync(path.join(dir, '.codex'));
  fs.mkdirSync(path.join(dir, '.gemini'));
  fs.writeFileSync(path.join(dir, '.claude.json'), CLAUDE_JSON);
  fs.writeFileSync(path.join(dir, '.claude', 'settings.json'), CLAUDE_SETTINGS);
  fs.writeFileSync(path.join(dir, '.codex', 'config.toml'), CODEX_TOML);
  fs.writeFileSync(path.join(dir, '.gemini', 'settings.json'), GEMINI_SETTINGS);
  return { dir, env: { PATH: process.env.PATH, HOME: dir } };
}

const read = (p: string): string => fs.readFileSync(p, 'utf8');
const backups = (dir: string): string[] =>
  fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.includes('switchboard-backup'));

describe('switchboard setup', () => {
  describe('claude-code', () => {
    it('a dry run shows the diff and writes nothing', async () => {
      const h = home();
      const dry = await runCli(['setup', 'claude-code', '--dry-run'], h.env);
      expect(dry.code).toBe(0);
      expect(dry.stdout).toContain(`--- ${path.join(h.dir, '.claude.json')}`);
      expect(dry.stdout).toContain('+ ');
      expect(dry.stdout).toContain('(dry run: nothing was written)');
      expect(read(path.join(h.dir, '.claude', 'settings.json'))).toBe(CLAUDE_SETTINGS);
    });

    it('adds the MCP server and five hooks next to the user’s own entries', async () => {
      const h = home();
      const settings = path.join(h.dir, '.claude', 'settings.json');
      expect((await runCli(['setup', 'claude-code'], h.env)).code).toBe(0);
      const cfg = parseJsonc(read(path.join(h.dir, '.claude.json'))) as {
        mcpServers: Record<string, { command: string; args: string[] }>;
        numStartups: number;
      };
      expect(Object.keys(cfg.mcpServers)).toEqual(['github', 'switchboard']);
      expect(cfg.mcpServers.switchboard).toEqual({
        type: 'stdio',
        command: process.execPath,
        args: ['--no-memory-reducer', CLI, 'mcp', '--agent', 'claude'],
        env: {},
      });
      expect(cfg.numStartups).toBe(42);
      const s = read(settings);
      expect(s).toContain('// my own formatter hook');
      const hooks = (
        parseJsonc(s) as { hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ command: string }> }>> }
      ).hooks;
      expect(Object.keys(hooks)).toEqual(['PostToolUse', 'SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd']);
      expect(hooks.PostToolUse).toHaveLength(2);
      expect(hooks.PostToolUse![0]!.matcher).toBe('Edit|Write');
      expect(hooks.PostToolUse![1]).toEqual({
        matcher: '*',
        hooks: [
          {
            type: 'command',
            command: `"${process.execPath}" "${path.join(path.dirname(CLI), 'switchboard-hook.cjs')}" post-tool --agent claude`,
            timeout: 10,
          },
        ],
      });
      expect(backups(h.dir)).toHaveLength(2);
    });

    it('a second run changes nothing and makes no new backup', async () => {
      const h = home();
      expect((await runCli(['setup', 'claude-code'], h.env)).code).toBe(0);
      const again = await runCli(['setup', 'claude-code'], h.env);
      expect(again.stdout.trim()).toBe('claude-code: already set up; nothing to change.');
      expect(backups(h.dir)).toHaveLength(2);
    });

    it('uninstall restores the original files', async () => {
      const h = home();
      const settings = path.join(h.dir, '.claude', 'settings.json');
      expect((await runCli(['setup', 'claude-code'], h.env)).code).toBe(0);
      expect((await runCli(['setup', 'claude-code', '--uninstall'], h.env)).code).toBe(0);
      expect(parseJsonc(read(settings))).toEqual(parseJsonc(CLAUDE_SETTINGS));
      expect(read(settings)).toContain('// my own formatter hook');
      expect(JSON.parse(read(path.join(h.dir, '.claude.json')))).toEqual(JSON.parse(CLAUDE_JSON));
      expect((await runCli(['setup', 'claude-code', '--uninstall'], h.env)).stdout.trim()).toBe(
        'claude-code: already removed; nothing to change.',
      );
    });
  });

  it('codex: uninstall restores config.toml byte for byte after a marked table was added', async () => {
    const h = home();
    const toml = path.join(h.dir, '.codex', 'config.toml');
    expect((await runCli(['setup', 'codex'], h.env)).code).toBe(0);
    const text = read(toml);
    expect(text.startsWith(CODEX_TOML), 'the user’s TOML, comments and all, comes first').toBe(true);
    const parsed = parseToml(text) as {
      model: string;
      mcp_servers: Record<string, { command: string; args: string[] }>;
    };
    expect(parsed.model).toBe('gpt-5-codex');
    // Codex passes MCP servers only a fixed set of variables: the ones hub discovery reads are named explicitly.
    expect(parsed.mcp_servers.switchboard).toEqual({
      command: process.execPath,
      args: ['--no-memory-reducer', CLI, 'mcp', '--agent', 'codex'],
      env_vars: ['SWITCHBOARD_HOME', 'SWITCHBOARD_RUNTIME_DIR', 'XDG_RUNTIME_DIR'],
    });
    expect(parsed.mcp_servers.docs).toBeDefined();
    const hooks = JSON.parse(read(path.join(h.dir, '.codex', 'hooks.json'))) as { hooks: Record<string, unknown[]> };
    expect(Object.keys(hooks.hooks), 'hooks.json names four events').toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PostToolUse',
      'Stop',
    ]);
    expect((await runCli(['setup', 'codex'], h.env)).stdout.trim(), 'a second run changes nothing').toBe(
      'codex: already set up; nothing to change.',
    );
    expect((await runCli(['setup', 'codex', '--uninstall'], h.env)).code).toBe(0);
    expect(read(toml), 'uninstall restores config.toml byte for byte').toBe(CODEX_TOML);
    expect(fs.existsSync(path.join(h.dir, '.codex', 'hooks.json'))).toBe(true);
    expect(JSON.parse(read(path.join(h.dir, '.codex', 'hooks.json')))).toEqual({});
  });

  it('tells the user to trust the Codex hooks', async () => {
    const h = home();
    const codex = (await runCli(['setup', 'codex'], h.env)).stdout;
    expect(codex).toMatch(
      /Still to do:\n- Codex runs new hooks only after you trust them: .*`\/hooks`.*silently in `codex exec`/,
    );
    expect(codex).toContain('hooks not running');
  });

  it('tells the user to trust the folder for Gemini CLI', async () => {
    const h = home();
    const gemini = (await runCli(['setup', 'gemini', '--dry-run'], h.env)).stdout;
    expect(gemini).toMatch(
      /trusted folders: in an untrusted folder `\/mcp` shows switchboard as Disabled, every hook is skipped, and headless `gemini -p` refuses to run/,
    );
    expect(gemini).toContain('/permissions');
    const json = JSON.parse((await runCli(['setup', 'gemini', '--json'], h.env)).stdout) as { notes: string[] };
    expect(json.notes[0]).toMatch(/^Gemini CLI runs MCP servers and hooks only in trusted folders/);
  });

  it('gemini: uninstall restores settings.json after the MCP server and hooks under Gemini event names', async () => {
    const h = home();
    const file = path.join(h.dir, '.gemini', 'settings.json');
    expect((await runCli(['setup', 'gemini'], h.env)).code).toBe(0);
    const cfg = parseJsonc(read(file)) as {
      mcpServers: Record<string, unknown>;
      hooks: Record<string, Array<{ hooks: Array<{ name: string; timeout: number }> }>>;
    };
    expect(Object.keys(cfg.mcpServers)).toEqual(['fs', 'switchboard']);
    expect(Object.keys(cfg.hooks)).toEqual([
      'BeforeTool',
      'SessionStart',
      'BeforeAgent',
      'AfterTool',
      'AfterAgent',
      'SessionEnd',
    ]);
    expect(cfg.hooks.AfterTool![0]!.hooks[0]).toMatchObject({ name: 'switchboard-post-tool', timeout: 10000 });
    expect(read(file), 'the user’s comments survive setup').toContain('// theme and tools');
    expect((await runCli(['setup', 'gemini', '--uninstall'], h.env)).code).toBe(0);
    expect(parseJsonc(read(file)), 'uninstall restores the settings').toEqual(parseJsonc(GEMINI_SETTINGS));
    expect(read(file)).toContain('// theme and tools');
  });

  it('refuses a file it cannot parse, changing nothing', async () => {
    const h = home();
    fs.writeFileSync(path.join(h.dir, '.gemini', 'settings.json'), '{ "theme": ');
    const r = await runCli(['setup', 'gemini', '--json'], h.env);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { reason: 'setup_refused' } });
    expect(read(path.join(h.dir, '.gemini', 'settings.json'))).toBe('{ "theme": ');
  });

  it('refuses an entry of its name that it did not write', async () => {
    const h = home();
    fs.writeFileSync(path.join(h.dir, '.codex', 'config.toml'), '[mcp_servers.switchboard]\ncommand = "mine"\n');
    expect((await runCli(['setup', 'codex'], h.env)).stderr).toContain('already has [mcp_servers.switchboard]');
  });

  it('an unknown agent is a usage error', async () => {
    expect((await runCli(['setup', 'nope'], home().env)).code).toBe(2);
  });

  it('creates missing files on a fresh HOME', async () => {
    const dir = tempDirs().root;
    const env = { PATH: process.env.PATH, HOME: dir };
    expect((await runCli(['setup', 'claude-code'], env)).code).toBe(0);
    expect(
      Object.keys((JSON.parse(read(path.join(dir, '.claude.json'))) as { mcpServers: object }).mcpServers),
    ).toEqual(['switchboard']);
    expect((await runCli(['setup', 'claude-code', '--uninstall'], env)).code).toBe(0);
  });
});
