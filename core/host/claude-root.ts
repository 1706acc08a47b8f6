// Claude Code's config root as the hub uses it: its teams and task lists
// (watched for changes by anyone) and the stock-session interop under the
// same root. The root comes from the `claudeConfigDir` setting, else the
// hub's default; a settings change reopens what moved, nothing else. Beside
// it, Qwen Code's own sessions (core/stock/qwen.ts), under its fixed home.

import type { EventSink } from '../delivery/ports.js';
import type { Logger } from '../kit/logger.js';
import type { EffectiveSettings } from '../settings/effective.js';
import path from 'node:path';
import type { EndpointEnv } from '../transport/endpoint.js';
import { QwenInterop, type QwenPorts } from '../stock/qwen.js';
import { StockInterop, type StockPorts } from '../stock/stock.js';
import { Teams } from '../teams/teams.js';
import { RootWatcher } from '../teams/watch.js';

export interface ClaudeRootPorts extends StockPorts {
  readonly table: StockPorts['table'] & QwenPorts['table'];
  readonly log: Logger;
  readonly paths: StockPorts['paths'] & { readonly socketDir: string };
  readonly events: EventSink;
  adminSettings(): EffectiveSettings;
}

const TEAM_LOCK_STALE_MS = 10_000;

/** Claude Code's default root ($CLAUDE_CONFIG_DIR, else ~/.claude) and Qwen Code's home ($QWEN_HOME, else ~/.qwen). */
export function agentHomes(env: EndpointEnv, o: { claudeHome?: string; qwenHome?: string }): Homes {
  const from = (v: string | undefined, dir: string): string => (v ? path.resolve(v) : path.join(env.home, dir));
  return {
    claude: o.claudeHome ?? from(env.env.CLAUDE_CONFIG_DIR, '.claude'),
    qwen: o.qwenHome ?? from(env.env.QWEN_HOME, '.qwen'),
  };
}

export interface Homes {
  claude: string;
  qwen: string;
}

export class ClaudeRoot {
  teams!: Teams;
  stock!: StockInterop;
  readonly qwen: QwenInterop;
  #watcher: RootWatcher | undefined;
  readonly #ports: ClaudeRootPorts;
  readonly #defaultHome: string;
  readonly #started: () => boolean;

  /** `started`: whether the hub serves yet (a new stock interop then starts at once). */
  constructor(ports: ClaudeRootPorts, homes: Homes, started: () => boolean) {
    this.#ports = ports;
    this.#defaultHome = homes.claude;
    this.#started = started;
    this.open();
    const socketDir = path.resolve(ports.paths.socketDir);
    this.qwen = new QwenInterop(
      {
        log: ports.log,
        paths: ports.paths,
        receipts: ports.receipts,
        table: ports.table,
        events: ports.events,
        isOurSocket: (p) => this.stock.replies.isOurs(p) || path.dirname(path.resolve(p)) === socketDir,
      },
      homes.qwen,
    );
  }

  /** Once the hub serves: stock discovery and publishing, Qwen Code's discovery. */
  start(): void {
    this.stock.start();
    this.qwen.start();
  }

  sessionEnded(id: string): void {
    this.stock.sessionEnded(id);
    this.qwen.sessionEnded(id);
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
    return this.stock.wantsRecheck || this.qwen.wantsRecheck;
  }

  /** The long tick's turn: the watcher re-arms on folders that appeared, discovery rescans. */
  async sweep(): Promise<void> {
    this.#watcher?.refresh();
    await this.stock.sweep();
    await this.qwen.sweep();
  }

  close(): void {
    this.#watcher?.close();
    this.stock.close();
    this.qwen.close();
  }
}
