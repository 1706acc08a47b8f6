// The hub's periodic housekeeping, one turn at a time: sessions whose process
// exited end for good, silent ones past their lease go dormant, ended ones
// past retention are trimmed; socket files a cleaner removed are bound
// again; memory is reclaimed after a burst; Claude
// Code's root is rescanned; settings files are polled; held messages expire;
// folded drop receipts go out; idle subscriptions expire; the journal is
// compacted when it wants to be. A failing turn is logged, never thrown.

import type { Journal } from '../journal/journal.js';
import type { Logger } from '../kit/logger.js';
import { drop } from '../kit/drop.js';
import type { Admission } from '../messaging/admission.js';
import type { IdleWatch } from '../idle/idle.js';
import { sameProcessAlive } from '../registry/proc.js';
import type { SessionTable } from '../registry/table.js';
import { trimDormant, type EndKind, type RetentionPorts } from '../sessions/retention.js';

export interface SweepPorts extends RetentionPorts {
  readonly table: RetentionPorts['table'] & Pick<SessionTable, 'live'>;
  readonly log: Logger;
  readonly admission: RetentionPorts['admission'] & Pick<Admission, 'expireDue' | 'flushDrops'>;
  readonly idle: RetentionPorts['idle'] & Pick<IdleWatch, 'expire'>;
  readonly journal: Pick<Journal, 'wantsCompaction' | 'compact'>;
  readonly reclaimer: RetentionPorts['reclaimer'] & { sweep(): void };
  readonly claude: { sweep(): Promise<void> };
  retire(id: string, end: EndKind): Promise<void>;
  settingsChanged(): Promise<void>;
  keepSockets(): Promise<void>;
}

export async function sweepOnce(hub: SweepPorts): Promise<void> {
  try {
    await hub.keepSockets();
    const now = hub.clock.now();
    for (const s of [...hub.table.live.values()]) {
      if (s.liveness !== 'pid' || s.pid === null) continue;
      // A process that exited never comes back; a silent one past its lease might.
      if (!sameProcessAlive({ pid: s.pid, startTime: s.procStart ?? undefined })) await hub.retire(s.id, 'final');
      else if (now - s.lastSeen > hub.limits.leaseMs) await hub.retire(s.id, 'dormant');
    }
    await trimDormant(hub);
    hub.reclaimer.sweep();
    await hub.claude.sweep();
    await hub.settingsChanged();
    await hub.admission.expireDue();
    hub.admission.flushDrops();
    hub.idle.expire();
    if (hub.journal.wantsCompaction()) drop(hub.journal.compact(), 'journal compaction', (m, f) => hub.log.error(m, f)); // it logs and keeps the old file
  } catch (err) {
    hub.log.error('sweep failed', { error: err instanceof Error ? err.stack : String(err) });
  }
}
