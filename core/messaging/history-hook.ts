// The hub's glue to core/history: the recorder built from the hub's state
// directory, limits, clock and retention settings, and admission's hook (the
// message as it enters, then where admission put it). Queues only: nothing
// here does I/O on the send path.

import { HistoryRecorder } from '../history/recorder.js';
import { HubError } from '../protocol/errors.js';
import type { RouteResult } from '../delivery/ports.js';
import type { Envelope } from '../delivery/envelope.js';
import type { SessionRecord } from '../registry/session.js';
import type { Clock } from '../kit/clock.js';
import type { Logger } from '../kit/logger.js';
import type { Limits } from '../protocol/limits.js';
import type { HistoryMove } from '../protocol/history.js';
import type { SessionTable } from '../registry/table.js';
import type { EffectiveSettings } from '../settings/effective.js';

/** What building the recorder needs. */
export interface RecorderPorts {
  readonly paths: { readonly stateDir: string };
  readonly limits: Limits;
  readonly clock: Clock;
  readonly log: Logger;
  readonly version: string;
  adminSettings(): EffectiveSettings;
}

/** What recording an admission needs. */
export interface AdmitRecordPorts {
  readonly history: Pick<HistoryRecorder, 'enabled' | 'message' | 'outcome'>;
  readonly table: Pick<SessionTable, 'live'>;
}

const DAY_MS = 86_400_000;
const MEGABYTE = 1024 * 1024;

export function createRecorder(
  hub: RecorderPorts,
  enabled: boolean | undefined,
  moves?: { onMove: (m: HistoryMove) => void; wanted: () => boolean },
): HistoryRecorder {
  return new HistoryRecorder({
    stateDir: hub.paths.stateDir,
    limits: hub.limits,
    now: () => hub.clock.now(),
    policy: () => {
      const a = hub.adminSettings();
      return { maxAgeMs: a.historyRetentionDays.value * DAY_MS, maxBytes: a.historyMaxMegabytes.value * MEGABYTE };
    },
    onError: (what, err) => hub.log.error(what, { error: err instanceof Error ? err.message : String(err) }),
    writer: `switchboard ${hub.version}`,
    ...(enabled === false ? { enabled: false } : {}),
    ...(moves !== undefined ? { onMove: moves.onMove, movesWanted: moves.wanted } : {}),
  });
}

/** Runs one admission with the message and its outcome recorded around it (one promise reaction, no await). */
export function admitRecorded(
  hub: AdmitRecordPorts,
  env: Envelope,
  receiver: SessionRecord,
  admit: () => Promise<RouteResult>,
): Promise<RouteResult> {
  const history = hub.history;
  if (!history.enabled) return admit();
  const sender = env.fromSessionId === null ? undefined : hub.table.live.get(env.fromSessionId);
  // A message the queue had no room for is a counted gap: its outcome is not recorded either (no orphan
  // outcome rows), and a saturated hub pays no promise reaction for history.
  const queued = history.message(env, receiver, sender?.team ?? null);
  if (queued === false) return admit();
  return admit().then(
    (r) => {
      history.outcome(env.msgId, r.status, r.reason, queued); // folded into its record while that is still queued
      return r;
    },
    (err: unknown) => {
      // Not stored (a full disk, a read-only one): the sender was answered with the error, and history says so.
      history.outcome(env.msgId, 'failed', err instanceof HubError ? err.reason : 'internal', queued);
      throw err;
    },
  );
}
