// Waking an idle Codex thread, with the real Codex CLI 0.171.0, interactive in tmux (its threads
// in its own app-server daemon), offline against the scripted model,
// Switchboard set up by `switchboard setup codex`: a message to the idle
// thread starts a turn with no keystroke (through the daemon's control
// socket, after our policy), exactly once, and the sender gets `delivered`;
// a message our policy holds waits for its user's approval; once the TUI has
// quit (the daemon keeps its thread loaded), no turn starts unwatched; a TUI without
// the daemon (`--no-daemon`) cannot be woken: its user is told and the
// sender gets `waiting`.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboxItem, Registration, SendResult } from '../../core/protocol/methods.js';
import { until, wakesSettled } from '../helpers/hub.js';
import { OPTED_OUT } from './harness/opt-out.js';
import { inbox, sessionsOf, switchboardRow, waitInbox } from './harness/observe.js';
import type { Pane } from './harness/interactive.js';
import { startInteractiveCodex } from './harness/interactive-codex.js';
import { typeLine } from './harness/type.js';
import { stopPid } from '../helpers/processes.js';
import { markedPids } from './harness/launch.js';
import { startWorld, type World } from './harness/world.js';
import type { ModelRequest } from './model/server.js';

let w: World | undefined;
let pane: Pane | undefined;
afterEach(async () => {
  await pane?.stop();
  await w?.close();
  pane = undefined;
  w = undefined;
});

const SAMPLES = 5;
const occurrences = (haystack: string, needle: string): number => haystack.split(needle).length - 1;
const receiptFor = (r: SendResult, status: string) => (i: InboxItem) =>
  i.kind === 'receipt' && i.origMsgId === r.msg_id && i.status === status;
const p50 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

/** Types a prompt as its user would, until the model gets a request that carries it. */
const submit = (p: Pane, text: string, arrivals: Array<{ req: ModelRequest }>): Promise<void> =>
  typeLine(p, text, () => arrivals.some((a) => a.req.context.includes(text)));

/** The receiver's mailbox still has the message, claimed by no way in (a wake claims what it hands over). */
const unclaimed = (world: World, receiverId: string, r: SendResult): boolean =>
  world.hub.hub.mailboxes.unclaimedMessages(receiverId, 50).some((i) => i.id === r.msg_id);

/** An interactive Codex after its user's first turn (its Stop hook: idle, its thread named), one row. */
async function idleCodex(
  name: string,
  extraArgs: string[] = [],
): Promise<{ world: World; p: Pane; label: string; arrivals: Array<{ at: number; req: ModelRequest }> }> {
  w = await startWorld();
  const world = w;
  await world.setup('codex');
  const arrivals: Array<{ at: number; req: ModelRequest }> = [];
  const step = (req: ModelRequest) => (arrivals.push({ at: Date.now(), req }), { text: 'Noted.' });
  pane = await startInteractiveCodex(world, {
    name,
    steps: Array.from({ length: SAMPLES + 4 }, () => step),
    extraArgs,
  });
  const p = pane;
  await submit(p, 'hello there', arrivals);
  expect(arrivals, 'the first prompt made one model request').toHaveLength(1);
  const row = await switchboardRow(world, p.cwd, 30_000);
  await until(() => {
    const s = sessionsOf(world, p.cwd)[0];
    return s !== undefined && s.state === 'idle' && s.hooksSeenAt !== null;
  }, 30_000);
  expect(
    (await world.rows()).filter((r) => r.cwd === p.cwd),
    'one row for the thread',
  ).toHaveLength(1);
  return { world, p, label: row.label, arrivals };
}

describe.skipIf(OPTED_OUT)('Codex CLI 0.171.0, interactive', () => {
  it('codex (interactive): each message to the idle thread starts exactly one turn without a keystroke', async () => {
    const { world, p, label, arrivals } = await idleCodex('idle');
    const s = () => sessionsOf(world, p.cwd)[0]!;
    const alice: Registration = await world.register('alice');
    const latencies: number[] = [];
    for (let n = 0; n < SAMPLES; n++) {
      await until(() => s().state === 'idle'); // its Stop hook ended the previous turn
      const before = arrivals.length;
      const text = `wake up ${n} ${Date.now()}`;
      const t0 = Date.now();
      const sent = await world.client.call('message.send', {
        sessionId: alice.sessionId,
        token: alice.token,
        to: label,
        summary: 'a note',
        message: text,
      });
      expect(sent.status, `message ${n} is queued`).toBe('queued');
      await until(() => arrivals.slice(before).some((a) => a.req.context.includes(text)));
      latencies.push(arrivals.slice(before).find((a) => a.req.context.includes(text))!.at - t0);
      const delivered = await waitInbox(world.client, alice, receiptFor(sent, 'delivered'), 20_000);
      expect(delivered.kind === 'receipt' ? delivered.reason : '', `message ${n}: the sender gets delivered`).toMatch(
        /Codex app-server started a turn/,
      );
    }
    expect(world.hub.hub.wake.routeFor(s()), 'woken through its daemon').toMatchObject({
      kind: 'codex-app-server',
      threadId: s().agentThreadId,
    });
    console.log(
      `codex idle wake: message to model request ${latencies.join(', ')} ms; p50 ${p50(latencies)} ms (n=${SAMPLES})`,
    );
    expect(p50(latencies), 'message to model request, p50 within 2 s').toBeLessThanOrEqual(2000);
    // The turn is on the user's screen, said to come from other sessions.
    await until(() => /\[Switchboard\] 1 message from other agent sessions/.test(p.screen()));
    // Exactly once: no hook handed a claimed message over again, in its turn or a later one.
    await until(() => s().state === 'idle');
    await submit(p, 'anything new?', arrivals);
    const last = arrivals.at(-1)!.req.context;
    for (let n = 0; n < SAMPLES; n++)
      expect(occurrences(last, `wake up ${n} `), `message ${n} in the context once`).toBe(1);
    expect(
      (await inbox(world.client, alice)).filter((i) => i.kind === 'receipt' && i.status === 'delivered'),
      'one delivered receipt per message',
    ).toHaveLength(SAMPLES);
    expect(world.hub.hub.mailboxes.depth(s().id), 'every item acknowledged').toBe(0);
  }, 300_000);

  it('codex (interactive): a message our policy holds does not wake the idle thread until its user approves', async () => {
    const { world, p, arrivals, label } = await idleCodex('held');
    const s = () => sessionsOf(world, p.cwd)[0]!;
    const bob = await world.register('bob', true); // bypass → a prompting receiver holds it (mode parity)
    const alice = await world.register('alice'); // prompting: queued, so it wakes the thread
    const text = `held first ${Date.now()}`;
    const sent = await world.client.call('message.send', {
      sessionId: bob.sessionId,
      token: bob.token,
      to: label,
      summary: 'careful',
      message: text,
    });
    expect(sent.status, 'our policy holds it').toBe('held');
    // Ordering, not a span of time: a later message that is queued wakes the thread; the held one, sent first,
    // would have reached the model before it or with it.
    const later = `after the held one ${Date.now()}`;
    const queued = await world.client.call('message.send', {
      sessionId: alice.sessionId,
      token: alice.token,
      to: label,
      summary: 'a note',
      message: later,
    });
    expect(queued.status, 'the later message is queued').toBe('queued');
    await until(() => arrivals.some((a) => a.req.context.includes(later)));
    expect(
      arrivals.filter((a) => a.req.context.includes(text)),
      'a held message never reaches the model (not before, nor with, a later queued one)',
    ).toHaveLength(0);
    await waitInbox(world.client, alice, receiptFor(queued, 'delivered'), 20_000);
    await until(() => s().state === 'idle'); // its Stop hook ended the later message's turn
    const [held] = (await world.client.call('held.list', { uiToken: world.hub.hub.uiToken })).items;
    expect(held?.id, 'the message is still held').toBeDefined();
    await world.client.call('held.approve', { uiToken: world.hub.hub.uiToken, id: held!.id });
    await until(() => arrivals.some((a) => a.req.context.includes(text)));
    await waitInbox(world.client, bob, receiptFor(sent, 'delivered'), 20_000);
  }, 300_000);

  it('codex (interactive) after its window quit: a message starts no turn in the thread its daemon keeps', async () => {
    const { world, p, label, arrivals } = await idleCodex('quit');
    const tuis = markedPids(world.root, world.home).filter((pid) => {
      let argv: string[];
      try {
        argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      } catch {
        return false; // gone between the scan and this read (a short-lived helper of Codex's): not its window
      }
      return path.basename(argv[0] ?? '') === 'codex' && !argv.includes('app-server');
    });
    expect(tuis, 'one Codex window').toHaveLength(1);
    await stopPid(tuis[0]!, 'SIGKILL'); // the window is gone; its daemon (the session's process) lives on
    const s = sessionsOf(world, p.cwd)[0]!;
    // The window scan's answer is reused for up to 1 s (core/wake/codex-windows.ts): a window that just quit may still count.
    await until(() => world.hub.hub.wake.routeFor(s).kind === 'none').catch(() => undefined);
    expect(world.hub.hub.wake.routeFor(s), 'no way in once no window is open').toMatchObject({
      kind: 'none',
      why: expect.stringMatching(/no Codex window is open/),
    });
    const alice = await world.register('alice');
    const text = `still there ${Date.now()}`;
    const sent = await world.client.call('message.send', {
      sessionId: alice.sessionId,
      token: alice.token,
      to: label,
      summary: 'ping',
      message: text,
    });
    const waiting = await waitInbox(world.client, alice, receiptFor(sent, 'waiting'), 10_000);
    expect(waiting.kind === 'receipt' ? waiting.reason : '', 'the sender is told why').toMatch(
      /no Codex window is open/,
    );
    // The hub's own decision, not a span of time: every wake it started has ended, and none took the message.
    await wakesSettled(world.hub.hub);
    expect(unclaimed(world, s.id, sent), 'no wake took the message for the thread nobody watches').toBe(true);
    expect(
      arrivals.filter((a) => a.req.context.includes(text)),
      'no turn starts in the thread nobody watches',
    ).toHaveLength(0);
  }, 300_000);

  it('codex --no-daemon (interactive): a message to the idle thread starts no turn (no way in)', async () => {
    const { world, p, label, arrivals } = await idleCodex('nodaemon', ['--no-daemon']);
    const s = sessionsOf(world, p.cwd)[0]!;
    // The window scan's answer is reused for up to 1 s (core/wake/codex-windows.ts): a window that just quit may still count.
    await until(() => world.hub.hub.wake.routeFor(s).kind === 'none').catch(() => undefined);
    expect(world.hub.hub.wake.routeFor(s), 'no way in without the daemon').toMatchObject({
      kind: 'none',
      why: expect.stringMatching(/its own process/),
    });
    const alice = await world.register('alice');
    const text = `are you there ${Date.now()}`;
    const sent = await world.client.call('message.send', {
      sessionId: alice.sessionId,
      token: alice.token,
      to: label,
      summary: 'ping',
      message: text,
    });
    expect(sent.status, 'the message is queued').toBe('queued');
    const waiting = await waitInbox(world.client, alice, receiptFor(sent, 'waiting'), 10_000);
    expect(waiting.kind === 'receipt' ? waiting.reason : '', 'the sender gets waiting').toMatch(
      /is idle and cannot be woken .*its user has been told/,
    );
    expect(
      world.hub.hub.userNotices
        .list()
        .map((n) => n.text)
        .join('\n'),
      'its user is told',
    ).toMatch(/1 message waiting for .*, which is idle/);
    // The hub's own decision, not a span of time: every wake it started has ended, and none took the message.
    await wakesSettled(world.hub.hub);
    expect(unclaimed(world, s.id, sent), 'no wake took the message').toBe(true);
    expect(
      arrivals.filter((a) => a.req.context.includes(text)),
      'nothing starts a turn by itself',
    ).toHaveLength(0);
  }, 300_000);
});
