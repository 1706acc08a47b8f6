// Admission of every message to a hosted session, in order: throttle (loop
// damping), inbound policy and the person's rules, then hold or enqueue.
// Owns the held queue and decides which receipt each outcome earns (held,
// approved, denied, refused, expired, dropped — each status distinct; a
// policy refusal is never "denied"); receipts/receipts.ts builds and routes
// them. The decisions for held messages come only from user interfaces
// (hub.ts checks the UI token); nothing here is reachable with a session's
// token. Unverified writers share one budget per receiver (policy/writers.ts).
// Nothing here polls: a held message's countdown and a folded drop report
// (drop-reports.ts) each set one timer for the earliest moment due
// (kit/alarm.ts); `close` stops them.

import { randomUUID } from 'node:crypto';
import { HubError } from '../protocol/errors.js';
import { PAUSED_REASON } from '../protocol/vocabulary.js';
import type { RuleBook } from '../policy/rules.js';
import { ruleDecision } from './rule-admission.js';
import { HeldQueue, type HeldEntry } from '../policy/held.js';
import { decideInbound, type Decision } from '../policy/policy.js';
import { modeClass, type SessionRecord } from '../registry/session.js';
import { enqueue } from '../delivery/enqueue.js';
import type { Envelope } from '../delivery/envelope.js';
import type { AdmissionPort, RouteResult } from '../delivery/ports.js';
import { dialogExpiryMs, type EffectiveSettings } from '../settings/effective.js';
import { Throttle } from '../policy/throttle.js';
import { DropReports, receiverOf } from './drop-reports.js';
import { fromUnverifiedWriter, HELD_CAP, writersHeldFull, writerUnread } from '../policy/writers.js';
import { Alarm } from '../kit/alarm.js';
import { drop } from '../kit/drop.js';
import type { Clock } from '../kit/clock.js';
import type { Logger } from '../kit/logger.js';
import type { EventSink } from '../delivery/ports.js';
import type { Mailboxes } from '../delivery/mailboxes.js';
import type { Journal } from '../journal/journal.js';
import type { SessionTable } from '../registry/table.js';
import type { SettingsStore } from '../settings/store.js';
import { admitRecorded, type AdmitRecordPorts } from './history-hook.js';
import type { ReceiptPort, ReceiptReceiver } from '../receipts/receipts.js';

/** What admission needs from the hub. */
export interface AdmissionPorts extends AdmitRecordPorts {
  readonly table: Pick<SessionTable, 'live' | 'dormant'>;
  readonly mailboxes: Mailboxes;
  readonly journal: Pick<Journal, 'append'>;
  readonly settings: Pick<SettingsStore, 'effective'>;
  readonly events: EventSink;
  readonly clock: Clock;
  readonly log: Pick<Logger, 'error'>;
  /** Wakes an idle receiver once a message is queued for it (core/wake). */
  readonly wake: { poke(receiverId: string): void };
  readonly receipts: ReceiptPort;
  /** The person's rules with lifetimes (policy/rules.ts). */
  readonly rules: RuleBook;
  adminSettings(): EffectiveSettings;
}

const PAUSED: Decision = { action: 'refuse', reason: PAUSED_REASON };

export class Admission implements AdmissionPort {
  readonly throttle: Throttle;
  readonly held: HeldQueue;
  readonly #hub: AdmissionPorts;
  /** Fires at the earliest held countdown's end. */
  readonly #expiry: Alarm;
  /** Folded drop reports: each sender hears of its dropped messages once per window, with a count. */
  readonly #drops: DropReports;
  #uiAttached = 0;
  #paused = false;
  /** Messages refused since the pause began (the pause banner says how many). */
  pausedRefused = 0;

  constructor(hub: AdmissionPorts) {
    this.#hub = hub;
    this.throttle = new Throttle(() => hub.clock.monotonic());
    this.held = new HeldQueue(HELD_CAP, () => hub.clock.monotonic());
    const monotonic = (): number => hub.clock.monotonic();
    this.#expiry = new Alarm(hub.clock, monotonic, () =>
      drop(this.expireDue(), 'held countdowns', (m, f) => hub.log.error(m, f)),
    );
    this.#drops = new DropReports(hub, this.throttle, (s) => this.effective(s));
  }

  /** Stops the countdown and drop-report timers (the hub is closing). */
  close(): void {
    this.#expiry.close();
    this.#drops.close();
  }

  /** "Pause inbound" from a user interface: every new message is refused (not persisted). */
  get paused(): boolean {
    return this.#paused;
  }

  set paused(on: boolean) {
    if (on !== this.#paused) this.pausedRefused = 0;
    this.#paused = on;
  }

  #pausedRefused(): void {
    this.pausedRefused++;
    this.#hub.events.emit({ type: 'inbound.paused', paused: true, refused: this.pausedRefused });
  }

  effective(s: SessionRecord): EffectiveSettings {
    return this.#hub.settings.effective(s.cwd, s.flag, s.id);
  }

  route(env: Envelope, receiver: SessionRecord): Promise<RouteResult> {
    return admitRecorded(this.#hub, env, receiver, () => this.#admit(env, receiver));
  }

  async #admit(env: Envelope, receiver: SessionRecord): Promise<RouteResult> {
    const hub = this.#hub;
    const eff = this.effective(receiver);
    const senderKey = env.fromSessionId ?? env.fromAddress;
    const inbox = hub.mailboxes.inbox(receiver.id);
    const writer = fromUnverifiedWriter(env) ? { unread: writerUnread(inbox.senders()) } : undefined;
    const drop = this.throttle.admit(
      receiver.id,
      senderKey,
      env.body,
      inbox.unreadMessages,
      eff.throttle.value,
      writer,
    );
    if (drop !== null) {
      const count = this.#drops.dropped(receiver.id, senderKey, drop, eff, writer !== undefined);
      if (count > 0) this.#hub.receipts.tell(env, receiver, 'dropped', drop, count);
      return { status: 'dropped', reason: drop };
    }
    let decision = this.paused ? PAUSED : decideInbound(eff.inbound, modeClass(receiver), env.fromClass, env.ownChild);
    if (this.paused) this.#pausedRefused(); // the pause banner counts them
    const ruled = this.paused ? undefined : ruleDecision(hub, env, receiver, decision, eff.inbound);
    if (ruled?.action === 'refuse') decision = ruled;
    else if (ruled !== undefined) return this.#approvedByRule(env, receiver, ruled.reason);
    hub.receipts.decided(env, receiver, decision.action, decision.reason);
    switch (decision.action) {
      case 'refuse':
        return { status: 'refused', reason: decision.reason };
      case 'hold':
        if (writer !== undefined && writersHeldFull(this.held, receiver.id)) {
          const count = this.#drops.dropped(receiver.id, senderKey, 'queue-full', eff, true);
          if (count > 0) this.#hub.receipts.tell(env, receiver, 'dropped', 'queue-full', count);
          return { status: 'dropped', reason: 'queue-full' };
        }
        return this.#hold(env, receiver, decision.reason);
      case 'deliver': {
        const r = await enqueue(hub.mailboxes, receiver.id, env);
        if (r.status === 'queued') hub.wake.poke(receiver.id); // an idle receiver is woken (core/wake), after the policy
        return r.status === 'queued' ? r : { status: 'dropped', reason: r.reason };
      }
      default: {
        const never: never = decision.action;
        return never;
      }
    }
  }

  /** An allow rule decided at admission: delivered as approved, the sender told by which rule. */
  async #approvedByRule(env: Envelope, receiver: SessionRecord, reason: string): Promise<RouteResult> {
    this.#hub.receipts.decided(env, receiver, 'deliver', reason);
    const r = await enqueue(this.#hub.mailboxes, receiver.id, env, true);
    if (r.status !== 'queued') return { status: 'dropped', reason: r.reason };
    this.#hub.receipts.tell(env, receiver, 'approved', reason);
    this.#hub.wake.poke(receiver.id);
    return { status: 'queued', reason };
  }

  async #hold(env: Envelope, receiver: SessionRecord, reason: string): Promise<RouteResult> {
    if (this.held.holds(receiver.id, env.msgId)) return { status: 'dropped', reason: 'duplicate' };
    const entry: HeldEntry = {
      // The id a person approves by: the msg_id, unless another session holds one with the same id (writers
      // choose msg_id, and a broadcast shares it); approving must never reach a message the person was not shown.
      id: this.held.get(env.msgId) === undefined ? env.msgId : randomUUID(),
      receiverId: receiver.id,
      env,
      reason,
      heldAt: this.#hub.clock.now(),
      deadline: null,
    };
    // Journaled first: a held message exists for the person only once it is durable (a failed write leaves
    // nothing to approve, and the caller answers the error).
    await this.#hub.journal.append({
      t: 'h',
      id: receiver.id,
      held: { id: entry.id, env, reason, heldAt: entry.heldAt },
    });
    if (this.held.holds(receiver.id, env.msgId)) {
      // The same message was held meanwhile (a concurrent duplicate): cancel this record.
      await this.#hub.journal.append({ t: 'hx', id: receiver.id, ids: [entry.id] });
      return { status: 'dropped', reason: 'duplicate' };
    }
    const evicted = this.held.add(entry);
    if (this.#uiAttached > 0) this.#startCountdowns();
    if (evicted !== undefined)
      await this.#settle(evicted, 'expired', 'its user did not answer before the held queue (100 messages) was full');
    this.#hub.receipts.tell(env, receiver, 'held', reason);
    this.#changed();
    return { status: 'held', reason };
  }

  /** A person (or a rule the person made: `reason` says which) approved: deliver, marked approved after a hold. */
  async approve(id: string, reason = 'approved by its user'): Promise<{ status: 'queued' | 'dropped' }> {
    const e = this.#take(id);
    await this.#hub.journal.append({ t: 'hx', id: e.receiverId, ids: [e.id] });
    const r = await enqueue(this.#hub.mailboxes, e.receiverId, e.env, true);
    // Approved but not queued (a duplicate, an inbox at its cap): the sender, told `held` before, hears `dropped`.
    if (r.status === 'dropped') this.#hub.receipts.tell(e.env, this.#receiver(e.receiverId), 'dropped', r.reason);
    else this.#hub.receipts.tell(e.env, this.#receiver(e.receiverId), 'approved', reason);
    if (r.status === 'queued') this.#hub.wake.poke(e.receiverId);
    this.#changed();
    return { status: r.status };
  }

  /** A person (or a rule of theirs) said no. */
  async deny(id: string, reason = 'its user denied it'): Promise<void> {
    await this.#settle(this.#take(id), 'denied', reason);
    this.#changed();
  }

  /**
   * A person decided several at once (all from one sender): each id in order; one no longer held is `gone`
   * (decided elsewhere or expired meanwhile), never an error that leaves the rest undecided.
   */
  async decideMany(
    ids: readonly string[],
    approve: boolean,
  ): Promise<Array<{ id: string; status: 'queued' | 'dropped' | 'denied' | 'gone' }>> {
    const out: Array<{ id: string; status: 'queued' | 'dropped' | 'denied' | 'gone' }> = [];
    for (const id of ids) {
      if (this.held.get(id) === undefined) out.push({ id, status: 'gone' });
      else if (approve) out.push({ id, status: (await this.approve(id)).status });
      else out.push({ id, status: (await this.deny(id), 'denied') });
    }
    return out;
  }

  #take(id: string): HeldEntry {
    const e = this.held.take(id);
    if (e === undefined) throw new HubError('item_not_found');
    return e;
  }

  async #settle(e: HeldEntry, status: 'denied' | 'expired' | 'refused', reason: string): Promise<void> {
    this.held.take(e.id);
    await this.#hub.journal.append({ t: 'hx', id: e.receiverId, ids: [e.id] });
    this.#hub.receipts.tell(e.env, this.#receiver(e.receiverId), status, reason);
  }

  /** Drops held messages whose countdown ran out (at the earliest one's end), then waits for the next. */
  async expireDue(): Promise<void> {
    const due = this.held.takeExpired();
    try {
      for (const e of due) await this.#settle(e, 'expired', 'its user did not answer in time');
    } finally {
      if (due.length > 0) this.#changed();
      this.#armExpiry();
    }
  }

  #startCountdowns(): void {
    this.held.startCountdowns(this.#expiryMs());
    this.#armExpiry();
  }

  #armExpiry(): void {
    let first: number | null = null;
    for (const e of this.held.all())
      if (e.deadline !== null && (first === null || e.deadline < first)) first = e.deadline;
    this.#expiry.at(first);
  }

  /** The policy again for the receiver's held messages; `release: false` (an unverified mode report) only refuses. */
  async reevaluate(receiver: SessionRecord, opts: { release?: boolean } = {}): Promise<void> {
    const eff = this.effective(receiver);
    let changed = false;
    for (const e of this.held.forReceiver(receiver.id)) {
      const d = decideInbound(eff.inbound, modeClass(receiver), e.env.fromClass, e.env.ownChild);
      if (d.action === 'hold' || (d.action !== 'refuse' && opts.release === false)) continue;
      changed = true;
      if (d.action === 'refuse') {
        await this.#settle(e, 'refused', d.reason);
      } else {
        this.held.take(e.id);
        await this.#hub.journal.append({ t: 'hx', id: e.receiverId, ids: [e.id] });
        const r = await enqueue(this.#hub.mailboxes, receiver.id, e.env);
        if (r.status === 'dropped') this.#hub.receipts.tell(e.env, receiver, 'dropped', r.reason);
        else this.#hub.wake.poke(receiver.id);
      }
    }
    if (changed) this.#changed();
  }

  async reevaluateAll(): Promise<void> {
    for (const s of [...this.#hub.table.live.values()]) await this.reevaluate(s);
  }

  /** Sends folded drop reports whose window has passed (their timer calls it; tests too). */
  flushDrops(): void {
    this.#drops.flush();
  }

  uiAttached(delta: 1 | -1): void {
    this.#uiAttached = Math.max(0, this.#uiAttached + delta);
    if (this.#uiAttached > 0) this.#startCountdowns();
  }

  #expiryMs(): number | null {
    return dialogExpiryMs(this.#hub.adminSettings().dialogExpiry.value);
  }

  #receiver(id: string): ReceiptReceiver {
    return receiverOf(this.#hub.table, id);
  }

  #changed(): void {
    this.#hub.events.emit({ type: 'held.changed', count: this.held.size });
  }
}
