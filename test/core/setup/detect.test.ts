// Agent detection for the first-run page, on real files: a temp HOME and a
// PATH of fake executables. Only executables count; setup already applied
// reads as configured (for Claude Code, against the plan for the version it
// says); a configuration that does not parse is a problem.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { plan, type SetupEnv } from '../../../core/setup/agents.js';
import { detectAgents, which } from '../../../core/setup/detect.js';
import { planSetup, withVersions } from '../../../core/setup/planning.js';
import { applyChanges } from '../../../core/setup/edit.js';
import { tempDirs } from '../../helpers/hub.js';

function world(): { root: string; bin: string; env: SetupEnv } {
  const root = tempDirs().root;
  const bin = path.join(root, 'bin');
  fs.mkdirSync(bin);
  const env: SetupEnv = {
    home: root,
    env: { PATH: `relative/bin${path.delimiter}${path.join(root, 'nowhere')}${path.delimiter}${bin}` },
    node: '/usr/bin/node',
    script: '/opt/switchboard/switchboard.mjs',
  };
  return { root, bin, env };
}

function fakeExe(file: string, mode = 0o755): void {
  fs.writeFileSync(file, '#!/bin/sh\nexit 0\n', { mode });
}

describe('detectAgents', () => {
  it('finds only executables on absolute PATH entries', () => {
    const { root, bin, env } = world();
    fakeExe(path.join(bin, 'claude'));
    fakeExe(path.join(bin, 'gemini'), 0o644); // not executable
    fs.mkdirSync(path.join(bin, 'codex')); // a directory, not a program
    fs.mkdirSync(path.join(root, 'relative', 'bin'), { recursive: true });
    fakeExe(path.join(root, 'relative', 'bin', 'codex'));
    const found = detectAgents(env);
    expect(found.map((a) => [a.agent, a.command, a.path])).toEqual([
      ['claude-code', 'claude', path.join(bin, 'claude')],
      ['codex', 'codex', null],
      ['gemini', 'gemini', null],
      ['opencode', 'opencode', null],
      ['qwen', 'qwen', null],
    ]);
    expect(found.every((a) => !a.configured && a.problem === null)).toBe(true);
    expect(which('claude', undefined)).toBeNull();
  });

  it('reads an agent as configured once setup is applied, and reports a file that does not parse', () => {
    const { root, bin, env } = world();
    for (const c of ['claude', 'codex', 'gemini']) fakeExe(path.join(bin, c));
    applyChanges(plan('codex', env, false).changes, new Date(0));
    fs.mkdirSync(path.join(root, '.gemini'));
    fs.writeFileSync(path.join(root, '.gemini', 'settings.json'), '{ "theme": ');
    const found = Object.fromEntries(detectAgents(env).map((a) => [a.agent, a]));
    expect(found.codex).toMatchObject({ configured: true, problem: null });
    expect(found['claude-code']).toMatchObject({ configured: false, problem: null });
    expect(found.gemini!.configured).toBe(false);
    expect(found.gemini!.problem).toMatch(/settings\.json does not parse/);
    expect(fs.readFileSync(path.join(root, '.gemini', 'settings.json'), 'utf8')).toBe('{ "theme": ');
  });

  it('reads Claude Code set up for its version as configured: the plan Apply wrote for 2.1.332', async () => {
    const { bin, env } = world();
    fs.writeFileSync(path.join(bin, 'claude'), '#!/bin/sh\necho "2.1.332 (Claude Code)"\n', { mode: 0o755 });
    const { plan: written, agentVersion } = await planSetup('claude-code', env, {});
    expect(agentVersion).toBe('2.1.332');
    applyChanges(written.changes, new Date(0));
    const claude = (await withVersions(detectAgents(env), env)).find((a) => a.agent === 'claude-code')!;
    expect(claude).toMatchObject({ version: '2.1.332', configured: true });
  });

  it('reads an entry written before the adapter flags as configured, and one that differs otherwise as not', () => {
    const { root, bin, env } = world();
    for (const c of ['codex', 'gemini']) fakeExe(path.join(bin, c));
    const strip = (t: string | null): string =>
      (t ?? '').replaceAll('"--no-memory-reducer", ', '').replaceAll('"--no-memory-reducer",\n', '');
    // What setup wrote before ADAPTER_NODE_FLAGS: the same entries without the flag.
    const codex = plan('codex', env, false).changes.map((c) => ({ ...c, after: strip(c.after) }));
    applyChanges(codex, new Date(0));
    expect(fs.readFileSync(path.join(root, '.codex', 'config.toml'), 'utf8')).not.toContain('--no-memory-reducer');
    const gemini = plan('gemini', env, false).changes.map((c) => ({
      ...c,
      after: strip(c.after).replace('"mcp"', '"mcpx"'),
    }));
    applyChanges(gemini, new Date(0));
    const found = Object.fromEntries(detectAgents(env).map((a) => [a.agent, a]));
    expect(found.codex).toMatchObject({ configured: true, problem: null });
    expect(found.gemini).toMatchObject({ configured: false });
    // `switchboard setup` still offers the flag.
    expect(plan('codex', env, false).changes.map((c) => c.file)).toEqual([path.join(root, '.codex', 'config.toml')]);
  });
});
