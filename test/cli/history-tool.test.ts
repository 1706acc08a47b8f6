// The agent's history tool's rendering and paging against a fake client:
// it asks with its own credentials only, stays inside one tool result's
// byte budget, and says which cursor continues where it stopped.
import { describe, expect, it } from 'vitest';
import type { HubClient } from '../../core/client/client.js';
import type { HistoryMessage } from '../../core/protocol/history.js';
import { historyTool } from '../../cli/agent/history-tool.js';

const creds = { sessionId: 'self-id', token: 'self-token' };

function fake(messages: HistoryMessage[], next: number | null) {
  const calls: unknown[] = [];
  const client = {
    call: (method: string, params: unknown) => (calls.push([method, params]), Promise.resolve({ messages, next })),
  } as unknown as HubClient;
  return { client, calls };
}

const msg = (seq: number, mine: boolean, text: string): HistoryMessage => ({
  seq,
  msgId: `m${seq}`,
  at: Date.UTC(2026, 11, 1, 12, 0, seq),
  summary: `s${seq}`,
  text,
  outcome: seq % 2 ? 'delivered' : 'dropped',
  reason: seq % 2 ? '' : 'duplicate',
  outcomeAt: 0,
  trail: [],
  sender: mine
    ? { sessionId: 'self-id', name: 'me', address: 'uds:/a', team: null }
    : { sessionId: 'peer-id', name: 'peer', address: 'uds:/b', team: null },
  receiver: mine
    ? { sessionId: 'peer-id', name: 'peer', team: null }
    : { sessionId: 'self-id', name: 'me', team: null },
});

describe('switchboard_history rendering', () => {
  /** A full page of 20 long messages, asked for with every filter. */
  const bigPage = async () => {
    const page = Array.from({ length: 20 }, (_, i) => msg(100 - i, i % 2 === 0, 'x'.repeat(390) + ` word${i}`));
    const f = fake(page, 80);
    const out = await historyTool(
      f.client,
      creds,
      { text: 'word', with: 'peer', outcome: 'dropped', since: '2h' },
      Date.UTC(2026, 11, 1, 14),
    );
    return { page, f, out, shown: out.split('\n\n').filter((b) => !b.startsWith('more:')) };
  };

  it('asks history.search as its own session, with the filters it was given', async () => {
    const { f } = await bigPage();
    const [method, params] = f.calls[0] as [string, Record<string, unknown>];
    expect(method).toBe('history.search');
    expect(params).toEqual({
      sessionId: 'self-id',
      token: 'self-token',
      limit: 20,
      text: 'word',
      with: 'peer',
      outcome: ['dropped'],
      since: Date.UTC(2026, 11, 1, 12),
    });
  });

  it('stops inside 6 000 bytes with a cursor to older messages', async () => {
    const { page, out, shown } = await bigPage();
    expect(Buffer.byteLength(out)).toBeLessThan(6200);
    expect(shown.length).toBeGreaterThan(5);
    expect(shown.length).toBeLessThan(20);
    expect(out.split('\n\n').at(-1)).toBe(`more: pass before=${page[shown.length - 1]!.seq} for older messages`);
  });

  it('renders each message as a dated line naming its direction and outcome', async () => {
    const { shown } = await bigPage();
    expect(shown[0]).toMatch(
      /^2026-12-01 12:01:40 UTC {2}you → peer {2}\[dropped: duplicate\] {2}s100\n {2}x{390} word0$/,
    );
    expect(shown[1]).toContain('peer → you  [delivered]');
  });

  it('a short page says nothing about more; an empty one says so', async () => {
    expect(await historyTool(fake([msg(1, true, 'hello')], null).client, creds, {}, 0)).not.toContain('more:');
    expect(await historyTool(fake([], null).client, creds, {}, 0)).toBe('No messages of yours in the history match.');
  });
});
