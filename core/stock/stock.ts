// Interop with stock Claude Code sessions, in one place for the hub:
// discovery into the session table, reply sockets, idle subscriptions by
// Claude Code's own control frames (2.1.332+, `notify_idle` in its
// registry entry's peerFeatures), and publishing our sessions (a setting,
// off by default). The hub calls sweep/sessionsChanged/sessionEnded/close.

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../kit/clock.js';
import type { EventSink } from '../delivery/ports.js';
import type { IdleWatch } from '../idle/idle.js';
import type { SessionTable } from '../registry/table.js';
import type { EffectiveSettings } from '../settings/effective.js';
import type { PeerIdleNotice } from '../protocol/cc-wire.js';
import { writeLines } from '../transport/outbound.js';
import { senderClass, type SessionRecord } from '../registry/session.js';
import { stockName } from '../registry/table.js';
import { StockDiscovery, type StockSession } from './discovery.js';
import { readPeerToken } from './entry.js';
import { Publisher } from './publish.js';
import { ReplySockets, type ReplyPorts } from './reply.js';

export const IDLE_FEATURE = 'notify_idle';

/** What the stock interop needs from the hub. */
/** Whether `file` sits directly in `dir` (compared as given and with links resolved). */
function inDir(file: string, dir: string): boolean {
  const parent = path.dirname(path.resolve(file));
  if (parent === path.resolve(dir)) return true;
  try {
    return parent === fs.realpathSync(dir);
  } catch {
    return false;
  }
}

export interface StockPorts extends ReplyPorts {
  readonly table: Pick<SessionTable, 'live' | 'setStock' | 'stock'>;
  readonly idle: Pick<IdleWatch, 'subscribe' | 'targetIdle' | 'targetExited'>;
  readonly events: EventSink;
  readonly clock: Clock;
  readonly version: string;
  /** The receiver may be woken now (a Claude Code socket may have appeared: core/wake). */
  readonly wake: ReplyPorts['wake'] & { poke(sessionId: string): void };
  adminSettings(): EffectiveSettings;
}

export class StockInterop {
  readonly replies: ReplySockets;
  readonly root: string;
  readonly #hub: StockPorts;
  readonly #discovery: StockDiscovery;
  readonly #publisher: Publisher;
  /** notify_when_idle msg_id → the idle-watch target id it stands for. */
  readonly #idleRequests = new Map<string, string>();

  constructor(hub: StockPorts, root: string) {
    this.#hub = hub;
    this.root = root;
    this.replies = new ReplySockets(hub, {
      idleNotice: (line) => this.idleNotice(line),
    });
    const sessionsDir = path.join(root, 'sessions');
    this.#discovery = new StockDiscovery({
      sessionsDir,
      // Every socket in our own socket directory is ours (hub.sock, sessions'), whatever the table says now.
      isOurs: (p) => this.replies.isOurs(p) || inDir(p, path.dirname(hub.paths.hubSocket)),
      onChange: (sessions) => {
        const gone = hub.table.stock.filter((s) => !sessions.some((t) => t.address === s.address));
        hub.table.setStock(sessions);
        for (const s of gone) hub.idle.targetExited(stockTargetId(s));
        hub.events.emit({ type: 'sessions.changed' });
        for (const s of hub.table.live.values()) if (s.agent === 'claude') hub.wake.poke(s.id); // a socket may have appeared, or its status changed
      },
    });
    this.#publisher = new Publisher({
      sessionsDir,
      hubSocket: hub.paths.hubSocket,
      version: `switchboard-${hub.version}`,
      now: () => hub.clock.now(),
      log: (m, f) => hub.log.warn(m, f),
    });
  }

  /** Called once this hub owns the hub socket: clears our ghosts, starts discovery and publishing. */
  start(): void {
    this.#publisher.sweepGhosts();
    this.#discovery.start();
    this.sessionsChanged();
  }

  supportsIdle(s: StockSession): boolean {
    return s.entry.peerFeatures?.includes(IDLE_FEATURE) === true;
  }

  /** Subscribes `sender` to the Claude Code session's next idle, by its own control frame. */
  async subscribeIdle(sender: SessionRecord, target: StockSession, from: string, shown: string): Promise<void> {
    const msgId = randomUUID();
    const lines: string[] = [];
    const token = readPeerToken(path.join(this.root, 'sessions'), target.entry);
    if (token !== undefined) lines.push(JSON.stringify({ type: 'auth', token }));
    lines.push(
      JSON.stringify({
        type: 'control',
        action: 'notify_when_idle',
        from,
        msg_id: msgId,
        ...(senderClass(sender) !== null ? { from_mode: senderClass(sender) } : {}),
        msgV: 1,
      }),
    );
    await writeLines(target.socketPath, lines, this.#hub.limits.outboundTimeoutMs);
    this.#idleRequests.set(msgId, stockTargetId(target));
    this.#hub.idle.subscribe(sender, { id: stockTargetId(target), name: stockName(target) }, shown);
  }

  /** A peer_idle_notice on a reply socket: the usual idle notice, once. */
  idleNotice(line: PeerIdleNotice): void {
    const targetId = this.#idleRequests.get(line.orig_msg_id);
    if (targetId === undefined) return; // not ours, or already answered
    this.#idleRequests.delete(line.orig_msg_id);
    this.#hub.idle.targetIdle(targetId);
  }

  sweep(): Promise<void> {
    return this.#discovery.sweep();
  }

  /** Whether discovery wants the hub's long tick (see StockDiscovery.wantsRecheck). */
  get wantsRecheck(): boolean {
    return this.#discovery.wantsRecheck;
  }

  /** Our sessions changed (added, renamed, busy/idle): republish when publishing is on. */
  sessionsChanged(): void {
    const on = this.#hub.adminSettings().publishToClaudeCode.value;
    this.#publisher.sync(on ? [...this.#hub.table.live.values()] : []);
  }

  sessionEnded(id: string): void {
    this.replies.close(id);
    this.sessionsChanged();
  }

  /** Stops everything and forgets its rows (a new root starts from nothing). */
  close(): void {
    this.#discovery.close();
    this.replies.closeAll();
    this.#publisher.close();
    if (this.#hub.table.stock.length > 0) this.#hub.table.setStock([]);
  }
}

export function stockTargetId(s: StockSession): string {
  return `stock:${s.address}`;
}
