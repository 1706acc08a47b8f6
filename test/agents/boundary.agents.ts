// No process per tool call: the real Claude Code 2.1.332, set up
// by the real `switchboard setup claude-code` (which detects the version with
// `claude --version`: mcp_tool hooks at a turn's start and end, no
// PostToolUse hook), runs a scripted turn of several tool calls while every
// process it spawns is counted (its descendants, polled from /proc). It
// spawns none during the tool calls; interactive, a message sent meanwhile
// joins the very next model request through the session's own messaging
// socket (a message our policy holds does not); headless, it arrives at the
// Stop hook; either way with a `delivered` receipt. The same run with the
// command hooks (setup told the version is older) spawns at least one
// process per tool call.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboxItem, Registration, SendResult } from '../../core/protocol/methods.js';
import { runCli } from '../helpers/cli.js';
import { until } from '../helpers/hub.js';
import { startInteractiveClaude, type Pane } from './harness/interactive.js';
import { agentCommand, PINNED } from './harness/binaries.js';
import { inbox, sessionsOf, switchboardRow, waitInbox } from './harness/observe.js';
import { OPTED_OUT } from './harness/opt-out.js';
import { typeLine } from './harness/type.js';
import { PROFILES } from './harness/profiles.js';
import { startWorld, type World } from './harness/world.js';
import type { Step } from './model/server.js';
import { AGENT_HANG_MS } from './harness/launch.js';

const TOOL_CALLS = 4;
const POLL_MS = 2;

let w: World | undefined;
let pane: Pane | undefined;
afterEach(async () => {
  await pane?.stop();
  await w?.close();
  pane = undefined;
  w = undefined;
});

/** Every descendant of pid now (children of every thread, recursively). */
function descendants(pid: number, out = new Set<number>()): Set<number> {
  let tids: string[];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    let children: string;
    try {
      children = fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const c of children.trim().split(/\s+/).filter(Boolean).map(Number)) {
      if (out.has(c)) continue;
      out.add(c);
      descendants(c, out);
    }
  }
  return out;
}

function cmdline(pid: number): string {
  try {
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    // A process that already exited (a zombie) has no command line left, only its name.
    return cmd !== '' ? cmd : `[${fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim()}]`;
  } catch {
    return '(gone)';
  }
}

/** Polls the agent's process tree; spawned(from, to) lists processes first seen in that window. */
function watchSpawns(pid: number): { spawned(from: number, to: number): string[]; stop(): void } {
  const firstSeen = new Map<number, { at: number; cmd: string }>();
  const timer = setInterval(() => {
    for (const p of descendants(pid)) if (!firstSeen.has(p)) firstSeen.set(p, { at: Date.now(), cmd: cmdline(p) });
  }, POLL_MS);
  return {
    spawned: (from, to) => [...firstSeen.values()].filter((s) => s.at > from && s.at < to).map((s) => s.cmd),
    stop: () => clearInterval(timer),
  };
}

async function setupClaude(world: World, version?: string): Promise<string> {
  PROFILES.claude.seed(world.home);
  const binDir = path.dirname(agentCommand('claude')[0]!);
  const r = await runCli(['setup', 'claude-code', ...(version ? ['--agent-version', version] : [])], {
    ...world.env,
    PATH: `${binDir}:${process.env.PATH ?? '/usr/bin:/bin'}`,
  });
  if (r.code !== 0) throw new Error(`setup failed: ${r.stderr}${r.stdout}`);
  return fs.readFileSync(path.join(world.home, '.claude', 'settings.json'), 'utf8');
}

interface TurnResult {
  spawned: string[];
  /** The agent's own command line (a fork shows it until it execs). */
  agentCommand: string;
  sent: SendResult | undefined;
  held: SendResult | undefined;
  text: string;
  heldText: string;
  contexts: string[];
  /** `delivered` receipts the sender got for the message. */
  delivered: number;
  alice: Registration;
}

/**
 * A turn of TOOL_CALLS Claude Code `Read` calls (no process, and not a Switchboard tool, whose results carry
 * messages too); during the first, alice sends a message and bob (bypass: our policy holds it for a prompting
 * receiver) another. Interactive (typed into the tmux pane) or headless (`claude -p`). Returns what spawned
 * between the first and the last model request, and every main request's context.
 */
async function scriptedTurn(
  world: World,
  how: 'interactive' | 'headless',
  settle: 'delivered' | 'held' = 'delivered',
): Promise<TurnResult> {
  const alice = await world.register('alice');
  const bob = await world.register('bob', true);
  const text = `during the tools ${Date.now()}`;
  const heldText = `held during the tools ${Date.now()}`;
  let sent: SendResult | undefined;
  let held: SendResult | undefined;
  const marks: number[] = [];
  const name = `turn-${how}`;
  const cwd = path.join(world.root, `w-${name}`);
  fs.mkdirSync(cwd, { recursive: true });
  fs.writeFileSync(path.join(cwd, 'notes.txt'), 'nothing to see\n');
  const steps: Step[] = [];
  for (let i = 0; i < TOOL_CALLS; i++) {
    steps.push(async () => {
      marks.push(Date.now());
      if (i === 0) {
        const row = await switchboardRow(world, cwd);
        const msg = { to: row.label, summary: 'a note' };
        sent = await world.client.call('message.send', { ...auth(alice), ...msg, message: text });
        held = await world.client.call('message.send', { ...auth(bob), ...msg, message: heldText });
        // Interactive: the hub writes it to the busy session's socket (once its Claude Code says busy); then the tool call goes.
        const id = sessionsOf(world, cwd)[0]!.id;
        if (how === 'interactive')
          await until(
            () => !world.hub.hub.mailboxes.unclaimedMessages(id, 5).some((m) => m.id === sent!.msg_id),
            5000,
          ).catch(() => undefined);
      }
      return { tool: 'Read', input: { file_path: path.join(cwd, 'notes.txt') } };
    });
  }
  // Headless, the Stop hook hands the message over and keeps the turn going once.
  for (let i = 0; i < 2; i++) steps.push(() => (marks.push(Date.now()), { text: 'Done.' }));
  let pid: number;
  let contexts: () => string[];
  let finished: () => Promise<void>;
  let errors: () => unknown[];
  if (how === 'headless') {
    const a = await world.start('claude', { prompt: 'Look around a few times.', steps, cwd, name });
    pid = a.pid;
    contexts = () => a.model.main().map((r) => r.context);
    errors = () => a.model.errors;
    finished = async () => expect(await a.waitExit(AGENT_HANG_MS), a.output()).toBe(0);
  } else {
    pane = await startInteractiveClaude(world, { name, steps });
    const p = pane;
    pid = p.pid;
    contexts = () => p.model.main().map((r) => r.context);
    errors = () => p.model.errors;
    await switchboardRow(world, cwd, 30_000);
    // Typed once the spawn watch below runs; done when its Stop hook reported after the turn's last model request.
    finished = async () => {
      await typeLine(p, 'Look around a few times.', () => contexts().length > 0);
      await until(() => {
        const s = sessionsOf(world, cwd)[0];
        return (
          contexts().length >= TOOL_CALLS + 1 &&
          s?.state === 'idle' &&
          s.hooksSeenAt !== null &&
          s.hooksSeenAt >= marks.at(-1)!
        );
      }, AGENT_HANG_MS);
    };
  }
  const watch = watchSpawns(pid);
  try {
    await finished();
  } finally {
    watch.stop();
  }
  expect(errors(), 'the script ran as written').toEqual([]);
  // From the answer to the first tool-call request to the last request: tool calls and their boundaries only.
  const spawned = watch.spawned(marks[0]!, marks.at(-1)!);
  if (sent !== undefined)
    await waitInbox(
      world.client,
      alice,
      (i: InboxItem) => i.kind === 'receipt' && i.origMsgId === sent!.msg_id && i.status === settle,
      20_000,
    );
  const delivered = (await inbox(world.client, alice)).filter(
    (i) => i.kind === 'receipt' && i.origMsgId === sent?.msg_id && i.status === 'delivered',
  ).length;
  return { spawned, agentCommand: cmdline(pid), sent, held, text, heldText, contexts: contexts(), delivered, alice };
}

const auth = (r: Registration) => ({ sessionId: r.sessionId, token: r.token });
const once = (haystack: string, needle: string): number => haystack.split(needle).length - 1;

describe.skipIf(OPTED_OUT)(`Claude Code ${PINNED.claude}: turn boundaries`, () => {
  it('interactive (set up for 2.1.332): a message sent during a turn of tool calls joins the next model request without a process per call', async () => {
    w = await startWorld();
    const settings = JSON.parse(await setupClaude(w)) as {
      hooks: Record<string, Array<{ hooks: Array<Record<string, unknown>> }>>;
    };
    expect(settings.hooks.Stop![0]!.hooks[0], 'an mcp_tool hook at the turn’s end').toMatchObject({
      type: 'mcp_tool',
      server: 'switchboard',
      tool: 'switchboard_hook',
      input: { event: 'stop' },
    });
    expect(
      settings.hooks.UserPromptSubmit![0]!.hooks[0],
      'a command hook at the turn’s start (its verified mode)',
    ).toMatchObject({
      type: 'command',
    });
    expect(settings.hooks.PostToolUse, 'no hook runs per tool call').toBeUndefined();
    expect(settings.hooks.SessionStart![0]!.hooks[0], 'a command hook at session start').toMatchObject({
      type: 'command',
    });
    const r = await scriptedTurn(w, 'interactive');
    expect(r.sent?.status, 'our policy lets it through').toBe('queued');
    expect(r.held?.status, 'our policy holds it first').toBe('held');
    // The message that joined the turn through Claude Code's socket is a prompt to it: its UserPromptSubmit command
    // hook (the verified mode) runs once for it — seen as Claude Code's fork before the exec, the `sh -c` wrapper,
    // the node process, or as a zombie by name when it ended before the poll. Nothing else, and not per tool call:
    // a hook per tool call would be at least TOOL_CALLS invocations.
    const promptHook = (c: string): boolean => /switchboard-hook\.cjs["']? prompt-submit /.test(c);
    const agentFork = (c: string): boolean => c.startsWith(r.agentCommand);
    const exited = (c: string): boolean => /^\[(node|sh|claude)\]$/.test(c);
    expect(
      r.spawned.filter((c) => !promptHook(c) && !agentFork(c) && !exited(c) && c !== '(gone)'),
      `processes spawned during ${TOOL_CALLS} tool calls`,
    ).toEqual([]);
    expect(
      r.spawned.filter((c) => promptHook(c) || exited(c) || c === '(gone)').length,
      `one prompt hook (at most its wrapper and node), not one per tool call: ${JSON.stringify(r.spawned)}`,
    ).toBeLessThanOrEqual(2);
    const first = r.contexts.findIndex((c) => c.includes(r.text));
    expect(first, 'the message joined the request right after the first tool call (Read results carry nothing)').toBe(
      1,
    );
    expect(r.contexts[1], 'not through a hook').not.toContain('hook additional context');
    expect(r.contexts[1], 'inside our untrusted framing').toMatch(/<cross-session-message [^>]*from-name="alice"/);
    expect(once(r.contexts.at(-1)!, r.text), 'handed over once').toBe(1);
    expect(r.delivered, 'one delivered receipt').toBe(1);
    expect(
      r.contexts.some((c) => c.includes(r.heldText)),
      'a message our policy holds never reaches the model',
    ).toBe(false);
  }, 240_000);

  it("with Claude Code's own inbound rules set to hold (interactive): a mid-turn message stays held by Claude Code", async () => {
    w = await startWorld();
    await setupClaude(w);
    const file = path.join(w.home, '.claude', 'settings.json');
    const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify({ ...settings, crossSessionInbound: 'hold' }, null, 2));
    const r = await scriptedTurn(w, 'interactive', 'held');
    expect(r.sent?.status, 'our policy let it through').toBe('queued');
    expect(
      r.contexts.some((c) => c.includes(r.text)),
      'Claude Code held it for its user',
    ).toBe(false);
    // Its Stop hook reported (scriptedTurn waits for that report): a report that settled it would have acknowledged it.
    const receiver = sessionsOf(w, path.join(w.root, 'w-turn-interactive'))[0]!;
    expect(
      w.hub.hub.mailboxes.sender(receiver.id, r.sent!.msg_id),
      'its Stop hook report left it unacknowledged in the inbox',
    ).toBeDefined();
    const receipts = (await inbox(w.client, r.alice)).filter(
      (i) => i.kind === 'receipt' && i.origMsgId === r.sent?.msg_id,
    );
    expect(
      receipts.map((i) => (i.kind === 'receipt' ? i.status : '')),
      'a hook report does not settle what Claude Code holds',
    ).toEqual(['held']);
  }, 240_000);

  it('headless `claude -p` (set up for 2.1.332): a message sent during a turn of tool calls arrives at its Stop hook without a process per call', async () => {
    w = await startWorld();
    await setupClaude(w);
    const r = await scriptedTurn(w, 'headless');
    expect(r.spawned, `processes spawned during ${TOOL_CALLS} tool calls`).toEqual([]);
    const first = r.contexts.findIndex((c) => c.includes(r.text));
    expect(first, 'the request after the Stop hook').toBe(TOOL_CALLS + 1);
    expect(r.contexts[first], 'handed over by the Stop hook').toContain('Stop hook');
    // Claude Code shows one Stop hook hand-over twice (its feedback and its "blocking error" block): count the hub's hand-overs.
    expect(first, 'no request after the one the Stop hook kept going').toBe(r.contexts.length - 1);
    expect(r.delivered, 'handed over once').toBe(1);
  }, 240_000);

  it('baseline: with command hooks (setup for a version before 2.1.118) every tool call spawns a process', async () => {
    w = await startWorld();
    const settings = await setupClaude(w, '2.1.117');
    expect(settings, 'command hooks only').not.toContain('mcp_tool');
    const r = await scriptedTurn(w, 'headless');
    const hooks = r.spawned.filter((c) => /(?: hook|switchboard-hook\.cjs["']?) post-tool /.test(c)); // the CLI or the small hook entry
    expect(hooks.length, r.spawned.join('\n')).toBeGreaterThanOrEqual(TOOL_CALLS - 1);
  }, 240_000);
});
