// `switchboard setup claude-code` writes the fastest hook form the
// installed Claude Code runs. 2.1.118 and later: mcp_tool hooks (the running
// `switchboard` MCP server's switchboard_hook tool) after tools and at stop,
// commands for SessionStart/SessionEnd and for UserPromptSubmit (its input is
// the verified permission mode of a session started without a flag; what the
// MCP tool reports the model could have sent); older or unknown versions:
// commands.
// 2.1.332 and later: no PostToolUse hook (the hub hands a busy turn its
// messages through Claude Code's own socket) unless --post-tool-hook.
// The version comes from `claude --version` on PATH or --agent-version.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { versionAtLeast } from '../../core/kit/version.js';
import { runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/hub.js';

type Settings = { hooks?: Record<string, Array<{ matcher?: string; hooks: Array<Record<string, unknown>> }>> };

function home(): { env: NodeJS.ProcessEnv; settings: () => Settings; bin: string } {
  const d = tempDirs();
  const bin = path.join(d.root, 'bin');
  fs.mkdirSync(bin);
  const env = { PATH: `${bin}:/usr/bin:/bin`, HOME: d.root };
  return {
    env,
    bin,
    settings: () => JSON.parse(fs.readFileSync(path.join(d.root, '.claude', 'settings.json'), 'utf8')) as Settings,
  };
}

describe('Claude Code hook forms by version', () => {
  it('2.1.118 (detected with `claude --version`) gets mcp_tool hooks only after tools and at stop', async () => {
    const h = home();
    fs.writeFileSync(path.join(h.bin, 'claude'), '#!/bin/sh\necho "2.1.118 (Claude Code)"\n', { mode: 0o755 });
    const r = await runCli(['setup', 'claude-code'], h.env);
    expect(r.code, r.stderr).toBe(0);
    const hooks = h.settings().hooks!;
    for (const [event, ours] of [
      ['PostToolUse', 'post-tool'],
      ['Stop', 'stop'],
    ] as const) {
      expect(hooks[event]).toEqual([
        {
          ...(event === 'PostToolUse' ? { matcher: '*' } : {}),
          hooks: [
            {
              type: 'mcp_tool',
              server: 'switchboard',
              tool: 'switchboard_hook',
              input: { event: ours, permission_mode: '${permission_mode}', stop_hook_active: '${stop_hook_active}' },
              timeout: 10,
            },
          ],
        },
      ]);
    }
    for (const event of ['SessionStart', 'UserPromptSubmit', 'SessionEnd'])
      expect(hooks[event], `${event}: a command hook`).toEqual([
        {
          hooks: [
            {
              type: 'command',
              command: expect.stringMatching(
                /switchboard-hook\.cjs" (session-start|prompt-submit|session-end) --agent claude$/,
              ) as unknown,
              timeout: 10,
            },
          ],
        },
      ]);
  });

  it('setup for an older version replaces our mcp_tool hooks with commands, doubling nothing', async () => {
    const h = home();
    expect((await runCli(['setup', 'claude-code', '--agent-version', '2.1.118'], h.env)).code).toBe(0);
    const older = await runCli(['setup', 'claude-code', '--agent-version', '2.1.117'], h.env);
    expect(older.code, older.stderr).toBe(0);
    const after = h.settings().hooks!;
    for (const event of ['UserPromptSubmit', 'PostToolUse', 'Stop']) {
      expect(after[event]).toHaveLength(1);
      expect(after[event]![0]!.hooks[0]).toMatchObject({ type: 'command' });
    }
  });

  it('uninstall removes the mcp_tool form too', async () => {
    const h = home();
    await runCli(['setup', 'claude-code', '--agent-version', '2.1.332'], h.env);
    expect(JSON.stringify(h.settings())).toContain('mcp_tool');
    expect((await runCli(['setup', 'claude-code', '--uninstall'], h.env)).code).toBe(0);
    expect(h.settings().hooks).toBeUndefined();
  });

  /** A 2.1.332 `claude` on PATH, settings from a 2.1.118 setup plus a PostToolUse hook of the user's own. */
  async function earlierSetupWithOwnHook() {
    const h = home();
    fs.writeFileSync(path.join(h.bin, 'claude'), '#!/bin/sh\necho "2.1.332 (Claude Code)"\n', { mode: 0o755 });
    expect((await runCli(['setup', 'claude-code', '--agent-version', '2.1.118'], h.env)).code).toBe(0);
    const file = path.join(h.env.HOME!, '.claude', 'settings.json');
    const withOwn = h.settings();
    withOwn.hooks!.PostToolUse!.push({ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo mine' }] });
    fs.writeFileSync(file, JSON.stringify(withOwn, null, 2));
    return h;
  }

  it('2.1.332 gets no PostToolUse hook of ours, even one an earlier setup wrote', async () => {
    const h = await earlierSetupWithOwnHook();
    const r = await runCli(['setup', 'claude-code'], h.env);
    expect(r.code, r.stderr).toBe(0);
    const hooks = h.settings().hooks!;
    expect(hooks.PostToolUse, 'only the user’s own').toEqual([
      { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo mine' }] },
    ]);
    expect(hooks.Stop![0]!.hooks[0]).toMatchObject({ type: 'mcp_tool' });
    expect(hooks.UserPromptSubmit![0]!.hooks[0]).toMatchObject({ type: 'command' });
  });

  it('--post-tool-hook keeps our PostToolUse hook on 2.1.332', async () => {
    const h = await earlierSetupWithOwnHook();
    expect((await runCli(['setup', 'claude-code'], h.env)).code).toBe(0);
    expect((await runCli(['setup', 'claude-code', '--post-tool-hook'], h.env)).code).toBe(0);
    expect(h.settings().hooks!.PostToolUse!.map((g) => g.hooks[0]!.type)).toEqual(['command', 'mcp_tool']);
    expect((await runCli(['setup', 'claude-code', '--uninstall'], h.env)).code).toBe(0);
    expect(h.settings().hooks!.PostToolUse, 'uninstall keeps the user’s own').toEqual([
      { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo mine' }] },
    ]);
  });

  it('--post-tool-hook for another agent is a usage error', async () => {
    const codex = await runCli(['setup', 'codex', '--post-tool-hook'], home().env);
    expect(codex.code, 'a flag of another agent is a usage error').toBe(2);
    expect(codex.stderr).toMatch(/--post-tool-hook applies to claude-code only/);
  });

  it('no claude on PATH (version unknown): command hooks', async () => {
    const h = home();
    expect((await runCli(['setup', 'claude-code'], h.env)).code).toBe(0);
    expect(JSON.stringify(h.settings())).not.toContain('mcp_tool');
    expect(h.settings().hooks!.PostToolUse![0]!.hooks[0]).toMatchObject({ type: 'command' });
  });

  it('a malformed --agent-version is a usage error, nothing written', async () => {
    const h = home();
    const r = await runCli(['setup', 'claude-code', '--agent-version', 'latest; rm -rf'], h.env);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--agent-version must look like 2\.1\.118/);
    expect(fs.existsSync(path.join(h.env.HOME!, '.claude', 'settings.json'))).toBe(false);
  });

  it('compares versions numerically', () => {
    expect(versionAtLeast('2.1.118', '2.1.118')).toBe(true);
    expect(versionAtLeast('2.1.332', '2.1.118')).toBe(true);
    expect(versionAtLeast('2.1.99', '2.1.118')).toBe(false);
    expect(versionAtLeast('2.2.0', '2.1.118')).toBe(true);
    expect(versionAtLeast('v3', '2.1.118')).toBe(true);
    expect(versionAtLeast('unknown', '2.1.118')).toBe(false);
  });
});
