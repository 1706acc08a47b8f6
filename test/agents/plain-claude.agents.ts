// A plain `claude` learns its mode, with the real Claude Code 2.1.332, interactive in tmux, offline
// against the scripted model, Switchboard set up by `switchboard setup`: a
// session started as plain `claude` (no permission flag) is "mode unknown"
// only until its first prompt, whose UserPromptSubmit command hook tells the
// hub its mode (auto, prompting; source "hook"). From then on a prompting
// peer's message is queued, not held, and wakes the idle session. Started
// with only --allow-dangerously-skip-permissions and switched to bypass with
// Shift+Tab, its next prompt makes it bypass, and a prompting peer's message
// is held by mode parity (not for being unknown).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentRow, InboxItem, SendResult } from '../../core/protocol/methods.js';
import { CLI, runCli } from '../helpers/cli.js';
import { until } from '../helpers/hub.js';
import { agentCommand } from './harness/binaries.js';
import { startInteractiveClaude, type Pane } from './harness/interactive.js';
import { rowsOf, sessionsOf, switchboardRow, waitInbox } from './harness/observe.js';
import { OPTED_OUT } from './harness/opt-out.js';
import { PROFILES } from './harness/profiles.js';
import { typeLine } from './harness/type.js';
import { startWorld, type World } from './harness/world.js';
import type { ModelRequest, Step } from './model/server.js';

let w: World | undefined;
let pane: Pane | undefined;
afterEach(async () => {
  await pane?.stop();
  await w?.close();
  pane = undefined;
  w = undefined;
});

const receiptFor = (r: SendResult, status: string) => (i: InboxItem) =>
  i.kind === 'receipt' && i.origMsgId === r.msg_id && i.status === status;

interface Arrival {
  at: number;
  req: ModelRequest;
  /** The agent's Switchboard row when the request arrived (its prompt's hooks have run). */
  row: AgentRow | undefined;
}

/** `switchboard setup claude-code` as a user runs it, `claude` on PATH: setup reads its version and writes 2.1.332's hook forms. */
async function setupClaude(world: World): Promise<void> {
  PROFILES.claude.seed(world.home);
  const PATH = `${path.dirname(agentCommand('claude')[0]!)}:${process.env.PATH ?? '/usr/bin:/bin'}`;
  const cli = process.env.SWITCHBOARD_AGENTS_CLI ?? CLI; // an old build's setup, to see these tests fail there
  const r = await runCli(['setup', 'claude-code'], { ...world.env, PATH }, undefined, '', cli);
  if (r.code !== 0) throw new Error(`setup failed: ${r.stderr}${r.stdout}`);
  const settings = fs.readFileSync(path.join(world.home, '.claude', 'settings.json'), 'utf8');
  expect(settings, 'setup detected 2.1.332 (mcp_tool hooks)').toContain('"mcp_tool"');
}

/** A flag-less interactive Claude Code with Switchboard; every model request records the row as it was then. */
async function plainClaude(name: string, extraArgs: string[] = []) {
  w = await startWorld();
  const world = w;
  await setupClaude(world);
  const arrivals: Arrival[] = [];
  const cwd = (): string => pane!.cwd;
  const step: Step = async (req) => {
    const at = Date.now();
    const row = (await rowsOf(world, cwd())).find((r) => r.kind === 'switchboard');
    arrivals.push({ at, req, row });
    return { text: 'Noted.' };
  };
  pane = await startInteractiveClaude(world, { name, steps: [step, step, step, step], mode: 'none', extraArgs });
  const p = pane;
  const row = await switchboardRow(world, p.cwd, 30_000);
  return { world, p, label: row.label, arrivals };
}

/** Types a prompt into the pane and waits for the model request it makes. */
async function prompt(p: Pane, arrivals: Arrival[], text: string): Promise<Arrival> {
  await typeLine(p, text, () => arrivals.some((a) => a.req.context.includes(text)));
  return arrivals.find((a) => a.req.context.includes(text))!;
}

/** Waits until the session is idle and the hub can wake it through Claude Code's own socket. */
async function idleWakeable(world: World, cwd: string): Promise<void> {
  await until(() => {
    const s = sessionsOf(world, cwd)[0];
    return s !== undefined && s.state === 'idle' && world.hub.hub.wake.routeFor(s).kind === 'claude-socket';
  }, 30_000);
}

/** The pane's bottom line, where Claude Code shows its mode ("⏵⏵ auto mode on", "⏸ plan mode on", …). */
const modeLine = (p: Pane): string => p.screen().trimEnd().split('\n').at(-1)!.trim();

describe.skipIf(OPTED_OUT)('Claude Code 2.1.332 started as plain `claude` (no permission flag)', () => {
  it('its first prompt’s hook tells its mode (auto), so a prompting peer’s message wakes it', async () => {
    const { world, p, label, arrivals } = await plainClaude('plain');
    const before = (await rowsOf(world, p.cwd)).find((r) => r.kind === 'switchboard')!;
    expect(before, 'nothing has told its mode yet').toMatchObject({
      mode: 'unknown',
      modeClass: 'unknown',
      modeSource: null,
    });
    const first = await prompt(p, arrivals, `first prompt ${Date.now()}`);
    expect(first.row, 'its UserPromptSubmit hook told the mode').toMatchObject({
      mode: 'auto',
      modeClass: 'prompting',
      modeSource: 'hook',
    });
    await idleWakeable(world, p.cwd);
    const alice = await world.register('alice'); // prompting
    const text = `wake up ${Date.now()}`;
    const t0 = Date.now();
    const sent = await world.client.call('message.send', {
      sessionId: alice.sessionId,
      token: alice.token,
      to: label,
      summary: 'a note',
      message: text,
    });
    expect(sent.status, sent.reason).toBe('queued');
    await until(() => arrivals.some((a) => a.req.context.includes(text)), 30_000);
    const latency = arrivals.find((a) => a.req.context.includes(text))!.at - t0;
    console.log(`plain claude idle wake: message to model request in ${latency} ms`);
    await waitInbox(world.client, alice, receiptFor(sent, 'delivered'), 20_000);
    expect(p.model.errors, 'the script ran as written').toEqual([]);
  }, 240_000);

  it('switched to bypass with Shift+Tab (only --allow-dangerously-skip-permissions given): a prompting peer’s message is held by mode parity', async () => {
    const { world, p, label, arrivals } = await plainClaude('skippable', ['--allow-dangerously-skip-permissions']);
    const first = await prompt(p, arrivals, `first prompt ${Date.now()}`);
    expect(first.row, 'auto at its first prompt, from its hook').toMatchObject({
      mode: 'auto',
      modeClass: 'prompting',
      modeSource: 'hook',
    });
    await idleWakeable(world, p.cwd);
    await until(() => /auto mode on/.test(modeLine(p)));
    // Shift+Tab cycles auto → default ("manual") → acceptEdits → plan → bypassPermissions.
    const seen: string[] = [];
    for (let presses = 0; !/bypass permissions on/i.test(modeLine(p)); presses++) {
      if (presses >= 8) throw new Error(`no bypass after ${presses} Shift+Tab:\n${p.screen()}`);
      const was = modeLine(p);
      p.keys('BTab');
      // The next mode's line (every one ends "… on"), or a warning to accept.
      await until(() => p.screen().includes('Yes, I accept') || (modeLine(p) !== was && / on\b/.test(modeLine(p))));
      if (p.screen().includes('Yes, I accept')) {
        console.log(`a warning on the way to bypass:\n${p.screen()}`);
        p.keys(...(/❯\s*No, exit/.test(p.screen()) ? ['Down', 'Enter'] : ['Enter']));
        await until(() => !p.screen().includes('Yes, I accept'), 10_000);
      }
      seen.push(modeLine(p));
    }
    console.log(`Shift+Tab:\n${seen.join('\n')}`);
    const second = await prompt(p, arrivals, `second prompt ${Date.now()}`);
    expect(second.row, 'its UserPromptSubmit hook told the new mode').toMatchObject({
      mode: 'bypassPermissions',
      modeClass: 'bypass',
      modeSource: 'hook',
    });
    await idleWakeable(world, p.cwd);
    const alice = await world.register('alice'); // prompting
    const sent = await world.client.call('message.send', {
      sessionId: alice.sessionId,
      token: alice.token,
      to: label,
      summary: 'a note',
      message: `to a bypass session ${Date.now()}`,
    });
    expect(sent.status, 'a prompting peer’s message is held').toBe('held');
    expect(sent.reason, 'held by mode parity').toMatch(/bypasses permission prompts and the sender does not/);
    expect(sent.reason, 'held for its mode, not for not knowing it').not.toMatch(/unknown/);
    expect(p.model.errors, 'the script ran as written').toEqual([]);
  }, 240_000);
});
