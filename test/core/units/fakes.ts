// Fake ports for the direct unit tests of admission, receipts, lifecycle and
// send (each feature takes narrow ports, not the hub): plain objects that record what a feature asked of them,
// beside the real small domain objects (SessionTable, Mailboxes over a
// recording journal, HistoryRecorder turned off). No Hub, no hub socket.

import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Admission, type AdmissionPorts } from '../../../core/messaging/admission.js';
import { Mailboxes } from '../../../core/delivery/mailboxes.js';
import { Receipts, type ReceiptPorts } from '../../../core/receipts/receipts.js';
import { HistoryRecorder } from '../../../core/history/recorder.js';
import type { Journal, JournalRecord } from '../../../core/journal/journal.js';
import type { ActivityEntry, HubEvent } from '../../../core/protocol/events.js';
import { udsAddress } from '../../../core/protocol/cc-wire.js';
import { LIMITS, type Limits } from '../../../core/protocol/limits.js';
import type { InboxItem, ReceiptStatus } from '../../../core/protocol/methods.js';
import { normalizeName, refHash } from '../../../core/registry/names.js';
import { hashToken, type SessionRecord } from '../../../core/registry/session.js';
import { SessionTable } from '../../../core/registry/table.js';
import { resolveSettings, type EffectiveSettings } from '../../../core/settings/effective.js';
import { emptyParsed, type Inbound } from '../../../core/settings/schema.js';
import { fakeClock, memoryLogger } from '../../helpers/hub.js';
import { RuleBook } from '../../../core/policy/rules.js';

/** A journal that keeps every record; `failWhen` makes chosen appends reject (a full disk). */
export function fakeJournal() {
  const records: JournalRecord[] = [];
  const j = {
    records,
    failWhen: (_r: JournalRecord): boolean => false,
    append(r: JournalRecord): Promise<void> {
      if (j.failWhen(r)) return Promise.reject(new Error('disk full'));
      // As the real journal: the written bytes, not the caller's object.
      records.push(JSON.parse(JSON.stringify(r)) as JournalRecord);
      return Promise.resolve();
    },
    /** The item of the last record that wrote it (the real journal reads its live record back). */
    readItem(sessionId: string, itemId: string): InboxItem {
      for (let i = records.length - 1; i >= 0; i--) {
        const r = records[i] as JournalRecord;
        if (r.t === 'i' && r.id === sessionId && r.item.id === itemId) return r.item;
      }
      throw new Error(`fake journal: no record of item ${itemId}`);
    },
  };
  return j;
}
export type FakeJournal = ReturnType<typeof fakeJournal>;

/** Real inboxes over the fake journal (Mailboxes takes the whole Journal class; it only calls append and readItem). */
export function memoryMailboxes(journal: Pick<Journal, 'append' | 'readItem'>, cap = LIMITS.inboxItems): Mailboxes {
  return new Mailboxes(journal, cap, new Map());
}

/** A session record as the table keeps it; its socket sits in `dir`. */
export function session(name: string, over: Partial<SessionRecord> = {}, dir = '/nonexistent-sb'): SessionRecord {
  const id = over.id ?? randomUUID();
  const socketPath = over.socketPath ?? path.join(dir, `s-${id}.sock`);
  const address = udsAddress(socketPath);
  return {
    id,
    tokenHash: hashToken(`token-${id}`),
    name,
    socketPath,
    address,
    cwd: '',
    pid: null,
    procStart: null,
    agent: 'claude',
    permissionMode: 'default',
    modeKnown: true,
    bypassAvailable: false,
    interactive: true,
    team: null,
    member: null,
    settings: null,
    liveness: 'connection',
    createdAt: 0,
    nameNorm: normalizeName(name),
    refHash: refHash(address),
    state: 'idle',
    stateSince: 0,
    lastSeen: 0,
    connectionId: null,
    flag: emptyParsed(),
    hooksSeenAt: null,
    ...over,
  };
}

/** Default effective settings with an explicit inbound value (null: mode parity decides). */
export function effectiveWith(
  inbound: Inbound | null = null,
  over: Partial<EffectiveSettings> = {},
): EffectiveSettings {
  const base = resolveSettings({ managed: [], flag: [], user: [], project: [], local: [] });
  return {
    ...base,
    inbound: inbound === null ? base.inbound : { value: inbound, source: 'user', floor: null },
    ...over,
  };
}

export interface RemoteReceipt {
  msgId: string;
  fromAddress: string;
  receiverId: string;
  status: ReceiptStatus;
  reason: string;
}

/** Admission's ports as plain recording objects, and the Admission built on them. */
export function admissionHarness(
  opts: { limits?: Partial<Limits>; inbound?: Inbound | null; table?: SessionTable; journal?: FakeJournal } = {},
) {
  const clock = fakeClock();
  const log = memoryLogger();
  const journal = opts.journal ?? fakeJournal();
  const mailboxes = memoryMailboxes(journal);
  const table = opts.table ?? new SessionTable();
  const events: HubEvent[] = [];
  const activity: ActivityEntry[] = [];
  const pokes: string[] = [];
  const remoteReceipts: RemoteReceipt[] = [];
  const settings = { eff: effectiveWith(opts.inbound ?? null) };
  const receiptPorts: ReceiptPorts = {
    table,
    mailboxes,
    clock,
    log,
    limits: { ...LIMITS, ...opts.limits },
    recordActivity: (e) => void activity.push(e),
    remote: {
      sendReceipt: (env, receiver, status, reason) =>
        void remoteReceipts.push({
          msgId: env.msgId,
          fromAddress: env.fromAddress,
          receiverId: receiver.id,
          status,
          reason,
        }),
    },
  };
  const receipts = new Receipts(receiptPorts);
  const ports: AdmissionPorts = {
    rules: new RuleBook({ now: () => clock.now() }),
    history: new HistoryRecorder({
      stateDir: '/nonexistent-sb',
      limits: LIMITS,
      now: () => clock.now(),
      policy: () => ({ maxAgeMs: 1, maxBytes: 1 }),
      onError: () => undefined,
      enabled: false,
    }),
    table,
    mailboxes,
    journal,
    settings: { effective: () => settings.eff },
    events: { emit: (e) => void events.push(e) },
    clock,
    log,
    receipts,
    wake: { poke: (id) => void pokes.push(id) },
    adminSettings: () => settings.eff,
  };
  const admission = new Admission(ports);
  return {
    admission,
    receipts,
    ports,
    receiptPorts,
    clock,
    log,
    journal,
    mailboxes,
    table,
    events,
    activity,
    pokes,
    remoteReceipts,
    settings,
  };
}
export type AdmissionHarness = ReturnType<typeof admissionHarness>;

/** Lets queued promise reactions (fire-and-forget receipt writes) run. */
export function settle(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}
