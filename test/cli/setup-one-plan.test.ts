// One setup plan, whichever way it is asked for. A Claude Code
// 2.1.332 on PATH (a fake that answers only `--version`): the UI's
// `setup.plan` through a real `serve` and `switchboard setup claude-code
// --dry-run` plan the same change — the newer hook forms (mcp_tool, no
// PostToolUse hook per tool call) — and the UI is told the version it found.
// `setup.apply` writes exactly that. A claude that cannot say its version
// gets command hooks both ways.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HubClient } from '../../core/client/client.js';
import { cliEnv, runCli, serveCli, type Served } from '../helpers/cli.js';
import { tempDirs } from '../helpers/hub.js';

const served: Served[] = [];
afterEach(async () => {
  for (const s of served.splice(0)) await s.stop();
});

function world(claudeScript: string): { env: NodeJS.ProcessEnv; root: string } {
  const dirs = tempDirs();
  const bin = path.join(dirs.root, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'claude'), claudeScript, { mode: 0o755 });
  return { env: cliEnv(dirs, { PATH: `${bin}${path.delimiter}/usr/bin${path.delimiter}/bin` }), root: dirs.root };
}

const CLAUDE_2_1_332 =
  '#!/bin/sh\n[ "$1" = "--version" ] && { echo "2.1.332 (Claude Code)"; exit 0; }\necho "must not run: $*" >&2\nexit 3\n';

async function uiPlan(env: NodeJS.ProcessEnv, method: 'setup.plan' | 'setup.apply') {
  const hub = await serveCli(env);
  served.push(hub);
  const client = await HubClient.connect(hub.ready.socket, { timeoutMs: 30_000 });
  try {
    return await client.call(method, { uiToken: hub.ready.uiToken, agent: 'claude-code' });
  } finally {
    client.close();
  }
}

describe('one setup plan for the CLI and the UI', () => {
  it('for Claude Code 2.1.332 the UI’s setup.plan is the CLI’s dry run, with the version found', async () => {
    const { env } = world(CLAUDE_2_1_332);
    const cli = await runCli(['setup', 'claude-code', '--dry-run', '--json'], env);
    expect(cli.code).toBe(0);
    const cliDiff = (JSON.parse(cli.stdout) as { diff: string[] }).diff;
    const ui = await uiPlan(env, 'setup.plan');
    expect('agentVersion' in ui && ui.agentVersion, 'the UI learns the version').toBe('2.1.332');
    if (!('changes' in ui)) throw new Error('setup.plan answered without changes');
    expect(
      ui.changes.map((c) => c.diff),
      'the same plan both ways',
    ).toEqual(cliDiff);
    const settings = ui.changes.find((c) => c.file.endsWith('settings.json'))!.diff;
    expect(settings, 'mcp_tool hooks').toContain('"mcp_tool"');
    expect(settings, 'no PostToolUse hook').not.toContain('PostToolUse');
  });

  it('setup.apply writes that plan', async () => {
    const { env, root } = world(CLAUDE_2_1_332);
    await uiPlan(env, 'setup.apply');
    const written = fs.readFileSync(path.join(root, 'claude', 'settings.json'), 'utf8');
    expect(written).toContain('"mcp_tool"');
    expect(written).not.toContain('PostToolUse');
  });

  it('a claude that cannot say its version gets command hooks both ways', async () => {
    const old = world('#!/bin/sh\nexit 1\n');
    const cli = JSON.parse((await runCli(['setup', 'claude-code', '--dry-run', '--json'], old.env)).stdout) as {
      diff: string[];
    };
    const ui = await uiPlan(old.env, 'setup.plan');
    if (!('changes' in ui)) throw new Error('setup.plan answered without changes');
    expect(ui.agentVersion).toBeNull();
    expect(ui.changes.map((c) => c.diff)).toEqual(cli.diff);
    expect(cli.diff.join('\n')).toContain('PostToolUse');
    expect(cli.diff.join('\n')).not.toContain('"mcp_tool"');
  });
});
