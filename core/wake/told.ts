// "N messages waiting for X, which is idle": the messages whose user was told
// that their idle session cannot be woken, per session, each told once. A
// notice is pushed (the tray raises it; the row shows the count) and the
// caller sends each fresh message's sender a `waiting` receipt. Ids read
// meanwhile are forgotten, so the count stays what still waits.

import { randomUUID } from 'node:crypto';
import { USER_SUBSCRIBER } from '../idle/idle.js';
import type { Clock } from '../kit/clock.js';
import type { EventSink } from '../delivery/ports.js';
import type { InboxItem } from '../protocol/methods.js';
import type { UserNotice } from '../protocol/events.js';
import { label } from '../registry/names.js';
import type { SessionRecord } from '../registry/session.js';
import type { SessionTable } from '../registry/table.js';

export interface ToldPorts {
  readonly table: Pick<SessionTable, 'refOf'>;
  readonly events: EventSink;
  readonly userNotices: { push(notice: UserNotice): void };
  readonly clock: Clock;
}

export class WaitingTold {
  readonly #ports: ToldPorts;
  /** receiver id → ids of messages its user was told about. */
  readonly #told = new Map<string, Set<string>>();

  constructor(ports: ToldPorts) {
    this.#ports = ports;
  }

  count(sessionId: string): number {
    return this.#told.get(sessionId)?.size ?? 0;
  }

  /** Tells the user about the items not told yet; returns them and the label shown (empty: nothing new). */
  tell(s: SessionRecord, items: readonly InboxItem[], why: string): { fresh: InboxItem[]; shown: string } {
    const p = this.#ports;
    let told = this.#told.get(s.id);
    if (told === undefined) this.#told.set(s.id, (told = new Set()));
    const fresh = items.filter((i) => !told.has(i.id));
    const shown = label(s.name, p.table.refOf(s.id));
    if (fresh.length === 0) return { fresh, shown };
    for (const i of fresh) told.add(i.id);
    const n = told.size;
    const text = `${n} message${n === 1 ? '' : 's'} waiting for ${shown}, which is idle (${why}). Switch to it and type anything, or it reads them at its next turn.`;
    const notice: UserNotice = {
      id: randomUUID(),
      at: p.clock.now(),
      sessionId: USER_SUBSCRIBER,
      text,
      waiting: { sessionId: s.id, label: shown, count: n },
    };
    p.userNotices.push(notice);
    p.events.emit({ type: 'user.notice', notice });
    p.events.emit({ type: 'sessions.changed' });
    return { fresh, shown };
  }

  /** Forgets told ids no longer in the inbox. */
  prune(sessionId: string, inbox: { has(id: string): boolean }): void {
    const told = this.#told.get(sessionId);
    if (told === undefined) return;
    for (const id of told) if (!inbox.has(id)) told.delete(id);
    if (told.size === 0) this.#told.delete(sessionId);
  }

  forget(sessionId: string): void {
    this.#told.delete(sessionId);
  }
}
