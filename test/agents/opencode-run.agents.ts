// The real OpenCode as a one-shot `opencode run <prompt>` (pinned binary,
// offline, scripted Chat Completions server): its session is a row while it
// runs, a message sent during its turn reaches the model appended to a tool
// result and is `delivered`, and a message that comes after its turn is not
// pushed into a prompt as it exits (it would be reported delivered unread):
// its sender hears `kept` once the run has ended. Then `opencode run -s
// <ses_…>` resumes that conversation in a new process: its session comes
// back (the same id, name and address) with the message that waited, which
// the plugin appends to the resumed run's prompt: it is in that run's first
// model request, and reported `delivered`.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRow, InboxItem, Registration } from '../../core/protocol/methods.js';
import { until } from '../helpers/hub.js';
import { inbox, waitInbox } from './harness/observe.js';
import { OPTED_OUT } from './harness/opt-out.js';
import { AGENT_HANG_MS, launch, type AgentProcess } from './harness/launch.js';
import { OPENCODE_ENV, opencodeCommand, setUpOpencode } from './harness/opencode.js';
import { startWorld, type World } from './harness/world.js';
import { startModelServer, type ModelRequest, type ModelServer } from './model/server.js';

const DURING = 'note-during-the-run';
const AFTER = 'note-after-the-turn';
const NO_RESUME = 'no resume: the first run left no session waiting for its conversation';

describe.skipIf(OPTED_OUT)('OpenCode run (one prompt, then it exits)', () => {
  let w: World;
  let model: ModelServer;
  let run: AgentProcess;
  let alice: Registration;
  let row: AgentRow | undefined;
  let seen: ModelRequest | undefined;
  let items: InboxItem[] = [];
  let exitCode: number | null = null;
  let leftFiles: string[] = [];
  let waiting: { id: string; name: string; address: string; conversation?: string | undefined } | undefined;
  let resumedModel: ModelServer | undefined;
  let resumed: AgentProcess | undefined;
  let resumedExit: number | null = null;
  let resumedItems: InboxItem[] = [];

  /** Each note's msg_id, by its text. */
  const sent = new Map<string, string>();
  const send = async (text: string): Promise<string> => {
    const r = await w.client.call('message.send', {
      sessionId: alice.sessionId,
      token: alice.token,
      to: row!.address,
      summary: text,
      message: text,
    });
    sent.set(text, r.msg_id);
    return r.status;
  };
  const delivered = (text: string) => (i: InboxItem) =>
    i.kind === 'receipt' && i.status === 'delivered' && i.origMsgId === sent.get(text);

  beforeAll(async () => {
    w = await startWorld();
    await setUpOpencode(w);
    alice = await w.register('alice', true);
    model = await startModelServer('openai-chat', path.join(w.root, 'm-run.sock'), [
      async () => {
        await until(async () => (row = (await w.rows()).find((x) => x.agent === 'opencode')) !== undefined);
        expect(await send(DURING)).toBe('queued');
        return { tool: 'bash', input: { command: 'echo ran', description: 'Echo a word' } };
      },
      async (req) => {
        seen = req;
        // After this answer the turn ends and the run exits: this one has no tool call to ride on.
        expect(await send(AFTER)).toBe('queued');
        return { text: 'Done.' };
      },
    ]);
    run = launch({
      name: 'run',
      root: w.root,
      cwd: path.join(w.root, 'w-run'),
      argv: [...opencodeCommand(), 'run', 'Run one command.'],
      env: { ...w.env, ...OPENCODE_ENV },
      modelSocket: model.socketPath,
    });
    exitCode = await run.waitExit(AGENT_HANG_MS);
    const agentsDir = path.join(w.home, '.switchboard', 'agents');
    leftFiles = fs.existsSync(agentsDir) ? fs.readdirSync(agentsDir).filter((f) => f.startsWith('opencode-')) : [];
    // Its session ends with its process (the hub's liveness sweep): what it never read waits for its conversation.
    await waitInbox(w.client, alice, (i) => i.kind === 'receipt' && i.status === 'kept', AGENT_HANG_MS);
    items = await inbox(w.client, alice);
    waiting = [...w.hub.hub.table.dormant.values()].map((d) => d.session).find((s) => s.agent === 'opencode');
    if (waiting?.conversation === undefined) throw new Error(NO_RESUME);
    // The same conversation in a new process: its prompt carries the message that waited.
    resumedModel = await startModelServer('openai-chat', path.join(w.root, 'm-resume.sock'), [{ text: 'Resumed.' }]);
    resumed = launch({
      name: 'resume',
      root: w.root,
      cwd: path.join(w.root, 'w-run'),
      argv: [...opencodeCommand(), 'run', '-s', waiting.conversation, 'Go on.'],
      env: { ...w.env, ...OPENCODE_ENV },
      modelSocket: resumedModel.socketPath,
    });
    resumedExit = await resumed.waitExit(AGENT_HANG_MS);
    // Not fatal here: the test below says what is missing.
    await waitInbox(w.client, alice, delivered(AFTER), 10_000).catch(() => undefined);
    resumedItems = await inbox(w.client, alice);
  }, AGENT_HANG_MS * 5);

  afterAll(async () => {
    await resumed?.stop();
    await resumedModel?.close();
    await run?.stop();
    await model?.close();
    await w?.close();
  });

  it('runs to the end', () => {
    expect(exitCode).toBe(0);
  });

  it('is listed while it runs', () => {
    expect(row).toMatchObject({ agent: 'opencode', mode: 'bypassPermissions' });
  });

  it('leaves no credentials file', () => {
    expect(leftFiles).toEqual([]);
  });

  it('a message sent during its turn reaches the model after the tool call, `delivered`', () => {
    expect(seen?.context).toContain(DURING);
    expect(items.filter((i) => i.kind === 'receipt' && i.status === 'delivered')).toHaveLength(1);
  });

  it('a message after its turn is never prompted: its sender hears `kept` (for a resume of that session)', () => {
    for (const q of model.requests) expect(q.context).not.toContain(AFTER);
    const statuses = items.filter((i) => i.kind === 'receipt').map((i) => (i.kind === 'receipt' ? i.status : ''));
    expect(statuses).toContain('kept');
    expect(statuses).not.toContain('undelivered');
  });

  it('`run -s` of its session gets its session back', () => {
    expect(resumedExit, resumed?.output()).toBe(0);
    expect(resumedModel!.main()[0]?.context, 'the resumed run continues the conversation').toContain(
      'Run one command.',
    );
    const back = w.hub.hub.table.live.get(waiting!.id) ?? w.hub.hub.table.dormant.get(waiting!.id)?.session;
    expect(back).toMatchObject({ name: waiting!.name, address: waiting!.address, conversation: waiting!.conversation });
  });

  it('the message that waited reaches the first request of `run -s` as `delivered`', () => {
    const main = resumedModel!.main();
    expect(main[0]?.context, "the message that waited is not in the resumed run's first request").toContain(AFTER);
    expect(resumedItems.filter(delivered(AFTER)), 'one `delivered` receipt').toHaveLength(1);
  });
});
