// `switchboard setup` and what is the user's (found by a red-team pass): a
// user's handler in the same hook group as ours was deleted with our group,
// on setup and on uninstall; a symlinked settings.json (dotfiles) was
// replaced by a regular file; a `hooks.<event>` that is not a list was
// overwritten, and some unparseable shapes failed without naming the file.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/hub.js';

type Settings = { hooks?: Record<string, Array<{ hooks: Array<{ command?: string }> }>> };

function home(settings: string): { dir: string; file: string; env: NodeJS.ProcessEnv } {
  const dir = tempDirs().root;
  fs.mkdirSync(path.join(dir, '.claude'));
  const file = path.join(dir, '.claude', 'settings.json');
  fs.writeFileSync(file, settings);
  return { dir, file, env: { PATH: process.env.PATH, HOME: dir } };
}

const commands = (file: string, event: string): string[] =>
  ((parseJsonc(fs.readFileSync(file, 'utf8')) as Settings).hooks?.[event] ?? []).flatMap((g) =>
    g.hooks.map((h) => h.command ?? ''),
  );

describe('setup keeps what is the user’s', () => {
  it("a user's handler in our hook group survives setup again and uninstall", async () => {
    const h = home('{}\n');
    expect((await runCli(['setup', 'claude-code'], h.env)).code).toBe(0);
    const cfg = parseJsonc(fs.readFileSync(h.file, 'utf8')) as Settings;
    cfg.hooks!.Stop![0]!.hooks.push({ type: 'command', command: 'notify-send done' } as { command: string });
    fs.writeFileSync(h.file, JSON.stringify(cfg, null, 2));
    expect((await runCli(['setup', 'claude-code'], h.env)).code).toBe(0);
    expect(commands(h.file, 'Stop')).toContain('notify-send done');
    expect(commands(h.file, 'Stop').filter((c) => c.includes('switchboard'))).toHaveLength(1);
    expect((await runCli(['setup', 'claude-code', '--uninstall'], h.env)).code).toBe(0);
    expect(commands(h.file, 'Stop')).toEqual(['notify-send done']);
  });

  it('a symlinked settings.json stays a link; the file it points to is edited', async () => {
    const h = home('{}\n');
    const target = path.join(h.dir, 'dotfiles', 'claude-settings.json');
    fs.mkdirSync(path.dirname(target));
    fs.writeFileSync(target, '{ "theme": "dark" }\n');
    fs.rmSync(h.file);
    fs.symlinkSync(target, h.file);
    expect((await runCli(['setup', 'claude-code'], h.env)).code).toBe(0);
    expect(fs.lstatSync(h.file).isSymbolicLink()).toBe(true);
    expect(commands(target, 'Stop').some((c) => c.includes('switchboard'))).toBe(true);
    expect((parseJsonc(fs.readFileSync(target, 'utf8')) as { theme: string }).theme).toBe('dark');
  });

  it('a hooks.Stop that is not a list is refused, naming the file, and nothing is changed', async () => {
    const text = '{ "hooks": { "Stop": { "mine": true } } }\n';
    const h = home(text);
    const r = await runCli(['setup', 'claude-code', '--json'], h.env);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { reason: 'setup_refused' } });
    expect(r.stdout).toContain(h.file);
    expect(fs.readFileSync(h.file, 'utf8')).toBe(text);
  });
});
