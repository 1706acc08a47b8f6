// The hub's housekeeping, without a poll (an idle hub on a laptop stays
// asleep). Each duty runs when it is due, not on a one-second tick:
//   - liveness: pid-bound sessions are checked in one batch (process.kill(0)
//     for all, start times read asynchronously, never a child process on the
//     loop) every `livenessSweepMs` (20 s), only while any exists; a
//     connection closing checks its sessions at once. The same long tick
//     rechecks listed Claude Code sessions (a crashed one leaves its file),
//     binds again socket files a cleaner took (the socket folder is also
//     watched) and polls settings folders that cannot be watched;
//   - dormant sessions: one timer for the oldest one's age (trimDormant);
//   - idle subscriptions: one timer for the earliest expiry;
//   - after activity (requests, sessions ending): a one-second tick for
//     RECLAIM_TICKS seconds for memory reclaim and journal compaction, then
//     none.
// Held countdowns and folded drop reports keep their own timers
// (messaging/admission.ts), settings and Claude Code's folders are watched.
// A failing turn is logged, never thrown.

import fs from 'node:fs';
import type { Journal } from '../journal/journal.js';
import { Alarm } from '../kit/alarm.js';
import { drop } from '../kit/drop.js';
import type { Logger } from '../kit/logger.js';
import type { IdleWatch } from '../idle/idle.js';
import { sameProcessesAlive } from '../registry/proc.js';
import type { SessionTable } from '../registry/table.js';
import { trimDormant, type EndKind, type RetentionPorts } from '../sessions/retention.js';

export interface SweepPorts extends RetentionPorts {
  readonly table: RetentionPorts['table'] & Pick<SessionTable, 'live'>;
  readonly log: Logger;
  readonly idle: RetentionPorts['idle'] & Pick<IdleWatch, 'expire' | 'list'>;
  readonly journal: Pick<Journal, 'wantsCompaction' | 'compact'>;
  readonly reclaimer: RetentionPorts['reclaimer'] & { sweep(): void };
  /** Claude Code's root: `sweep` rechecks its listed sessions; `wantsRecheck` while any is listed or unanswered. */
  readonly claude: { sweep(): Promise<void>; readonly wantsRecheck: boolean };
  readonly settings: { readonly needsPolling: boolean };
  retire(id: string, end: EndKind): Promise<void>;
  settingsChanged(): Promise<void>;
  keepSockets(): Promise<void>;
}

/** One-second ticks after the last activity: longer than reclaim's 10 s between collections (kit/reclaim.ts). */
const RECLAIM_TICKS = 15;
const BUSY_TICK_MS = 1000;
/** A removed socket file is bound again this soon after its folder changed. */
const SOCKETS_DEBOUNCE_MS = 50;

export class Sweeper {
  readonly #hub: SweepPorts;
  readonly #liveness: Alarm;
  readonly #dormant: Alarm;
  readonly #idle: Alarm;
  #busy: NodeJS.Timeout | undefined;
  #quietTicks = 0;
  #active = false;
  #socketWatch: fs.FSWatcher | undefined;
  #socketTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(hub: SweepPorts) {
    this.#hub = hub;
    const monotonic = (): number => hub.clock.monotonic();
    const log = (m: string, f: Record<string, unknown>): void => hub.log.error(m, f);
    this.#liveness = new Alarm(hub.clock, monotonic, () => drop(this.livenessOnce(), 'liveness check', log));
    this.#dormant = new Alarm(
      hub.clock,
      () => hub.clock.now(),
      () => drop(this.#trim(), 'dormant trim', log),
    );
    this.#idle = new Alarm(hub.clock, monotonic, () => this.#expireIdle());
  }

  /** Arms every duty (after restore); `socketDir` is watched for removed socket files (Unix). */
  start(socketDir: string | undefined): void {
    if (socketDir !== undefined) this.#watchSockets(socketDir);
    this.sessionsChanged();
    this.dormantChanged();
    this.idleChanged();
  }

  /** Sessions came or went: the liveness tick runs while it has something to check. */
  sessionsChanged(): void {
    if (!this.#wantsLiveness()) return this.#liveness.at(null);
    if (this.#liveness.when === null) this.#liveness.at(this.#hub.clock.monotonic() + this.#hub.limits.livenessSweepMs);
  }

  /** A connection closed: the pid-bound sessions it spoke for are checked soon (their agent may have exited). */
  connectionClosed(): void {
    if (this.#wantsLiveness()) this.#liveness.atLatest(this.#hub.clock.monotonic() + BUSY_TICK_MS);
  }

  /** The dormant set changed: one timer for the oldest one's age. */
  dormantChanged(): void {
    let oldest: number | null = null;
    for (const d of this.#hub.table.dormant.values()) if (oldest === null || d.diedAt < oldest) oldest = d.diedAt;
    this.#dormant.at(oldest === null ? null : oldest + this.#hub.limits.dormantRetentionMs + 1);
  }

  /** Idle subscriptions changed: one timer for the earliest expiry. */
  idleChanged(): void {
    let first: number | null = null;
    for (const sub of this.#hub.idle.list()) if (first === null || sub.expiresAt < first) first = sub.expiresAt;
    this.#idle.at(first);
  }

  /** A request or an ending: memory reclaim and compaction look each second until things are quiet again. */
  activity(): void {
    this.#active = true;
    if (this.#busy !== undefined || this.#closed) return;
    this.#quietTicks = 0;
    this.#busy = setInterval(() => this.#busyTick(), BUSY_TICK_MS);
    this.#busy.unref();
  }

  #busyTick(): void {
    try {
      this.#hub.reclaimer.sweep();
      if (this.#hub.journal.wantsCompaction())
        drop(this.#hub.journal.compact(), 'journal compaction', (m, f) => this.#hub.log.error(m, f)); // it logs and keeps the old file
    } catch (err) {
      this.#hub.log.error('sweep failed', { error: err instanceof Error ? err.stack : String(err) });
    }
    this.#quietTicks = this.#active ? 0 : this.#quietTicks + 1;
    this.#active = false;
    if (this.#quietTicks >= RECLAIM_TICKS) {
      clearInterval(this.#busy);
      this.#busy = undefined;
    }
  }

  #wantsLiveness(): boolean {
    const hub = this.#hub;
    if (hub.claude.wantsRecheck || hub.settings.needsPolling) return true;
    for (const s of hub.table.live.values()) if (s.liveness === 'pid' && s.pid !== null) return true;
    return false;
  }

  /** The long tick: every pid-bound session in one batch, then Claude Code's listed sessions, sockets, settings. */
  async livenessOnce(): Promise<void> {
    const hub = this.#hub;
    try {
      const bound = [...hub.table.live.values()].filter((s) => s.liveness === 'pid' && s.pid !== null);
      const same = await sameProcessesAlive(bound.map((s) => ({ pid: s.pid!, startTime: s.procStart ?? undefined })));
      const now = hub.clock.now();
      for (const [i, s] of bound.entries()) {
        if (hub.table.live.get(s.id) !== s) continue; // ended or re-registered meanwhile
        // A process that exited never comes back; a silent one past its lease might.
        if (!same[i]) await hub.retire(s.id, 'final');
        else if (now - s.lastSeen > hub.limits.leaseMs) await hub.retire(s.id, 'dormant');
      }
      await hub.keepSockets();
      await hub.claude.sweep();
      if (hub.settings.needsPolling) await hub.settingsChanged();
    } catch (err) {
      hub.log.error('sweep failed', { error: err instanceof Error ? err.stack : String(err) });
    } finally {
      this.#liveness.at(null);
      this.sessionsChanged();
    }
  }

  async #trim(): Promise<void> {
    try {
      await trimDormant(this.#hub);
    } finally {
      this.dormantChanged();
    }
  }

  #expireIdle(): void {
    try {
      this.#hub.idle.expire();
    } catch (err) {
      this.#hub.log.error('sweep failed', { error: err instanceof Error ? err.stack : String(err) });
    }
    this.idleChanged();
  }

  /** Watches the socket folder: a socket file a cleaner removed is bound again at once (socket-keeper.ts). */
  #watchSockets(dir: string): void {
    if (this.#closed) return;
    this.#socketWatch?.close();
    this.#socketWatch = undefined;
    const soon = (): void => {
      if (this.#socketTimer !== undefined || this.#closed) return;
      this.#socketTimer = setTimeout(() => {
        this.#socketTimer = undefined;
        const again = (): void => this.#watchSockets(dir); // the folder may be a new one now
        this.#hub.keepSockets().then(again, (err: unknown) => {
          this.#hub.log.error('socket keeper failed', { error: String(err) });
          again();
        });
      }, SOCKETS_DEBOUNCE_MS);
      this.#socketTimer.unref();
    };
    try {
      const w = fs.watch(dir, { persistent: false }, soon);
      w.on('error', () => {
        w.close();
        if (this.#socketWatch === w) this.#socketWatch = undefined;
        soon();
      });
      this.#socketWatch = w;
    } catch {
      // the folder is gone: the long tick binds again (and the next change watches again)
    }
  }

  close(): void {
    this.#closed = true;
    this.#liveness.close();
    this.#dormant.close();
    this.#idle.close();
    if (this.#busy !== undefined) clearInterval(this.#busy);
    if (this.#socketTimer !== undefined) clearTimeout(this.#socketTimer);
    this.#socketWatch?.close();
  }
}
