// Waking an idle session, with the real Claude Code 2.1.332, interactive in tmux, offline
// against the scripted model, Switchboard set up by `switchboard setup`:
// a message to the idle session starts a turn with no keystroke (through
// Claude Code's own messaging socket, after our policy), exactly once, and
// the sender's `delivered` comes from Claude Code's peer_message_status; a
// message our policy holds does not wake it until its user approves.
import { afterEach, describe, expect, it } from 'vitest';
import type { InboxItem, Registration, SendResult } from '../../core/protocol/methods.js';
import { until } from '../helpers/hub.js';
import { typeLine } from './harness/type.js';
import { OPTED_OUT } from './harness/opt-out.js';
import { inbox, sessionsOf, switchboardRow, waitInbox } from './harness/observe.js';
import { startInteractiveClaude, type Pane } from './harness/interactive.js';
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

const occurrences = (haystack: string, needle: string): number => haystack.split(needle).length - 1;
const receiptFor = (r: SendResult, status: string) => (i: InboxItem) =>
  i.kind === 'receipt' && i.origMsgId === r.msg_id && i.status === status;

/** An idle interactive Claude Code with Switchboard, its socket folded into its one row. */
async function idleClaude(
  name: string,
): Promise<{ world: World; p: Pane; label: string; arrivals: Array<{ at: number; req: ModelRequest }> }> {
  w = await startWorld();
  const world = w;
  await world.setup('claude');
  const arrivals: Array<{ at: number; req: ModelRequest }> = [];
  const step = (req: ModelRequest) => (arrivals.push({ at: Date.now(), req }), { text: 'Noted.' });
  pane = await startInteractiveClaude(world, { name, steps: [step, step, step] });
  const p = pane;
  const row = await switchboardRow(world, p.cwd, 30_000);
  await until(() => {
    const s = sessionsOf(world, p.cwd)[0];
    return s !== undefined && s.state === 'idle' && world.hub.hub.wake.routeFor(s).kind === 'claude-socket';
  }, 30_000);
  expect(
    (await world.rows()).filter((r) => r.cwd === p.cwd),
    'one row for the agent process',
  ).toHaveLength(1);
  return { world, p, label: row.label, arrivals };
}

describe.skipIf(OPTED_OUT)('Claude Code 2.1.332, interactive', () => {
  it('claude (interactive): a message to the idle session starts exactly one turn without a keystroke', async () => {
    const { world, p, label, arrivals } = await idleClaude('idle');
    const alice: Registration = await world.register('alice');
    const text = `wake up ${Date.now()}`;
    const t0 = Date.now();
    const sent = await world.client.call('message.send', {
      sessionId: alice.sessionId,
      token: alice.token,
      to: label,
      summary: 'a note',
      message: text,
    });
    expect(sent.status, 'the message is queued').toBe('queued');
    await until(() => arrivals.some((a) => a.req.context.includes(text)));
    const latency = arrivals.find((a) => a.req.context.includes(text))!.at - t0;
    console.log(`idle wake: message to model request in ${latency} ms`);
    await waitInbox(world.client, alice, receiptFor(sent, 'delivered'), 20_000);
    await until(() => /Noted\./.test(p.screen()));
    // Exactly once: no hook handed the claimed item over again, in this turn or a later one. Ordering, not a span of
    // time: once its Stop hook ended the woken turn, its user's next prompt carries the whole conversation.
    const s = sessionsOf(world, p.cwd)[0]!;
    await until(() => s.state === 'idle');
    const next = `anything new? ${Date.now()}`;
    await typeLine(p, next, () => arrivals.some((a) => a.req.context.includes(next)));
    const last = p.model.main().at(-1)!;
    expect(occurrences(last.context, text), `handed over once: ${last.context.slice(-3000)}`).toBe(1);
    expect(
      (await inbox(world.client, alice)).filter(receiptFor(sent, 'delivered')),
      'one delivered receipt',
    ).toHaveLength(1);
    expect(world.hub.hub.mailboxes.depth(s.id), 'the item is acknowledged').toBe(0);
  }, 240_000);

  it('claude (interactive): a message our policy holds does not wake the idle session until its user approves', async () => {
    const { world, p, arrivals } = await idleClaude('held');
    const bob = await world.register('bob', true); // bypass → a prompting receiver holds it (mode parity)
    const text = `held first ${Date.now()}`;
    const row = await switchboardRow(world, p.cwd);
    const sent = await world.client.call('message.send', {
      sessionId: bob.sessionId,
      token: bob.token,
      to: row.label,
      summary: 'careful',
      message: text,
    });
    expect(sent.status, 'our policy holds it').toBe('held');
    // Ordering, not a span of time: a later message that is queued wakes the session; the held one, sent first,
    // would have reached the model before it or with it.
    const alice = await world.register('alice'); // prompting: queued
    const later = `after the held one ${Date.now()}`;
    const queued = await world.client.call('message.send', {
      sessionId: alice.sessionId,
      token: alice.token,
      to: row.label,
      summary: 'a note',
      message: later,
    });
    expect(queued.status, 'the later message is queued').toBe('queued');
    await until(() => arrivals.some((a) => a.req.context.includes(later)));
    expect(
      arrivals.filter((a) => a.req.context.includes(text)),
      'a held message never reaches the model (not before, nor with, a later queued one)',
    ).toHaveLength(0);
    expect(
      p.model.main().filter((r) => r.context.includes(text)),
      'nor any request of its main loop',
    ).toHaveLength(0);
    await waitInbox(world.client, alice, receiptFor(queued, 'delivered'), 20_000);
    const [held] = (await world.client.call('held.list', { uiToken: world.hub.hub.uiToken })).items;
    expect(held?.id, 'the message is still held').toBeDefined();
    await world.client.call('held.approve', { uiToken: world.hub.hub.uiToken, id: held!.id });
    await until(() => arrivals.some((a) => a.req.context.includes(text)));
    await waitInbox(world.client, bob, receiptFor(sent, 'delivered'), 20_000);
  }, 240_000);
});
