// Message flows through real agents, each one agent run with a script:
// a message sent while the agent works reaches a later model request and
// its sender gets `delivered`; at stop time a waiting message keeps the
// agent going once, and the agent's loop guard ends it (never a loop); two
// real agents (of any vendors) message each other, the reply sent to the
// `from` the receiver's model read. Known defects run as it.fails.

import { afterEach, expect, it } from 'vitest';
import type { InboxItem, Registration, SendResult } from '../../../core/protocol/methods.js';
import { until } from '../../helpers/hub.js';
import type { AgentName } from '../harness/binaries.js';
import { inbox, lastFrom, switchboardRow, waitInbox } from '../harness/observe.js';
import { flagNote, receivesAsBypass, type ModeName } from '../harness/profiles.js';
import type { Turn } from '../model/server.js';
import { startWorld, type RunningAgent, type World } from '../harness/world.js';
import { AGENT_HANG_MS } from '../harness/launch.js';

export type FlowCheck = 'deliveredWhileWorking' | 'stopContinuesOnce';

const EXIT_MS = AGENT_HANG_MS;

function test(title: string, known: string | undefined, fn: () => Promise<void>): void {
  if (known) it.fails(`${title} [known defect: ${known}]`, fn, 180_000);
  else it(title, fn, 180_000);
}

let w: World | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

export async function sendFromAlice(
  world: World,
  alice: Registration,
  agent: RunningAgent,
  message: string,
): Promise<SendResult> {
  const row = await switchboardRow(world, agent.cwd);
  return world.client.call('message.send', {
    sessionId: alice.sessionId,
    token: alice.token,
    to: row.label,
    summary: 'a note',
    message,
  });
}

export const receiptFor = (r: SendResult, status: string) => (i: InboxItem) =>
  i.kind === 'receipt' && i.origMsgId === r.msg_id && i.status === status;

export function flows(agent: AgentName, mode: ModeName, known: Partial<Record<FlowCheck, string>> = {}): void {
  test(
    `${agent}${flagNote(mode)}: a message sent while it works is delivered in a later model request`,
    known.deliveredWhileWorking,
    async () => {
      w = await startWorld();
      const world = w;
      await world.setup(agent);
      const alice = await world.register('alice', receivesAsBypass(agent, mode)); // same permission class: nothing is held by mode parity
      const text = `while you work: ${agent} ${Date.now()}`;
      let sent: SendResult | undefined;
      const a: RunningAgent = await world.start(agent, {
        prompt: 'Look around.',
        mode,
        steps: [
          async () => {
            sent = await sendFromAlice(world, alice, a, text); // the agent waits for this model turn now
            return { tool: 'switchboard_list_peers', input: {} };
          },
          { text: 'Noted.' },
        ],
      });
      expect(await a.waitExit(EXIT_MS), `the agent exits cleanly: ${a.output()}`).toBe(0);
      expect(sent?.status, `the message is queued: ${JSON.stringify(sent)}`).toBe('queued');
      const first = a.model.main().findIndex((r) => r.context.includes(text));
      expect(
        first,
        `the message never reached the model; script problems: ${a.model.errors.join('; ')}`,
      ).toBeGreaterThan(0);
      await waitInbox(world.client, alice, receiptFor(sent!, 'delivered'), 10_000);
    },
  );

  test(
    `${agent}${flagNote(mode)}: a message left after its stop hook kept it going once waits for its resumed conversation`,
    known.stopContinuesOnce,
    async () => {
      w = await startWorld();
      const world = w;
      await world.setup(agent);
      const alice = await world.register('alice', receivesAsBypass(agent, mode)); // same permission class: nothing is held by mode parity
      const first = `before you stop: ${agent} ${Date.now()}`;
      const second = `and another one: ${agent} ${Date.now()}`;
      const sent: SendResult[] = [];
      const a: RunningAgent = await world.start(agent, {
        prompt: 'Answer briefly.',
        mode,
        steps: [
          async () => {
            sent.push(await sendFromAlice(world, alice, a, first));
            return { text: 'First answer.' };
          },
          async () => {
            // Kept going by the stop hook: a second message now must not keep it going again.
            sent.push(await sendFromAlice(world, alice, a, second));
            return { text: 'Second answer.' };
          },
          { text: 'A third turn means the stop hook looped.' },
        ],
      });
      expect(await a.waitExit(EXIT_MS), `its loop guard ends it: ${a.output()}`).toBe(0);
      const main = a.model.main();
      expect(main.length, `main requests: ${main.length}; output:\n${a.output().slice(-2000)}`).toBe(2);
      expect(main[1]!.context, 'the stop hook hands the first message over').toContain(first);
      expect(main[1]!.context, 'not the one sent after').not.toContain(second);
      await waitInbox(world.client, alice, receiptFor(sent[0]!, 'delivered'), 10_000);
      expect(
        (await inbox(world.client, alice)).some(receiptFor(sent[1]!, 'delivered')),
        'the second is not delivered by that run',
      ).toBe(false);
      // The second message was never handed over, and the agent has exited: kept for its conversation's resume.
      await waitInbox(world.client, alice, receiptFor(sent[1]!, 'kept'), 10_000);
      const before = [...world.hub.hub.table.dormant.values()].map((d) => d.session).find((s) => s.conversation);
      expect(before, 'the session waits for its conversation').toBeDefined();
      // The same conversation, resumed in a new process: its session comes back with the message that waited.
      const again: RunningAgent = await world.start(agent, {
        prompt: 'Go on.',
        mode,
        cwd: a.cwd,
        resume: before!.conversation!,
        steps: [{ text: 'Resumed.' }],
      });
      expect(await again.waitExit(EXIT_MS), `the resumed run exits cleanly: ${again.output()}`).toBe(0);
      expect(again.model.main()[0]!.context, 'the resumed conversation gets it first').toContain(second);
      await waitInbox(world.client, alice, receiptFor(sent[1]!, 'delivered'), 10_000);
      expect(
        world.hub.hub.table.live.get(before!.id) ?? world.hub.hub.table.dormant.get(before!.id)?.session,
        'the same session came back',
      ).toMatchObject({
        name: before!.name,
        address: before!.address,
      });
    },
  );
}

/**
 * Two real agents, both in `mode`: `from` sends to `to` by its listed name;
 * `to`'s model replies to the `from` address it read. A Gemini session is
 * "mode unknown" unless started in YOLO, and receives as bypass: only bypass
 * peers reach it without its user, so pairs with Gemini run in bypass.
 */
export function pair(fromAgent: AgentName, toAgent: AgentName, mode: ModeName = 'default', known?: string): void {
  test(
    `${fromAgent} → ${toAgent}${mode === 'bypass' ? ' (both bypass)' : ''}: a reply sent by copying from reaches the sender`,
    known,
    async () => {
      w = await startWorld();
      const world = w;
      await world.setup(fromAgent);
      if (toAgent !== fromAgent) await world.setup(toAgent);
      const ping = `ping from ${fromAgent} ${Date.now()}`;
      const pong = `pong from ${toAgent} ${Date.now()}`;
      let replyTo: string | undefined;
      const reply = (from: string | undefined): Turn => {
        replyTo = from;
        return { tool: 'switchboard_send', input: { to: replyTo ?? 'nobody', summary: 'reply', message: pong } };
      };
      const b: RunningAgent = await world.start(toAgent, {
        name: `b${toAgent}`,
        mode,
        prompt: 'Wait for a message from another session and answer it.',
        steps: [
          async (req) => {
            // A ping sent before b's turn began is handed over at its start (in this very request).
            if (lastFrom(req.context) !== undefined) return reply(lastFrom(req.context));
            await until(async () => (await switchboardRow(world, b.cwd)).inboxDepth > 0, AGENT_HANG_MS);
            return { tool: 'switchboard_check_inbox', input: {} };
          },
          (req) => (replyTo === undefined ? reply(lastFrom(req.context)) : { text: 'Answered.' }),
          { text: 'Answered.' },
        ],
      });
      const a = await world.start(fromAgent, {
        name: `a${fromAgent}`,
        mode,
        prompt: 'Message the other session and read its answer.',
        steps: [
          async () => ({
            tool: 'switchboard_send',
            input: { to: (await switchboardRow(world, b.cwd, AGENT_HANG_MS)).label, summary: 'ping', message: ping },
          }),
          async () => {
            await until(
              () =>
                b.model
                  .main()
                  .some(
                    (r) => r.context.includes(pong) && /queued: /.test(r.context.slice(r.context.lastIndexOf(pong))),
                  ),
              AGENT_HANG_MS,
            );
            return { tool: 'switchboard_check_inbox', input: {} };
          },
          { text: 'Got it.' },
        ],
      });
      const aRow = await switchboardRow(world, a.cwd, AGENT_HANG_MS);
      expect(await b.waitExit(EXIT_MS), `${toAgent} exits cleanly: ${b.output()}`).toBe(0);
      expect(await a.waitExit(EXIT_MS), `${fromAgent} exits cleanly: ${a.output()}`).toBe(0);
      expect(
        b.model.main().some((r) => r.context.includes(ping)),
        `ping never reached ${toAgent}'s model`,
      ).toBe(true);
      expect(replyTo, 'the reply goes to the from it copied').toBe(aRow.address);
      expect(
        a.model.main().some((r) => r.context.includes(pong)),
        `pong never reached ${fromAgent}'s model`,
      ).toBe(true);
    },
  );
}
