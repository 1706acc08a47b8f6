// `setup` run through npx writes hooks and an MCP server that name
// npx's temporary copy of the bundle; it says so (and what to do) on stderr,
// and stays quiet when run from anywhere else.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/hub.js';

/** A copy of the built CLI at `<root>/<...where>/dist/cli/switchboard.mjs`. */
function copyOfCli(root: string, ...where: string[]): string {
  const dir = path.join(root, ...where, 'dist', 'cli');
  fs.cpSync(path.dirname(CLI), dir, { recursive: true });
  return path.join(dir, path.basename(CLI));
}

describe('setup from npx', () => {
  it("warns that the hooks would name npx's cache, and writes them as asked", async () => {
    const dirs = tempDirs();
    const cli = copyOfCli(dirs.root, '.npm', '_npx', '3f2a', 'node_modules', 'switchboard');
    const env = { PATH: '/usr/bin:/bin', HOME: dirs.root };
    const r = await runCli(['setup', 'claude-code', '--dry-run'], env, 60_000, '', cli);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`runs from npx's cache (${cli})`);
    expect(r.stderr).toContain('npm install -g');
    expect(r.stdout).toContain(path.join(path.dirname(cli), 'switchboard-hook.cjs'));
  });

  it('is quiet for an installed copy', async () => {
    const dirs = tempDirs();
    const cli = copyOfCli(dirs.root, 'lib', 'node_modules', 'switchboard');
    const r = await runCli(
      ['setup', 'claude-code', '--dry-run'],
      { PATH: '/usr/bin:/bin', HOME: dirs.root },
      60_000,
      '',
      cli,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
  });
});
