// What a hub is started with (everything from outside comes in here, never
// from process globals inside the hub) and the few fixed sizes of its
// in-memory views. hub.ts builds the Hub from these.

import type { Clock } from '../kit/clock.js';
import type { Logger } from '../kit/logger.js';
import type { Limits } from '../protocol/limits.js';
import type { EndpointEnv } from '../transport/endpoint.js';
import type { SetupEnv } from '../setup/setup-env.js';

export interface HubOptions {
  endpoint?: EndpointEnv;
  limits?: Partial<Limits>;
  clock?: Clock;
  logger?: Logger;
  version?: string;
  /** Who agent setup runs as (default: this process's node and script, as `serve` runs); asked at each setup call. */
  setupEnv?: () => SetupEnv | Promise<SetupEnv>;
  /** The system-wide managed settings file (default: the OS location). */
  managedSettingsPath?: string;
  /** Claude Code's config root when no setting names one (default $CLAUDE_CONFIG_DIR or ~/.claude). */
  claudeHome?: string;
  /** Qwen Code's home (default $QWEN_HOME or ~/.qwen): its sessions/ are listed (core/stock/qwen.ts). */
  qwenHome?: string;
  /** false turns the history store off (benchmarks); default on where node:sqlite exists. */
  history?: boolean;
}

/** Activity entries the Activity view keeps in memory. */
export const ACTIVITY_KEPT = 500;
/** Notices for the person (idle notices, waiting messages) kept in memory. */
export const USER_NOTICES_KEPT = 100;
