// The socket hand-over on fake ports (core/wake/claude-socket.ts), its write
// held open: a hook report that comes while a write is in flight settles
// nothing, so a write that then fails is released to the hooks and never
// acknowledged as delivered; a status line that comes back before the
// write's promise settles still finds its message.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { InboxItem, ReceiptStatus } from '../../../core/protocol/methods.js';
import { LIMITS } from '../../../core/protocol/limits.js';
import { SessionTable } from '../../../core/registry/table.js';
import { silentLogger } from '../../../core/kit/logger.js';
import type { ClaudeSocketPorts } from '../../../core/wake/claude-socket.js';
import { fakeClock } from '../../helpers/hub.js';
import { session } from './fakes.js';

const writes: Array<{ resolve: () => void; reject: (err: Error) => void }> = [];
vi.mock('../../../core/transport/outbound.js', () => ({
  writeLines: () => new Promise<void>((resolve, reject) => writes.push({ resolve, reject })),
}));
const { ClaudeSocketHandover } = await import('../../../core/wake/claude-socket.js');

const bob = session('bob');
const item: InboxItem = {
  kind: 'message',
  id: 'm-1',
  from: { address: 'uds:/x/alice.sock', name: 'alice', sessionId: 'alice' },
  summary: 's',
  text: '<cross-session-message from="uds:/x/alice.sock">\nhello\n</cross-session-message>',
  at: 0,
  approvedAfterHold: false,
};

function harness() {
  const acked: string[] = [];
  const released: string[] = [];
  const told: ReceiptStatus[] = [];
  const ports = {
    table: new SessionTable(),
    mailboxes: {
      claim: () => true,
      release: (_s: string, id: string) => void released.push(id),
      ack: (_s: string, ids: string[]) => (acked.push(...ids), Promise.resolve([item])),
      sender: () => (item.kind === 'message' ? item.from : undefined),
      unclaimedMessages: () => [item],
    },
    receipts: {
      tell: (_e: unknown, _r: unknown, status: ReceiptStatus) => void told.push(status),
      sent: () => undefined,
    },
    stock: { root: '/nonexistent-sb', replies: {} },
    events: { emit: () => undefined },
    clock: fakeClock(),
    log: silentLogger,
    limits: LIMITS,
  } as unknown as ClaudeSocketPorts;
  ports.table.live.set(bob.id, bob);
  return { h: new ClaudeSocketHandover(ports), acked, released, told };
}

beforeEach(() => void writes.splice(0));

describe('the socket hand-over while a write is in flight', () => {
  it('a write that fails is released to the hooks, never delivered, though a hook report came meanwhile', async () => {
    const { h, acked, released, told } = harness();
    const written = h.write(bob, [item], { socketPath: '/x/cc.sock' }, 'uds:/x/sb.sock', 'busy');
    await vi.waitFor(() => expect(writes).toHaveLength(1));
    h.turnReported(bob.id);
    writes[0]!.reject(new Error('unreachable'));
    expect(await written).toBe(0);
    h.turnReported(bob.id);
    await new Promise((r) => setImmediate(r)); // the fakes answer at once: what a report would start has run
    expect(acked, 'not acknowledged').toEqual([]);
    expect(told, 'the sender is not told delivered').toEqual([]);
    expect(released, 'the hooks hand it over').toEqual(['m-1']);
  });

  it('the write succeeds: the next hook report after it makes it delivered', async () => {
    const { h, acked, told } = harness();
    const written = h.write(bob, [item], { socketPath: '/x/cc.sock' }, 'uds:/x/sb.sock', 'busy');
    await vi.waitFor(() => expect(writes).toHaveLength(1));
    h.turnReported(bob.id);
    writes[0]!.resolve();
    expect(await written).toBe(1);
    expect(acked, 'the report came before the write had finished').toEqual([]);
    h.turnReported(bob.id);
    await vi.waitFor(() => expect(told).toEqual(['delivered']));
    expect(acked).toEqual(['m-1']);
  });

  it("Claude Code's status line before the write's promise settles is still its answer", async () => {
    const { h, told } = harness();
    const written = h.write(bob, [item], { socketPath: '/x/cc.sock' }, 'uds:/x/sb.sock', 'busy');
    await vi.waitFor(() => expect(writes).toHaveLength(1));
    const line = { type: 'control', action: 'peer_message_status', status: 'held', orig_msg_id: 'm-1' } as const;
    expect(h.status(line, () => undefined)).toBe(true);
    expect(told).toEqual(['held']);
    writes[0]!.resolve();
    await written;
  });
});
