// Issue 16, "no process per tool call": the real Claude Code 2.1.332, set up
// by the real `switchboard setup claude-code` (which detects the version with
// `claude --version`), runs a scripted turn of several tool calls while every
// process it spawns is counted (its descendants, polled from /proc). With
// the mcp_tool hooks it spawns none during the tool calls, and a message
// sent meanwhile still reaches a later model request through them, with a
// `delivered` receipt. The same run with the command hooks (setup told the
// version is older) spawns at least one per tool call.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboxItem, SendResult } from '../../core/protocol/methods.js';
import { runCli } from '../helpers/cli.js';
import { agentCommand, PINNED } from './harness/binaries.js';
import { switchboardRow, waitInbox } from './harness/observe.js';
import { OPTED_OUT } from './harness/opt-out.js';
import { PROFILES } from './harness/profiles.js';
import { startWorld, type World } from './harness/world.js';
import type { Step } from './model/server.js';

const TOOL_CALLS = 4;
const POLL_MS = 2;

let w: World | undefined;
afterEach(async () => {
  await w?.close();
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
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
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

/** A headless turn of TOOL_CALLS Switchboard tool calls; a message is sent during the first; returns what spawned between the first and the last model request. */
async function scriptedTurn(
  world: World,
): Promise<{ spawned: string[]; sent: SendResult | undefined; text: string; contexts: string[] }> {
  const alice = await world.register('alice');
  const text = `during the tools ${Date.now()}`;
  let sent: SendResult | undefined;
  const marks: number[] = [];
  const cwd = path.join(world.root, 'w-turn');
  fs.mkdirSync(cwd, { recursive: true });
  fs.writeFileSync(path.join(cwd, 'notes.txt'), 'nothing to see\n');
  const steps: Step[] = [];
  for (let i = 0; i < TOOL_CALLS; i++) {
    steps.push(async () => {
      marks.push(Date.now());
      if (i === 0) {
        const row = await switchboardRow(world, cwd);
        sent = await world.client.call('message.send', {
          sessionId: alice.sessionId,
          token: alice.token,
          to: row.label,
          summary: 'a note',
          message: text,
        });
      }
      // Claude Code's own Read (no process, and not a Switchboard tool, whose results carry messages too): only the PostToolUse hook can hand the message over.
      return { tool: 'Read', input: { file_path: path.join(cwd, 'notes.txt') } };
    });
  }
  steps.push(() => (marks.push(Date.now()), { text: 'Done.' }));
  const a = await world.start('claude', { prompt: 'Look around a few times.', steps, cwd, name: 'turn' });
  const watch = watchSpawns(a.pid);
  try {
    expect(await a.waitExit(90_000), a.output()).toBe(0);
  } finally {
    watch.stop();
  }
  expect(a.model.errors).toEqual([]);
  const main = a.model.main();
  // From the answer to the first tool-call request to the last request: tool calls and their boundaries only.
  const spawned = watch.spawned(marks[0]!, marks.at(-1)!);
  if (sent !== undefined)
    await waitInbox(
      world.client,
      alice,
      (i: InboxItem) => i.kind === 'receipt' && i.origMsgId === sent!.msg_id && i.status === 'delivered',
      20_000,
    );
  return { spawned, sent, text, contexts: main.map((r) => r.context) };
}

describe.skipIf(OPTED_OUT)(`Claude Code ${PINNED.claude}: turn boundaries`, () => {
  it('setup detects 2.1.332 and writes mcp_tool hooks; a turn of tool calls spawns no process, and a message still arrives through them', async () => {
    w = await startWorld();
    const settings = JSON.parse(await setupClaude(w)) as {
      hooks: Record<string, Array<{ hooks: Array<Record<string, unknown>> }>>;
    };
    for (const [event, ours] of [
      ['UserPromptSubmit', 'prompt-submit'],
      ['PostToolUse', 'post-tool'],
      ['Stop', 'stop'],
    ] as const) {
      expect(settings.hooks[event]![0]!.hooks[0]).toMatchObject({
        type: 'mcp_tool',
        server: 'switchboard',
        tool: 'switchboard_hook',
        input: { event: ours },
      });
    }
    expect(settings.hooks.SessionStart![0]!.hooks[0]).toMatchObject({ type: 'command' });
    const r = await scriptedTurn(w);
    expect(r.sent?.status).toBe('queued');
    expect(r.spawned, `processes spawned during ${TOOL_CALLS} tool calls`).toEqual([]);
    const first = r.contexts.findIndex((c) => c.includes(r.text));
    expect(
      first,
      'the message reached the request right after the first tool call (PostToolUse through the MCP server; Read results carry nothing)',
    ).toBe(1);
    expect(r.contexts[1]).toContain('PostToolUse:Read hook additional context');
    expect(r.contexts.at(-1)!.split(r.text).length - 1, 'handed over once').toBe(1);
  }, 240_000);

  it('baseline: with command hooks (setup for a version before 2.1.118) every tool call spawns a process', async () => {
    w = await startWorld();
    const settings = await setupClaude(w, '2.1.117');
    expect(settings).not.toContain('mcp_tool');
    const r = await scriptedTurn(w);
    const hooks = r.spawned.filter((c) => /(?: hook|switchboard-hook\.cjs["']?) post-tool /.test(c)); // the CLI or the small hook entry
    expect(hooks.length, r.spawned.join('\n')).toBeGreaterThanOrEqual(TOOL_CALLS - 1);
  }, 240_000);
});
