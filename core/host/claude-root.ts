// Claude Code's config root as the hub uses it: its teams and task lists
// (watched for changes by anyone) and the stock-session interop under the
// same root. The root comes from the `claudeConfigDir` setting, else the
// hub's default; a settings change reopens what moved, nothing else.

import type { EventSink } from '../delivery/ports.js';
import type { Logger } from '../kit/logger.js';
import type { EffectiveSettings } from '../settings/effective.js';
import { StockInterop, type StockPorts } from '../stock/stock.js';
import { Teams } from '../teams/teams.js';
import { RootWatcher } from '../teams/watch.js';

export interface ClaudeRootPorts extends StockPorts {
  readonly log: Logger;
  readonly events: EventSink;
  adminSettings(): EffectiveSettings;
}

const TEAM_LOCK_STALE_MS = 10_000;

export class ClaudeRoot {
  teams!: Teams;
  stock!: StockInterop;
  #watcher: RootWatcher | undefined;
  readonly #ports: ClaudeRootPorts;
  readonly #defaultHome: string;
  readonly #started: () => boolean;

  /** `started`: whether the hub serves yet (a new stock interop then starts at once). */
  constructor(ports: ClaudeRootPorts, defaultHome: string, started: () => boolean) {
    this.#ports = ports;
    this.#defaultHome = defaultHome;
    this.#started = started;
    this.open();
  }

  /** (Re)opens the root from settings. */
  open(): void {
    const admin = this.#ports.adminSettings();
    const root = admin.claudeConfigDir.value ?? this.#defaultHome;
    const lock = {
      deadlineMs: admin.teamLockDeadlineSeconds.value * 1000,
      staleMs: TEAM_LOCK_STALE_MS,
      onCompromised: (err: Error) => this.#ports.log.warn('team lock compromised', { error: err.message }),
    };
    const sameRoot = this.teams?.root === root;
    this.teams = new Teams(root, lock);
    if (this.stock?.root !== root) {
      this.stock?.close();
      this.stock = new StockInterop(this.#ports, root);
      if (this.#started()) this.stock.start();
    }
    if (sameRoot && this.#watcher !== undefined) return;
    this.#watcher?.close();
    this.#watcher = new RootWatcher([this.teams.teamsRoot, this.teams.tasksRoot], () =>
      this.#ports.events.emit({ type: 'teams.changed' }),
    );
  }

  /** Whether the hub's long tick is wanted here (listed Claude Code sessions, sockets not answering yet). */
  get wantsRecheck(): boolean {
    return this.stock.wantsRecheck;
  }

  /** The long tick's turn: the watcher re-arms on folders that appeared, discovery rescans. */
  async sweep(): Promise<void> {
    this.#watcher?.refresh();
    await this.stock.sweep();
  }

  close(): void {
    this.#watcher?.close();
    this.stock.close();
  }
}
