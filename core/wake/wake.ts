// Waking an idle receiver (issue 16). After admission put a message in an
// idle session's inbox (our policy decided first: a held message never gets
// here), the hub wakes the agent by the best way it offers: a Claude Code
// process's own messaging socket (one line; Claude Code starts a turn when
// idle). The item is claimed meanwhile, so no hook or tool result hands it
// over a second time. Claude Code 2.1.332 answers an accepted message with
// no status at all (it sends `delivered` only when it releases one it held),
// so the next hook report of that session (the turn the message started)
// acknowledges it as delivered; a status line settles it instead (held keeps
// the claim; delivered, denied, refused, dropped end it). With no way in, the user is
// told once per message (a user notice, the row's `waiting` count) and the
// sender gets a `waiting` receipt. Keystrokes are never injected. An idle
// interactive Codex thread is woken through its app-server daemon (codex.ts):
// the claimed messages start a turn there and are `delivered` when the daemon
// started it; if it cannot, they go back to the inbox and the user is told.

import { userEventLine, type PeerMessageStatus } from '../protocol/cc-wire.js';
import type { InboxItem, ReceiptStatus } from '../protocol/methods.js';
import type { SessionRecord } from '../registry/session.js';
import type { UserNotice } from '../protocol/events.js';
import { WaitingTold } from './told.js';
import type { Clock } from '../kit/clock.js';
import type { Logger } from '../kit/logger.js';
import type { ActivitySink, AdmissionPort, EventSink } from '../delivery/ports.js';
import type { Mailboxes } from '../delivery/mailboxes.js';
import type { Limits } from '../protocol/limits.js';
import type { SessionTable } from '../registry/table.js';
import type { StockInterop } from '../stock/stock.js';
import { writeLines } from '../transport/outbound.js';
import { readPeerToken } from '../stock/entry.js';
import os from 'node:os';
import path from 'node:path';
import { CodexThreadBusy, codexRoute, fitTurn, startCodexTurn, type CodexWakePorts } from './codex.js';

const WRITTEN_KEPT = 10_000; // ids written once (never written twice), bounded

interface Pending {
  receiverId: string;
  /** Claude Code said `held`: only its status settles it now, not a hook report. */
  heldByClaude: boolean;
}

/** How a session can be woken: its agent process's Claude Code socket, or not at all (and why). */
export type WakeRoute =
  | { kind: 'claude-socket'; socketPath: string; entryPid: number }
  | { kind: 'codex-app-server'; socketPath: string; threadId: string }
  | { kind: 'none'; why: string }
  | { kind: 'not-yet'; why: string };

/** Claude Code's own registry status when it waits for its user (its entry is rescanned on change, and a change pokes). */
const CLAUDE_IDLE = new Set(['idle']); // not 'waiting' (a permission dialog): the message would wait, and a hook of that turn would call it delivered

/** What waking needs from the hub. */
export interface WakePorts extends ActivitySink {
  readonly version: string;
  readonly table: SessionTable;
  readonly mailboxes: Mailboxes;
  readonly admission: Pick<AdmissionPort, 'notifySender'>;
  readonly stock: Pick<StockInterop, 'replies' | 'root'>;
  readonly events: EventSink;
  readonly userNotices: { push(notice: UserNotice): void };
  readonly clock: Clock;
  readonly log: Logger;
  readonly limits: Limits;
}

export class Waker {
  readonly #hub: WakePorts;
  /** item id → the claim waiting for Claude Code's status. */
  readonly #pending = new Map<string, Pending>();
  readonly #written = new Set<string>();
  /** Messages its user was told about (no way in), per receiver. */
  readonly #told: WaitingTold;
  /** Sessions whose hooks reported the end of a turn (idle after work): only their idle is worth telling the user about. */
  readonly #turnEnded = new Set<string>();
  readonly #running = new Set<string>();
  readonly #again = new Set<string>();

  constructor(hub: WakePorts) {
    this.#hub = hub;
    this.#told = new WaitingTold(hub);
  }

  /** What codex.ts needs of the hub (read when used: the hub's limits are set after this object). */
  #codexPorts(): CodexWakePorts {
    const l = this.#hub.limits;
    const home = process.env.CODEX_HOME ? path.resolve(process.env.CODEX_HOME) : path.join(os.homedir(), '.codex');
    return {
      timeoutMs: l.codexWakeTimeoutMs,
      idleWaitMs: l.codexIdleWaitMs,
      maxFrameBytes: l.codexFrameBytes,
      turnBytes: l.codexWakeBytes,
      codexHome: home,
      version: this.#hub.version,
    };
  }

  routeFor(s: SessionRecord): WakeRoute {
    if (s.agent === 'codex') return codexRoute(s, this.#codexPorts());
    if (s.agent !== 'claude')
      return {
        kind: 'none',
        why: `${s.agent === 'other' ? 'this agent' : s.agent} offers no way to start a turn from outside`,
      };
    const stock = this.#hub.table.stockOf(s);
    if (stock === undefined)
      return {
        kind: 'none',
        why: 'this Claude Code has no messaging socket (2.1.332 binds one by default; 2.1.231 needs CLAUDE_CODE_HARBOR_KITE=1)',
      };
    // A headless run (`claude -p`) has no user to wait for: after its last turn it ends; a wake would prolong it past its loop guard.
    if (stock.entry.kind !== undefined && stock.entry.kind !== 'interactive')
      return { kind: 'none', why: `a ${stock.entry.kind} Claude Code session (not interactive)` };
    if (!CLAUDE_IDLE.has(stock.status ?? ''))
      return { kind: 'not-yet', why: `Claude Code itself reports ${stock.status ?? 'no status'}` };
    return { kind: 'claude-socket', socketPath: stock.socketPath, entryPid: stock.entry.pid };
  }

  /** Messages waiting for this idle session that its user was told about (no way in). */
  waitingFor(sessionId: string): number {
    const s = this.#hub.table.live.get(sessionId);
    if (s === undefined || s.state !== 'idle') return 0;
    return this.#told.count(sessionId);
  }

  /** Its hooks reported idle after a turn (its Stop hook). */
  wentIdle(sessionId: string): void {
    this.#turnEnded.add(sessionId);
    this.poke(sessionId);
  }

  /** Something may wait for an idle session (a message arrived, or it went idle). Never throws. */
  poke(receiverId: string): void {
    if (this.#running.has(receiverId)) {
      this.#again.add(receiverId);
      return;
    }
    // What #wake checks first, without its promises: a busy receiver (every send in a burst) costs a lookup.
    const s = this.#hub.table.live.get(receiverId);
    if (s === undefined) return;
    if (s.state !== 'idle' || s.hooksSeenAt === null) return this.#prune(s);
    this.#running.add(receiverId);
    this.#wake(receiverId)
      .catch((err: unknown) => this.#hub.log.warn('wake failed', { id: receiverId, error: String(err) }))
      .finally(() => {
        this.#running.delete(receiverId);
        if (this.#again.delete(receiverId)) this.poke(receiverId);
      });
  }

  async #wake(receiverId: string): Promise<void> {
    const hub = this.#hub;
    const s = hub.table.live.get(receiverId);
    if (s === undefined) return;
    this.#prune(s);
    // Only hooks say idle and mark the turn a wake starts: without them (MCP only, hooks not running) there is nothing to do.
    if (s.state !== 'idle' || s.hooksSeenAt === null) return;
    const items = hub.mailboxes.unclaimedMessages(s.id, hub.limits.wakeBatch).filter((i) => !this.#written.has(i.id));
    if (items.length === 0) return;
    const route = this.routeFor(s);
    // Our hooks say idle but Claude Code not yet (e.g. a headless run between its hooks): its registry change pokes again.
    if (route.kind === 'not-yet') return;
    if (route.kind === 'codex-app-server') return this.#wakeCodex(s, items, route);
    const from = route.kind === 'claude-socket' ? await hub.stock.replies.addressFor(s, route.socketPath) : null;
    if (route.kind === 'none' || from === null) {
      // Idle since it started (no turn yet, e.g. a headless run between its SessionStart and prompt hooks): nobody to tell.
      if (!this.#turnEnded.has(s.id)) return;
      return this.#tell(
        s,
        items,
        route.kind === 'none' ? route.why : 'no private reply socket beside its Claude Code socket',
      );
    }
    const stock = hub.table.stockOf(s);
    const token = stock !== undefined ? readPeerToken(path.join(hub.stock.root, 'sessions'), stock.entry) : undefined;
    for (const item of items) {
      if (!hub.mailboxes.claim(s.id, item.id)) continue;
      this.#remember(item.id);
      const lines = token !== undefined ? [JSON.stringify({ type: 'auth', token })] : [];
      lines.push(userEventLine({ msgId: item.id, content: item.text, from }));
      try {
        await writeLines(route.socketPath, lines, hub.limits.outboundTimeoutMs);
      } catch (err) {
        hub.mailboxes.release(s.id, item.id);
        hub.log.warn('wake: Claude Code socket did not take the message; its hooks hand it over', {
          id: s.id,
          error: String(err),
        });
        return;
      }
      this.#pending.set(item.id, { receiverId: s.id, heldByClaude: false });
      this.#setState(s, 'busy'); // its turn starts; its Stop hook reports idle again
      hub.recordActivity({
        at: hub.clock.now(),
        kind: 'receipt',
        status: 'sent',
        sender: item.kind === 'message' ? (item.from.name ?? item.from.address) : '',
        receiver: s.name,
        msgId: item.id,
        reason: 'written to the idle Claude Code session’s own socket to start a turn',
      });
    }
  }

  /** Starts a turn in the idle Codex thread with what fits; on failure the messages go back and its user is told. */
  async #wakeCodex(
    s: SessionRecord,
    items: InboxItem[],
    route: Extract<WakeRoute, { kind: 'codex-app-server' }>,
  ): Promise<void> {
    const hub = this.#hub;
    const ports = this.#codexPorts();
    const batch = fitTurn(items, ports.turnBytes).filter((i) => hub.mailboxes.claim(s.id, i.id));
    if (batch.length === 0) return;
    for (const i of batch) this.#remember(i.id); // written once: a failed wake is not retried, its hooks hand them over
    try {
      await startCodexTurn(
        route,
        s.cwd,
        batch.map((i) => i.text),
        ports,
      );
    } catch (err) {
      for (const i of batch) hub.mailboxes.release(s.id, i.id);
      if (err instanceof CodexThreadBusy) return; // a turn runs: its hooks hand them over
      const why = err instanceof Error ? err.message : String(err);
      hub.log.warn('wake: the Codex app-server started no turn; its hooks hand the messages over', {
        id: s.id,
        error: why,
      });
      if (!this.#turnEnded.has(s.id)) return;
      return this.#tell(s, batch, `its Codex app-server started no turn: ${why}`);
    }
    this.#setState(s, 'busy'); // its turn runs; its Stop hook reports idle again
    const ids = batch.map((i) => i.id);
    const removed = await hub.mailboxes.ack(s.id, ids);
    for (const i of removed)
      if (i.kind === 'message')
        this.#notify(i, s, 'delivered', 'woken while idle: its Codex app-server started a turn with it');
  }

  /** A peer_message_status on a reply socket: true when it answers a wake (then it is handled here). */
  status(line: PeerMessageStatus): boolean {
    const p = this.#pending.get(line.orig_msg_id);
    if (p === undefined) return false;
    const hub = this.#hub;
    const reason = (line.reason ?? '').replace(/\.+$/, '');
    const receiver = hub.table.live.get(p.receiverId) ?? hub.table.dormant.get(p.receiverId)?.session;
    const from = hub.mailboxes.sender(p.receiverId, line.orig_msg_id);
    if (line.status === 'held') {
      // Claude Code's own inbound rules hold it for its user: it owns the message now; the final status follows.
      p.heldByClaude = true;
      const s = hub.table.live.get(p.receiverId);
      if (s !== undefined) this.#setState(s, 'idle'); // no turn started
      if (receiver !== undefined && from !== undefined)
        this.#notify(
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

  /** A hook of this session reported (a turn ran after the wake): its accepted wake messages were delivered. */
  turnReported(sessionId: string): void {
    for (const [id, p] of this.#pending) {
      if (p.receiverId === sessionId && !p.heldByClaude)
        this.#settle(
          id,
          sessionId,
          'delivered',
          'woken while idle through its Claude Code messaging socket; its turn ran',
        );
    }
  }

  #settle(id: string, receiverId: string, status: ReceiptStatus, reason: string): void {
    const hub = this.#hub;
    this.#pending.delete(id);
    const receiver = hub.table.live.get(receiverId) ?? hub.table.dormant.get(receiverId)?.session;
    void hub.mailboxes
      .ack(receiverId, [id])
      .then((removed) => {
        if (receiver === undefined) return;
        for (const i of removed) if (i.kind === 'message') this.#notify(i, receiver, status, reason);
      })
      .catch((err: unknown) => hub.log.error('wake: acknowledgement not stored', { error: String(err) }));
  }

  /** No way in: the user is told once per message, the sender gets `waiting`. */
  #tell(s: SessionRecord, items: InboxItem[], why: string): void {
    const { fresh, shown } = this.#told.tell(s, items, why);
    for (const i of fresh)
      if (i.kind === 'message')
        this.#notify(i, s, 'waiting', `${shown} is idle and cannot be woken (${why}); its user has been told`);
  }

  /** Forgets told ids that were read meanwhile. */
  #prune(s: SessionRecord): void {
    this.#told.prune(s.id, this.#hub.mailboxes.inbox(s.id));
  }

  #notify(
    item: Pick<Extract<InboxItem, { kind: 'message' }>, 'id' | 'from'>,
    receiver: Pick<SessionRecord, 'id' | 'name' | 'address' | 'socketPath'>,
    status: ReceiptStatus,
    reason: string,
  ): void {
    this.#hub.admission.notifySender(
      { msgId: item.id, fromAddress: item.from.address, fromSessionId: item.from.sessionId },
      receiver,
      status,
      reason,
    );
  }

  #setState(s: SessionRecord, state: 'busy' | 'idle'): void {
    if (s.state === state) return;
    s.state = state;
    s.stateSince = this.#hub.clock.now();
    this.#hub.events.emit({ type: 'sessions.changed' });
  }

  #remember(id: string): void {
    this.#written.add(id);
    if (this.#written.size > WRITTEN_KEPT) this.#written.delete(this.#written.values().next().value as string);
  }

  /** The session ended: its claims and told lists go (its inbox stays for a resume, unclaimed). */
  ended(sessionId: string): void {
    for (const [id, p] of this.#pending) {
      if (p.receiverId !== sessionId) continue;
      this.#pending.delete(id);
      this.#hub.mailboxes.release(sessionId, id);
    }
    this.#told.forget(sessionId);
    this.#turnEnded.delete(sessionId);
  }

  close(): void {
    this.#pending.clear();
  }
}
