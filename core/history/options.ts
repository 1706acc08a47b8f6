// What a HistoryRecorder is built from: the hub's history limits, where the
// file lives, the clock, the retention policy and the error sink. Types only.

import type { HistoryMove, RetentionPolicy } from '../protocol/history.js';

export interface HistoryLimits {
  historyQueueRecords: number;
  historyQueueChars: number;
  historyFlushMs: number;
  historyBusyFlushMs: number;
  historyBatchRecords: number;
  historyFlushBudgetMs: number;
  historyIdleFlushBudgetMs: number;
  historyPruneMs: number;
  historyMovesKnown: number;
  historyReserveBytes: number;
}

export interface RecorderOptions {
  stateDir: string;
  limits: HistoryLimits;
  now: () => number;
  policy: () => RetentionPolicy;
  onError: (what: string, err: unknown) => void;
  /** Named in the database as its writer (`switchboard <version>`). */
  writer?: string;
  /** false: history off by configuration (benchmarks); default true. */
  enabled?: boolean;
  /** Tests: the sqlite module, or null to act as a runtime without it. */
  sqlite?: typeof import('node:sqlite') | null;
  /** Each change to the picture's counts as it is recorded (moves.ts); the hub pushes them to user interfaces. */
  onMove?: (m: HistoryMove) => void;
  /** Whether anyone follows the moves now (none built otherwise; default: when `onMove` is given). */
  movesWanted?: () => boolean;
}
