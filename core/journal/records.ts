// The journal's record vocabulary and what replaying one record means.
// Replay (replay.ts), the live-byte index (live-index.ts) and the Journal all
// follow applyRecord: a record either sets one key (session, item, held
// message) or deletes keys; none depends on another record's value. The
// format header (`v`) says which format the file is in and who wrote it: a
// hub refuses a file of a newer format than JOURNAL_FORMAT (replay.ts).
// A file without one is format 1 (what hubs wrote before the header).

import type { InboxItem } from '../protocol/methods.js';
import type { RelayReceipt } from '../protocol/relay-wire.js';
import type { PersistedSession } from '../registry/session.js';
import type { Envelope } from '../delivery/envelope.js';

/** A held message as journaled (its countdown restarts after a hub restart). */
export interface HeldRecord {
  id: string;
  env: Envelope;
  reason: string;
  heldAt: number;
}

/** The journal format this hub writes and reads; a change that older hubs would misread raises it. */
export const JOURNAL_FORMAT = 1;

/** A send to another machine whose receipts may still come (relay/outstanding.ts); `untilAt`: wall-clock end. */
export interface RelayOutRecord {
  msgId: string;
  senderId: string;
  machine: string;
  untilAt: number;
  /** Kept by the relay's store for a machine that is away: its stream sequence, its end (epoch ms), whom it is for. */
  stored?: StoredSend;
}

/** A send the relay's store keeps (relay/mail-store.ts): `seq` in the stream until `expiresAt`; `to` as listed. */
export interface StoredSend {
  seq: number;
  /** The session as its hub resolves it (remote-send.ts RemoteTarget.session). */
  session: string;
  expiresAt: number;
  to: string;
}

/** A receipt for a sender on another machine, not published yet (the broker was away). */
export interface RelayReceiptRecord {
  id: string;
  machine: string;
  receipt: RelayReceipt;
}

export type JournalRecord =
  | { t: 'v'; v: number; by: string }
  | { t: 'ro'; out: RelayOutRecord }
  | { t: 'rox'; ids: string[] }
  | { t: 'rr'; rr: RelayReceiptRecord }
  | { t: 'rrx'; ids: string[] }
  | { t: 's'; s: PersistedSession }
  | { t: 'd'; id: string }
  | { t: 'i'; id: string; item: InboxItem }
  | { t: 'a'; id: string; ids: string[] }
  | { t: 'h'; id: string; held: HeldRecord }
  | { t: 'hx'; id: string; ids: string[] };

export interface JournalState {
  sessions: Map<string, PersistedSession>;
  items: Map<string, Map<string, InboxItem>>;
  held: Map<string, Map<string, HeldRecord>>;
  /** Sends to other machines awaiting receipts, by msg_id. */
  relayOut: Map<string, RelayOutRecord>;
  /** Receipts for other machines' senders waiting for the broker, by id. */
  relayReceipts: Map<string, RelayReceiptRecord>;
}

export function emptyState(): JournalState {
  return { sessions: new Map(), items: new Map(), held: new Map(), relayOut: new Map(), relayReceipts: new Map() };
}

/** The record types this hub understands (`t`). */
export const RECORD_TYPES: ReadonlySet<string> = new Set([
  'v',
  's',
  'd',
  'i',
  'a',
  'h',
  'hx',
  'ro',
  'rox',
  'rr',
  'rrx',
]);

/** A cheap shape check: the file is ours (0600 in a 0700 directory) but may be damaged. */
export function isRecord(x: unknown): x is JournalRecord {
  if (x === null || typeof x !== 'object') return false;
  const r = x as Record<string, unknown>;
  const obj = (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v);
  switch (r.t) {
    case 'v':
      return Number.isSafeInteger(r.v) && (r.v as number) >= 1 && typeof r.by === 'string';
    case 'ro':
      return obj(r.out) && typeof (r.out as Record<string, unknown>).msgId === 'string';
    case 'rr':
      return obj(r.rr) && typeof (r.rr as Record<string, unknown>).id === 'string';
    case 'rox':
    case 'rrx':
      return Array.isArray(r.ids);
    case 's':
      return obj(r.s) && typeof (r.s as Record<string, unknown>).id === 'string';
    case 'd':
      return typeof r.id === 'string';
    case 'i':
      return typeof r.id === 'string' && obj(r.item) && typeof (r.item as Record<string, unknown>).id === 'string';
    case 'a':
    case 'hx':
      return typeof r.id === 'string' && Array.isArray(r.ids);
    case 'h':
      return (
        typeof r.id === 'string' &&
        obj(r.held) &&
        obj((r.held as Record<string, unknown>).env) &&
        typeof (r.held as Record<string, unknown>).id === 'string'
      );
    default:
      return false;
  }
}

export function applyRecord(state: JournalState, rec: JournalRecord): void {
  switch (rec.t) {
    case 'v':
      break; // the header changes no state
    case 'ro':
      state.relayOut.set(rec.out.msgId, rec.out);
      break;
    case 'rox':
      for (const id of rec.ids) state.relayOut.delete(id);
      break;
    case 'rr':
      state.relayReceipts.set(rec.rr.id, rec.rr);
      break;
    case 'rrx':
      for (const id of rec.ids) state.relayReceipts.delete(id);
      break;
    case 's':
      state.sessions.set(rec.s.id, rec.s);
      break;
    case 'd':
      state.sessions.delete(rec.id);
      state.items.delete(rec.id);
      state.held.delete(rec.id);
      break;
    case 'i': {
      let items = state.items.get(rec.id);
      if (items === undefined) state.items.set(rec.id, (items = new Map<string, InboxItem>()));
      items.set(rec.item.id, rec.item);
      break;
    }
    case 'a': {
      const items = state.items.get(rec.id);
      if (items !== undefined) for (const id of rec.ids) items.delete(id);
      break;
    }
    case 'h': {
      let held = state.held.get(rec.id);
      if (held === undefined) state.held.set(rec.id, (held = new Map<string, HeldRecord>()));
      held.set(rec.held.id, rec.held);
      break;
    }
    case 'hx': {
      const held = state.held.get(rec.id);
      if (held !== undefined) for (const id of rec.ids) held.delete(id);
      break;
    }
    default: {
      const never: never = rec;
      void never;
    }
  }
}
