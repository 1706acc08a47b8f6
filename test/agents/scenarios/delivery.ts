// When a message reaches a real agent's model, and what its sender is told:
// a message too long for one hook output is never cut and never reported
// `delivered` by the hook; the model is told to read it, reads it whole
// through the inbox tool (in parts where the agent cuts long tool results
// too, as Codex does), and only then is it `delivered`. A message that
// waited while the agent was idle is handed over in the first model request
// of its next turn (Claude Code: several turns in one process, stream-json).

import { afterEach, expect, it } from 'vitest';
import type { SendResult } from '../../../core/protocol/methods.js';
import { until } from '../../helpers/hub.js';
import type { ModelRequest, Turn } from '../model/server.js';
import type { AgentName } from '../harness/binaries.js';
import { inbox, sessionsOf, waitInbox } from '../harness/observe.js';
import { flagNote, receivesAsBypass, streamTurn, type ModeName } from '../harness/profiles.js';
import { startWorld, type RunningAgent, type World } from '../harness/world.js';
import { receiptFor, sendFromAlice } from './flows.js';
import { AGENT_HANG_MS } from '../harness/launch.js';

const EXIT_MS = AGENT_HANG_MS;
const BIG_LINES = 600; // ~32 KB: over Claude Code's and Codex's hook-text caps, well under their tool-result caps
const NOTE = /too long to show here whole/;
const MAX_PARTS = 12; // inbox-tool calls the script allows for the long message

let w: World | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

function bigText(agent: string): string {
  return Array.from(
    { length: BIG_LINES },
    (_, i) => `line ${String(i).padStart(3, '0')} of a long report for ${agent}: all of it matters, keep every word.`,
  ).join('\n');
}

const MORE = 'the rest follows: call switchboard_check_inbox again';
const PART_HEAD = /\[Switchboard\] (?:Part (\d+)|Last part \((\d+)\)) of a long item[^\n]*\n\n/;

function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) strings(x, out);
  return out;
}

/** A long item shown in parts (pager.ts), put back together from the tool results in one request. */
function joinedParts(body: unknown): string {
  const parts = new Map<number, string>();
  for (const s of strings(body)) {
    const m = PART_HEAD.exec(s);
    if (m === null) continue;
    const piece = s.slice(m.index + m[0].length);
    const end = piece.indexOf('\n\n[Switchboard] ');
    parts.set(Number(m[1] ?? m[2]), end >= 0 ? piece.slice(0, end) : piece);
  }
  return [...parts.entries()]
    .sort((x, y) => x[0] - y[0])
    .map(([, p]) => p)
    .join('');
}

const wantsMore = (context: string): boolean => context.lastIndexOf(MORE) > context.lastIndexOf('Last part (');

export function bigMessage(agent: AgentName, mode: ModeName): void {
  it(`${agent}${flagNote(mode)}: a 32 KB message reaches the model whole through the inbox tool (a hook neither cuts it nor reports it delivered)`, async () => {
    w = await startWorld();
    const world = w;
    await world.setup(agent);
    const alice = await world.register('alice', receivesAsBypass(agent, mode));
    const text = bigText(agent);
    let sent: SendResult | undefined;
    let atStop: { note: boolean; whole: boolean; delivered: boolean } | undefined;
    const beforeLast: boolean[] = []; // delivered yet, at each request that still had parts to read
    let final: { whole: boolean; index: number } | undefined;
    const delivered = async (): Promise<boolean> =>
      (await inbox(world.client, alice)).some(receiptFor(sent!, 'delivered'));
    const read = async (req: ModelRequest): Promise<Turn> => {
      if (wantsMore(req.context)) {
        beforeLast.push(await delivered());
        return { tool: 'switchboard_check_inbox', input: {} };
      }
      final = { whole: req.context.includes(text) || joinedParts(req.body).includes(text), index: req.index };
      return { text: 'Read it.' };
    };
    const a: RunningAgent = await world.start(agent, {
      prompt: 'Answer briefly.',
      mode,
      steps: [
        async () => {
          sent = await sendFromAlice(world, alice, a, text); // waits for the stop hook
          return { text: 'First answer.' };
        },
        // Kept going by the stop hook, which could not carry the message whole.
        async (req) => {
          atStop = { note: NOTE.test(req.context), whole: req.context.includes(text), delivered: await delivered() };
          return { tool: 'switchboard_check_inbox', input: {} };
        },
        ...Array.from({ length: MAX_PARTS }, () => read),
      ],
    });
    expect(await a.waitExit(EXIT_MS), `the agent exits cleanly: ${a.output()}`).toBe(0);
    expect(sent?.status, `the message is queued: ${JSON.stringify(sent)}`).toBe('queued');
    expect(atStop, `the stop hook did not keep it going; script problems: ${a.model.errors.join('; ')}`).toBeDefined();
    expect(atStop, 'at stop: a note, not the message cut, and not delivered').toEqual({
      note: true,
      whole: false,
      delivered: false,
    });
    expect(final, 'the model never finished reading').toBeDefined();
    expect(final!.whole, 'the message did not reach the model whole').toBe(true);
    expect(
      beforeLast.every((d) => !d),
      'delivered before all of it was shown',
    ).toBe(true);
    await waitInbox(world.client, alice, receiptFor(sent!, 'delivered'), 10_000);
    expect(a.model.main().at(-1)?.index, 'a request after the last answer: the stop hook looped').toBe(final!.index);
  }, 180_000);
}

/** Claude Code only: one process, two turns on stdin; a message sent between them. */
export function idleHandover(): void {
  it('claude: a message that waited while it was idle is in the first model request of its next turn', async () => {
    w = await startWorld();
    const world = w;
    await world.setup('claude');
    const alice = await world.register('alice');
    const text = `while you were idle: ${Date.now()}`;
    let firstOfTurn2: boolean | undefined;
    const a: RunningAgent = await world.start('claude', {
      prompt: '',
      streamInput: true,
      steps: [
        { text: 'First answer.' },
        (req) => {
          firstOfTurn2 = req.context.includes(text);
          return { text: 'Second answer.' };
        },
        { text: 'Kept going by the stop hook.' },
      ],
    });
    a.input(streamTurn('First question.'));
    // Idle: its first turn ended (its Stop hook said so).
    await until(() => a.model.main().length === 1 && sessionsOf(world, a.cwd)[0]?.state === 'idle', AGENT_HANG_MS);
    const sent = await sendFromAlice(world, alice, a, text);
    expect(sent.status, `the message is queued: ${JSON.stringify(sent)}`).toBe('queued');
    a.input(streamTurn('Second question.'));
    await until(() => a.model.main().length >= 2 && a.model.pending() <= 1, AGENT_HANG_MS);
    // A third request would be the stop hook handing it over at the end of the turn instead.
    await waitInbox(world.client, alice, receiptFor(sent, 'delivered'), 20_000);
    a.endInput();
    expect(await a.waitExit(EXIT_MS), `the agent exits cleanly: ${a.output()}`).toBe(0);
    expect(firstOfTurn2, `requests: ${a.model.main().length}`).toBe(true);
    expect(a.model.main(), 'no third request: the stop hook had nothing left').toHaveLength(2);
  }, 180_000);
}
