// An agent with no way in: the real Claude Code 2.1.231,
// interactive in tmux without CLAUDE_CODE_HARBOR_KITE (so it binds no
// messaging socket and nothing can start a turn in it from outside), set up
// by `switchboard setup`. After its user's turn ends (its Stop hook: idle), a
// message makes no model request by itself; its user is told (a notice, the
// row's waiting count) and the sender's receipt says so. The user types:
// the prompt hook hands it over and the sender gets delivered.
import { afterEach, describe, expect, it } from 'vitest';
import type { InboxItem, SendResult } from '../../core/protocol/methods.js';
import { until, wakesSettled } from '../helpers/hub.js';
import { claudeBinary } from '../interop/claude-peer.js';
import { inbox, sessionsOf, switchboardRow, waitInbox } from './harness/observe.js';
import { startInteractiveClaude, type Pane } from './harness/interactive.js';
import { OPTED_OUT } from './harness/opt-out.js';
import { typeLine } from './harness/type.js';
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

const receiptFor = (r: SendResult, status: string) => (i: InboxItem) =>
  i.kind === 'receipt' && i.origMsgId === r.msg_id && i.status === status;

describe.skipIf(OPTED_OUT)('Claude Code 2.1.231 without its messaging, interactive', () => {
  it('a message to an idle session that cannot be woken waits for its user’s next prompt', async () => {
    w = await startWorld();
    const world = w;
    await world.setup('claude');
    const seen: ModelRequest[] = [];
    const step = (req: ModelRequest) => (seen.push(req), { text: 'Noted.' });
    pane = await startInteractiveClaude(world, {
      name: 'old',
      steps: [step, step, step],
      bin: claudeBinary('2.1.231'),
    });
    const p = pane;
    const row = await switchboardRow(world, p.cwd, 30_000);
    // Its user's first turn, then idle by its Stop hook.
    await typeLine(p, 'hello there', () => seen.length === 1);
    const s = () => sessionsOf(world, p.cwd)[0]!;
    await until(() => s().state === 'idle' && s().hooksSeenAt !== null);
    expect(world.hub.hub.wake.routeFor(s()).kind, 'no way in').toBe('none');

    const alice = await world.register('alice');
    const text = `are you there ${Date.now()}`;
    const sent = await world.client.call('message.send', {
      sessionId: alice.sessionId,
      token: alice.token,
      to: row.label,
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
    expect((await world.rows()).find((r) => r.cwd === p.cwd)?.waiting, 'its row counts it waiting').toBe(1);
    // The hub's own decision, not a span of time: every wake it started has ended, and none took the message.
    await wakesSettled(world.hub.hub);
    expect(
      world.hub.hub.mailboxes.unclaimedMessages(s().id, 50).some((i) => i.id === sent.msg_id),
      'no wake took the message',
    ).toBe(true);
    expect(
      seen.filter((r) => r.context.includes(text)),
      'nothing starts a turn by itself',
    ).toHaveLength(0);

    // The user types (they were told): the prompt hook hands the message over.
    await typeLine(p, 'go on', () => seen.some((r) => r.context.includes(text)));
    expect(
      seen.find((r) => r.context.includes(text))?.context,
      'the first request that carries it is the one the user’s prompt made (ordering: no turn before it)',
    ).toContain('go on');
    await waitInbox(world.client, alice, receiptFor(sent, 'delivered'), 20_000);
    expect((await inbox(world.client, alice)).filter(receiptFor(sent, 'waiting')), 'one waiting receipt').toHaveLength(
      1,
    );
  }, 240_000);
});
