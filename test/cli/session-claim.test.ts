// One agent process is one session even when its MCP server and its first
// hooks start at the same moment (Claude Code starts both at once): the
// first to register claims the process, the others wait for its credentials
// and resume them. The bundled CLI as child processes against a real hub;
// the test process is the "agent" (every child's parent).
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { CLI, cliEnv } from '../helpers/cli.js';
import { startHub, type TestDirs, type TestHub } from '../helpers/hub.js';

let th: TestHub | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});

const FIX = new URL('../fixtures/hooks/', import.meta.url).pathname;
const AT_ONCE = 6;

function hook(dirs: TestDirs, event: string, stdin: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'hook', event, '--agent', 'claude'], { env: cliEnv(dirs) });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
    // A child that exits without reading its stdin (a usage error) makes this write fail with EPIPE: expected.
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

describe('one session per agent process under concurrent start-up', () => {
  it(`${AT_ONCE} hooks of one agent process started at once register one session`, async () => {
    th = await startHub();
    const dirs = th.dirs;
    const input = JSON.stringify({
      ...(JSON.parse(fs.readFileSync(FIX + 'claude-session-start.json', 'utf8')) as object),
      cwd: dirs.root,
    });
    const runs = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) => hook(dirs, i % 2 === 0 ? 'session-start' : 'prompt-submit', input)),
    );
    expect(runs.map((r) => r.code)).toEqual(Array(AT_ONCE).fill(0));
    expect(runs.map((r) => r.stderr).join('')).toBe('');
    const c = await th.client();
    const mine = (await c.call('agents.list', {})).rows.filter((r) => r.cwd === dirs.root);
    expect(mine.map((r) => r.label)).toHaveLength(1);
    expect([...th.hub.table.live.values()].filter((s) => s.pid === process.pid)).toHaveLength(1);
  });
});
