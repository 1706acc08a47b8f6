// What a person must still do after `switchboard setup`, checked against the
// real agent: setup's output says it, and the agent behaves as it says until
// it is done. Codex skips untrusted hooks silently in `codex exec` (setup
// names `/hooks`; the session is listed "hooks not running" and `switchboard
// status` names it). Gemini refuses to run headless in an untrusted folder
// (setup names folder trust, `--skip-trust`, GEMINI_CLI_TRUST_WORKSPACE).

import { afterEach, expect, it } from 'vitest';
import type { AgentRow } from '../../../core/protocol/methods.js';
import type { CliResult } from '../../helpers/cli.js';
import { switchboardRow } from '../harness/observe.js';
import { startWorld, type RunningAgent, type World } from '../harness/world.js';
import { AGENT_HANG_MS } from '../harness/launch.js';

const EXIT_MS = AGENT_HANG_MS;

let w: World | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

export function untrustedCodexHooks(): void {
  it('codex: until its hooks are trusted in /hooks (as setup says) its session is listed "hooks not running"', async () => {
    w = await startWorld();
    const world = w;
    const setup = await world.setup('codex');
    let row: AgentRow | undefined;
    let status: CliResult | undefined;
    const a: RunningAgent = await world.start('codex', {
      prompt: 'Look around.',
      mode: 'bypass',
      trustHooks: false,
      steps: [
        async () => {
          row = await switchboardRow(world, a.cwd, 30_000); // the MCP server's session: its hooks never run
          status = await world.cli(['status']);
          return { tool: 'switchboard_list_peers', input: {} };
        },
        { text: 'Done.' },
      ],
    });
    expect(await a.waitExit(EXIT_MS), `codex exits cleanly: ${a.output()}`).toBe(0);
    expect(setup.stdout + setup.stderr, 'setup points to /hooks').toMatch(/\/hooks/);
    expect(setup.stdout + setup.stderr, 'setup says to trust them').toMatch(/trust/i);
    // As many hooks as setup wrote (Codex has no SessionEnd hook).
    expect(setup.stdout + setup.stderr, 'setup names the hooks it wrote').toContain(
      'four Switchboard hooks (SessionStart, UserPromptSubmit, PostToolUse, Stop)',
    );
    expect(row?.hooks, `listed with hooks never run: ${JSON.stringify(row)}`).toBe('never');
    expect(status?.stdout, '`switchboard status` names it').toContain(`hooks not running: ${row!.label}`);
  }, 180_000);
}

export function untrustedGeminiFolder(): void {
  it('gemini: in an untrusted folder headless gemini refuses to run (as setup warns)', async () => {
    w = await startWorld();
    const world = w;
    const setup = await world.setup('gemini');
    const said = setup.stdout + setup.stderr;
    expect(said, 'setup says to trust the folder').toMatch(/trusted folders/i);
    expect(said, 'or to pass --skip-trust').toContain('--skip-trust');
    expect(said, 'or to set GEMINI_CLI_TRUST_WORKSPACE').toContain('GEMINI_CLI_TRUST_WORKSPACE=true');
    const a = await world.start('gemini', { prompt: 'Say hello.', untrustedFolder: true, steps: [{ text: 'Hello.' }] });
    expect(await a.waitExit(EXIT_MS), 'gemini refuses to run').not.toBe(0);
    expect(a.output(), 'it says why').toMatch(/not running in a trusted directory/);
    expect(a.output(), 'and how to trust it').toContain('--skip-trust');
    expect(a.model.main(), 'no model request').toHaveLength(0);
  }, 180_000);
}
