// Folded drop reports: a sender whose messages the throttle drops hears of
// them once per fold window, with a count, never once per message (a loop of
// two agents must not be fed a receipt per drop). The throttle counts; this
// sets one timer for the earliest report due (kit/alarm.ts) and, when it
// fires, tells each sender through the receipts module. Nothing polls.

import { randomUUID } from 'node:crypto';
import { Alarm } from '../kit/alarm.js';
import type { Clock } from '../kit/clock.js';
import type { Throttle } from '../policy/throttle.js';
import type { ReceiptPort, ReceiptReceiver } from '../receipts/receipts.js';
import type { SessionRecord } from '../registry/session.js';
import type { SessionTable } from '../registry/table.js';
import type { EffectiveSettings } from '../settings/effective.js';

/** What drop reports need from the hub. */
export interface DropReportPorts {
  readonly table: Pick<SessionTable, 'live' | 'dormant'>;
  readonly clock: Clock;
  readonly receipts: Pick<ReceiptPort, 'tell'>;
}

export class DropReports {
  readonly #hub: DropReportPorts;
  readonly #throttle: Throttle;
  readonly #effective: (s: SessionRecord) => EffectiveSettings;
  /** Fires when the earliest folded report is due. */
  readonly #alarm: Alarm;
  /** Per receiver and sender with a folded report: when it is due at the latest (its last drop + its window). */
  readonly #folds = new Map<string, number>();

  constructor(hub: DropReportPorts, throttle: Throttle, effective: (s: SessionRecord) => EffectiveSettings) {
    this.#hub = hub;
    this.#throttle = throttle;
    this.#effective = effective;
    this.#alarm = new Alarm(
      hub.clock,
      () => hub.clock.monotonic(),
      () => this.flush(),
    );
  }

  close(): void {
    this.#alarm.close();
  }

  /**
   * Records a drop (throttle.dropped) and returns how many the sender is told of now; 0 when the report is
   * folded into a later one, whose timer this sets.
   */
  dropped(
    receiverId: string,
    senderKey: string,
    reason: Parameters<Throttle['dropped']>[2],
    eff: EffectiveSettings,
    writer: boolean,
  ): number {
    const count = this.#throttle.dropped(receiverId, senderKey, reason, eff.throttle.value, writer);
    if (count === 0) {
      // Its fold began at or before now, so it is due by now + its window; an earlier due time stays.
      const key = `${receiverId}\0${senderKey}`;
      const due = this.#hub.clock.monotonic() + eff.throttle.value.foldWindowMs;
      const known = this.#folds.get(key);
      if (known === undefined || due < known) this.#folds.set(key, due);
      this.#alarm.atLatest(this.#folds.get(key)!);
    }
    return count;
  }

  /** Sends folded reports whose window has passed, then waits for the next one due. */
  flush(): void {
    const hub = this.#hub;
    const now = hub.clock.monotonic();
    let next: number | null = null;
    for (const [key, due] of this.#folds) {
      if (due <= now) this.#folds.delete(key);
      else if (next === null || due < next) next = due;
    }
    this.#alarm.at(next);
    const windowOf = (rid: string): number => {
      const s = hub.table.live.get(rid);
      return s ? this.#effective(s).throttle.value.foldWindowMs : 0;
    };
    for (const f of this.#throttle.flush(windowOf)) {
      const receiver = receiverOf(hub.table, f.receiverId);
      const fromSession = hub.table.live.get(f.senderKey) ?? hub.table.dormant.get(f.senderKey)?.session;
      const env = {
        msgId: randomUUID(),
        fromAddress: fromSession?.address ?? f.senderKey,
        fromSessionId: fromSession?.id ?? null,
      };
      hub.receipts.tell(env, receiver, 'dropped', f.reason, f.count);
    }
  }
}

/** Whom a receipt names: the session while the hub knows it (live or dormant), else one that has ended. */
export function receiverOf(table: Pick<SessionTable, 'live' | 'dormant'>, id: string): ReceiptReceiver {
  const s = table.live.get(id) ?? table.dormant.get(id)?.session;
  return s ?? { id, name: 'a session that has ended', address: '', socketPath: '' };
}
