// Running a hook command as an agent would: the bundled CLI as a child of
// this process (or of an "agent" started with one command-line flag), the
// agent's hook JSON on stdin. Shared by the hook tests in test/cli.

import fs from 'node:fs';
import type { HubClient } from '../../core/client/client.js';
import type { Registration } from '../../core/protocol/methods.js';
import { CLI, cliEnv, runNode } from './cli.js';
import type { TestDirs, TestHub } from './hub.js';

const FIX = new URL('../fixtures/hooks/', import.meta.url).pathname;

export function fixture(name: string, cwd: string, patch: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...(JSON.parse(fs.readFileSync(FIX + name, 'utf8')) as object), cwd, ...patch });
}

/** An "agent" process started with one command-line flag (argv[1]) that runs the rest as its child. */
const AGENT_WITH_FLAG = `const c = require('node:child_process').spawn(process.execPath, process.argv.slice(2), { stdio: 'inherit' });
c.on('exit', (code) => process.exit(code ?? 0));`;

export function hook(
  dirs: TestDirs,
  args: string[],
  stdin: string,
  agentFlag?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const argv =
    agentFlag === undefined ? [CLI, 'hook', ...args] : ['-e', AGENT_WITH_FLAG, '--', agentFlag, CLI, 'hook', ...args];
  return runNode(argv, cliEnv(dirs), stdin);
}

export async function peer(th: TestHub): Promise<{ c: HubClient; r: Registration }> {
  const c = await th.client();
  return { c, r: await th.register(c, { name: 'peer' }) };
}
