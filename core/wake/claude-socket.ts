// Handing messages to a Claude Code session through its own messaging socket
// (after our policy: only admitted, queued items get here), for two moments:
// `idle`, where the line starts a turn, and `busy` (2.1.332+, interactive),
// where Claude Code adds it to the next model request of the running turn, so
// no PostToolUse hook is needed. Each item is claimed first (no hook hands it
// over again) and written at most once, within Claude Code's own throttle
// (socket-budget.ts); what is not written waits for the session's hooks.
// Claude Code answers an accepted message with no status at all (it sends
// `delivered` only when it releases one it held), so the next hook report of
// that session acknowledges it as delivered; a status line settles it instead
// (held keeps the claim; delivered, denied, refused, dropped end it).

import path from 'node:path';
import { userEventLine, type PeerMessageStatus } from '../protocol/cc-wire.js';
import type { InboxItem, ReceiptStatus } from '../protocol/methods.js';
import type { SessionRecord } from '../registry/session.js';
import type { Clock } from '../kit/clock.js';
import type { Logger } from '../kit/logger.js';
import type { EventSink } from '../delivery/ports.js';
import type { ReceiptPort } from '../receipts/receipts.js';
import type { Mailboxes } from '../delivery/mailboxes.js';
import type { Limits } from '../protocol/limits.js';
import type { SessionTable } from '../registry/table.js';
import type { StockInterop } from '../stock/stock.js';
import { writeLines } from '../transport/outbound.js';
import { readPeerToken } from '../stock/entry.js';
import { SocketBudget } from './socket-budget.js';

const WRITTEN_KEPT = 10_000; // ids written once (never written twice), bounded

export type SocketMoment = 'idle' | 'busy';

interface Pending {
  receiverId: string;
  moment: SocketMoment;
  /** Claude Code said `held`: only its status settles it now, not a hook report. */
  heldByClaude: boolean;
  /** The write has not finished: a hook report meanwhile says nothing about it. */
  writing: boolean;
}

/** What the socket hand-over needs from the hub. */
export interface ClaudeSocketPorts {
  readonly table: SessionTable;
  readonly mailboxes: Mailboxes;
  readonly receipts: Pick<ReceiptPort, 'tell' | 'sent'>;
  readonly stock: Pick<StockInterop, 'replies' | 'root'>;
  readonly events: EventSink;
  readonly clock: Clock;
  readonly log: Logger;
  readonly limits: Limits;
}

const DELIVERED_BECAUSE: Record<SocketMoment, string> = {
  idle: 'woken while idle through its Claude Code messaging socket; its turn ran',
  busy: 'handed to the busy Claude Code session through its own messaging socket, which adds it to the next model request of its turn; the turn went on',
};

export class ClaudeSocketHandover {
  readonly #hub: ClaudeSocketPorts;
  /** item id → the claim waiting for Claude Code's status or the next hook report. */
  readonly #pending = new Map<string, Pending>();
  readonly #written = new Set<string>();
  readonly #budget: SocketBudget;

  constructor(hub: ClaudeSocketPorts) {
    this.#hub = hub;
    this.#budget = new SocketBudget(() => {
      const l = hub.limits;
      return { burst: l.claudeSocketBurst, perSecond: l.claudeSocketPerSecond, repeatMs: l.claudeSocketRepeatMs };
    });
  }

  /** This session's unclaimed messages that no way in has tried yet (oldest first, at most `max`). */
  unwritten(s: SessionRecord, max: number): InboxItem[] {
    return this.#hub.mailboxes.unclaimedMessages(s.id, max).filter((i) => !this.#written.has(i.id));
  }

  /** Messages of this session worth a write now: the unwritten ones, none when the budget is spent. */
  candidates(s: SessionRecord, max: number): InboxItem[] {
    return this.hasRoom(s.id) ? this.unwritten(s, max) : [];
  }

  /** True when the budget has room for another write to this session now (cheap: no inbox walk). */
  hasRoom(sessionId: string): boolean {
    return this.#budget.available(sessionId, this.#hub.clock.now()) > 0;
  }

  /** Writes each item as one line; returns how many Claude Code's socket took. A failed write releases the item to its hooks. */
  async write(
    s: SessionRecord,
    items: InboxItem[],
    route: { socketPath: string },
    from: string,
    moment: SocketMoment,
  ): Promise<number> {
    const hub = this.#hub;
    const stock = hub.table.stockOf(s);
    const token = stock !== undefined ? readPeerToken(path.join(hub.stock.root, 'sessions'), stock.entry) : undefined;
    let taken = 0;
    for (const item of items) {
      const spent = this.#budget.take(s.id, item.text, hub.clock.now());
      if (spent === 'empty') break; // the rest wait for its hooks (or a later look)
      if (spent === 'repeat') continue; // Claude Code would drop it: its hooks hand it over
      if (!hub.mailboxes.claim(s.id, item.id)) continue;
      this.#remember(item.id);
      const lines = token !== undefined ? [JSON.stringify({ type: 'auth', token })] : [];
      lines.push(userEventLine({ msgId: item.id, content: item.text, from }));
      // Pending before the write: Claude Code's status line may come back before the write's promise settles.
      const pending: Pending = { receiverId: s.id, moment, heldByClaude: false, writing: true };
      this.#pending.set(item.id, pending);
      try {
        await writeLines(route.socketPath, lines, hub.limits.outboundTimeoutMs);
      } catch (err) {
        this.#pending.delete(item.id);
        hub.mailboxes.release(s.id, item.id);
        hub.log.warn('Claude Code socket did not take the message; its hooks hand it over', {
          id: s.id,
          moment,
          error: String(err),
        });
        return taken;
      }
      pending.writing = false;
      taken++;
      hub.receipts.sent(
        item.id,
        item.kind === 'message' ? (item.from.name ?? item.from.address) : '',
        s.name,
        moment === 'idle'
          ? 'written to the idle Claude Code session’s own socket to start a turn'
          : 'written to the busy Claude Code session’s own socket for the next model request of its turn',
      );
    }
    return taken;
  }

  /** A peer_message_status on a reply socket: true when it answers one of these writes (then it is handled here). */
  status(line: PeerMessageStatus, setIdle: (s: SessionRecord) => void): boolean {
    const p = this.#pending.get(line.orig_msg_id);
    if (p === undefined) return false;
    const hub = this.#hub;
    const reason = (line.reason ?? '').replace(/\.+$/, '');
    if (line.status === 'held') {
      // Claude Code's own inbound rules hold it for its user: it owns the message now; the final status follows.
      p.heldByClaude = true;
      const s = hub.table.live.get(p.receiverId);
      if (s !== undefined && p.moment === 'idle') setIdle(s); // no turn started (a busy turn goes on)
      const receiver = s ?? hub.table.dormant.get(p.receiverId)?.session;
      const from = hub.mailboxes.sender(p.receiverId, line.orig_msg_id);
      if (receiver !== undefined && from !== undefined)
        this.notify(
          { id: line.orig_msg_id, from },
          receiver,
          'held',
          `held by the Claude Code session's own inbound rules${reason ? `: ${reason}` : ''}`,
        );
      return true;
    }
    this.#settle(
      line.orig_msg_id,
      p.receiverId,
      line.status,
      line.status === 'delivered'
        ? 'released by the Claude Code session after its own hold'
        : `by the Claude Code session's own rules${reason ? `: ${reason}` : ''}`,
    );
    return true;
  }

  /** A hook of this session reported (its turn ran after the write): the accepted writes were delivered. */
  turnReported(sessionId: string): void {
    for (const [id, p] of this.#pending)
      if (p.receiverId === sessionId && !p.heldByClaude && !p.writing)
        this.#settle(id, sessionId, 'delivered', DELIVERED_BECAUSE[p.moment]);
  }

  #settle(id: string, receiverId: string, status: ReceiptStatus, reason: string): void {
    const hub = this.#hub;
    this.#pending.delete(id);
    const receiver = hub.table.live.get(receiverId) ?? hub.table.dormant.get(receiverId)?.session;
    void hub.mailboxes
      .ack(receiverId, [id])
      .then((removed) => {
        if (receiver === undefined) return;
        for (const i of removed) if (i.kind === 'message') this.notify(i, receiver, status, reason);
      })
      .catch((err: unknown) => hub.log.error('Claude Code socket: acknowledgement not stored', { error: String(err) }));
  }

  /** Never written twice: the wake and the busy hand-over skip these. */
  #remember(id: string): void {
    this.#written.add(id);
    if (this.#written.size > WRITTEN_KEPT) this.#written.delete(this.#written.values().next().value as string);
  }

  /** Marks items as tried by another way in (the Codex wake): not written to a socket either. */
  remember(ids: readonly string[]): void {
    for (const id of ids) this.#remember(id);
  }

  notify(
    item: Pick<Extract<InboxItem, { kind: 'message' }>, 'id' | 'from'>,
    receiver: Pick<SessionRecord, 'id' | 'name' | 'address' | 'socketPath'>,
    status: ReceiptStatus,
    reason: string,
  ): void {
    this.#hub.receipts.tell(
      { msgId: item.id, fromAddress: item.from.address, fromSessionId: item.from.sessionId },
      receiver,
      status,
      reason,
    );
  }

  /** The session ended: its claims go back to its inbox (kept for a resume, unclaimed). */
  ended(sessionId: string): void {
    for (const [id, p] of this.#pending) {
      if (p.receiverId !== sessionId) continue;
      this.#pending.delete(id);
      this.#hub.mailboxes.release(sessionId, id);
    }
    this.#budget.forget(sessionId);
  }

  close(): void {
    this.#pending.clear();
  }
}
