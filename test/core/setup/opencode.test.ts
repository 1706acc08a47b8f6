// `switchboard setup opencode` as a plan on real files: a temp HOME with
// OpenCode's own configuration. Install adds the local MCP server and the
// plugin and keeps the user's entries and comments; running it again changes
// nothing; uninstall removes only ours; a `switchboard` server setup did not
// write is refused, never overwritten; OpenCode's file order and
// XDG_CONFIG_HOME are followed.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { plan, type SetupEnv } from '../../../core/setup/agents.js';
import { applyChanges, SetupError } from '../../../core/setup/edit.js';
import { OPENCODE_PLUGIN } from '../../../core/setup/opencode.js';
import { tempDirs } from '../../helpers/hub.js';

interface Cfg {
  mcp: Record<string, unknown>;
  plugin: string[];
}

function world(env: NodeJS.ProcessEnv = {}): { dir: string; e: SetupEnv } {
  const root = tempDirs().root;
  const e: SetupEnv = { home: root, env, node: '/usr/bin/node', script: '/opt/switchboard/switchboard.mjs' };
  return { dir: path.join(env.XDG_CONFIG_HOME ?? path.join(root, '.config'), 'opencode'), e };
}

const USER = `{
  // the user's own
  "model": "anthropic/claude-x",
  "mcp": { "theirs": { "type": "remote", "url": "http://example.invalid/mcp" } },
  "plugin": ["opencode-wakatime"]
}
`;

describe('setup opencode', () => {
  function installed() {
    const { dir, e } = world();
    const file = path.join(dir, 'opencode.json');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, USER);
    const p = plan('opencode', e, false);
    applyChanges(p.changes, new Date(0));
    const text = fs.readFileSync(file, 'utf8');
    const cfg = JSON.parse(text.replace(/^\s*\/\/.*$/m, '')) as Cfg;
    return { e, file, p, text, cfg };
  }

  it("adds a local switchboard MCP server to the user's opencode.json", () => {
    const { file, p, cfg } = installed();
    expect(p.changes.map((c) => c.file)).toEqual([file]);
    expect(cfg.mcp.switchboard).toEqual({
      type: 'local',
      command: [
        '/usr/bin/node',
        '--no-memory-reducer',
        '/opt/switchboard/switchboard.mjs',
        'mcp',
        '--agent',
        'opencode',
      ],
      enabled: true,
    });
  });

  it("adds the switchboard plugin after the user's plugins", () => {
    const { cfg } = installed();
    expect(cfg.plugin).toEqual(['opencode-wakatime', `/opt/switchboard/${OPENCODE_PLUGIN}`]);
  });

  it("keeps the user's comments and MCP servers", () => {
    const { text, cfg } = installed();
    expect(text).toContain("// the user's own");
    expect(cfg.mcp.theirs).toEqual({ type: 'remote', url: 'http://example.invalid/mcp' });
  });

  it('a second setup plans no change', () => {
    const { e } = installed();
    expect(plan('opencode', e, false).changes).toEqual([]);
  });

  it('uninstall removes only its own entries', () => {
    const { dir, e } = world();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'opencode.json'), USER);
    applyChanges(plan('opencode', e, false).changes, new Date(0));
    applyChanges(plan('opencode', e, true).changes, new Date(1));
    const cfg = JSON.parse(fs.readFileSync(path.join(dir, 'opencode.json'), 'utf8').replace(/^\s*\/\/.*$/m, '')) as Cfg;
    expect(cfg.mcp).toEqual({ theirs: { type: 'remote', url: 'http://example.invalid/mcp' } });
    expect(cfg.plugin).toEqual(['opencode-wakatime']);
  });

  it('writes opencode.json when none exists, and removes the keys it added on uninstall', () => {
    const { dir, e } = world();
    applyChanges(plan('opencode', e, false).changes, new Date(0));
    expect(fs.existsSync(path.join(dir, 'opencode.json'))).toBe(true);
    applyChanges(plan('opencode', e, true).changes, new Date(1));
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'opencode.json'), 'utf8'))).toEqual({});
  });

  it('edits the file OpenCode reads first, under XDG_CONFIG_HOME', () => {
    const xdg = path.join(tempDirs().root, 'xdg');
    const { dir, e } = world({ XDG_CONFIG_HOME: xdg });
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'opencode.jsonc'), '{}\n');
    fs.writeFileSync(path.join(dir, 'config.json'), '{}\n');
    expect(plan('opencode', e, false).changes.map((c) => c.file)).toEqual([path.join(dir, 'opencode.jsonc')]);
  });

  it('refuses a "switchboard" MCP server it did not write', () => {
    const { dir, e } = world();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'opencode.json'), '{"mcp":{"switchboard":{"type":"remote","url":"http://x"}}}');
    expect(() => plan('opencode', e, false)).toThrow(SetupError);
    expect(() => plan('opencode', e, false)).toThrow(/did not add/);
  });
});
