// The hub's side of the relay: builds the Relay from the `relay` setting
// (none: no network connection at all), publishes our sessions, turns
// other machines' presence into listing rows, delivers their messages
// through our own admission (remote senders have no permission class),
// and carries receipts both ways. Also owns the isolatePeerMachines
// confirmations, which exist with or without a relay. Our sends' outstanding
// entries and the receipts that waited for the broker are journaled and come
// back after a restart (restore), so neither a broker outage nor a restart
// of either hub loses a receipt. In store mode (JetStream), mail the relay
// kept for us while we were away arrives through `#stored`, and machines
// that went away stay listed as away (away.ts).

import os from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../kit/clock.js';
import type { Logger } from '../kit/logger.js';
import type { AdmissionPort, EventSink } from '../delivery/ports.js';
import type { Mailboxes } from '../delivery/mailboxes.js';
import type { Limits } from '../protocol/limits.js';
import type { SessionTable } from '../registry/table.js';
import type { EffectiveSettings } from '../settings/effective.js';
import { HubError } from '../protocol/errors.js';
import type { ReceiptStatus } from '../protocol/methods.js';
import { refHash } from '../registry/names.js';
import { resolveTo } from '../registry/resolution.js';
import type { RemoteSession } from '../registry/table.js';
import type { Envelope } from '../delivery/envelope.js';
import type { Journal, JournalState } from '../journal/journal.js';
import type { ReceiptPort, RemoteReceipts } from '../receipts/receipts.js';
import { PendingReceipts } from './pending-receipts.js';
import { expireStored, takeStored } from './stored-mail.js';
import { drop } from '../kit/drop.js';
import { Confirmations } from './confirmations.js';
import { OutstandingSends } from './outstanding.js';
import { AwayMachines } from './away.js';
import {
  parsePeerAddress,
  peerAddress,
  PROTOCOL_VERSION,
  type PresenceSession,
  type RelayAnswer,
  type RelayMessage,
  type RelayReceipt,
  wireAgent,
} from '../protocol/relay-wire.js';
import type { Relay } from './relay.js';

/** What the relay's host side needs from the hub. */
export interface RemotePorts {
  readonly table: SessionTable;
  readonly mailboxes: Pick<Mailboxes, 'depth'>;
  readonly admission: AdmissionPort;
  readonly receipts: Pick<ReceiptPort, 'tell'>;
  readonly journal: Pick<Journal, 'append'>;
  readonly events: EventSink;
  readonly clock: Clock;
  readonly log: Logger;
  readonly limits: Limits;
  adminSettings(): EffectiveSettings;
}

/** How often stored sends past their time are looked for. */
const EXPIRY_SWEEP_MS = 60_000;

export class RemoteMachines implements RemoteReceipts {
  readonly confirmations: Confirmations;
  /** Our sends whose receipts may come: only those are taken (outstanding.ts). */
  readonly outstanding: OutstandingSends;
  /** Receipts for other machines' senders that wait for the broker (pending-receipts.ts). */
  readonly pending: PendingReceipts;
  #forgedLoggedAt = -Infinity;
  readonly #hub: RemotePorts;
  readonly #hubId = randomUUID();
  #relay: Relay | undefined;
  #expirySweep: NodeJS.Timeout | undefined;
  #configured = 'null';
  /** What we last listed: only real changes reach the UI. */
  #listedRemote = '';
  readonly #away = new AwayMachines();

  constructor(hub: RemotePorts) {
    this.#hub = hub;
    const ended = (t: 'rox' | 'rrx') => (ids: string[]) =>
      void hub.journal
        .append({ t, ids })
        .catch((err: unknown) => hub.log.warn('relay: end of a journaled entry not written', { error: String(err) }));
    this.outstanding = new OutstandingSends(
      () => hub.clock.monotonic(),
      () => hub.clock.now(),
      { added: (out) => hub.journal.append({ t: 'ro', out }), ended: ended('rox') },
    );
    this.pending = new PendingReceipts({
      added: (rr) =>
        void hub.journal
          .append({ t: 'rr', rr })
          .catch((err: unknown) => hub.log.warn('relay: a waiting receipt was not journaled', { error: String(err) })),
      ended: ended('rrx'),
      gaveUp: (n) => hub.log.warn('relay: receipts waiting for the broker past the cap were given up', { count: n }),
    });
    this.confirmations = new Confirmations(
      () => hub.clock.now(),
      () => hub.events.emit({ type: 'confirmations.changed', count: this.confirmations.size }),
    );
  }

  get relay(): Relay | undefined {
    return this.#relay;
  }

  /** After a restart: our outstanding sends and the receipts that waited for the broker, from the journal. */
  restore(state: Pick<JournalState, 'relayOut' | 'relayReceipts'>): void {
    this.outstanding.restore(state.relayOut.values());
    this.pending.restore(state.relayReceipts.values());
  }

  /** (Re)builds the relay when its settings changed. */
  async configure(): Promise<void> {
    const settings = this.#hub.adminSettings().relay.value;
    const key = JSON.stringify(settings);
    if (key === this.#configured) return;
    this.#configured = key;
    await this.#relay?.close();
    this.#relay = undefined;
    this.#hub.table.setRemote([]);
    this.#listedRemote = '';
    this.#away.clear();
    if (settings === null) return;
    // Loaded only when a relay is configured: the NATS client (with JetStream) is ~230 KB of code an idle hub need not hold.
    const { Relay } = await import('./relay.js');
    if (key !== this.#configured) return; // settings changed again meanwhile: that call builds the relay
    const hub = this.#hub;
    this.#relay = new Relay(settings, settings.machine ?? os.hostname(), this.#hubId, {
      localSessions: () => this.#localSessions(),
      admit: (m) => this.#admit(m),
      receipt: (r) => this.#receipt(r),
      stored: (item) =>
        takeStored(item, {
          now: () => hub.clock.now(),
          sessionName: (id) => hub.table.live.get(id)?.name,
          admit: (m) => this.#admit(m),
          receipt: (r) => this.#receipt(r),
          sendReceipt: (o, to, status, reason) => this.sendReceipt(o, to, status, reason),
        }),
      remoteChanged: () => this.#remoteChanged(),
      connected: () => this.#flushReceipts(),
      log: (level, m, f) => hub.log[level](m, f),
      now: () => hub.clock.monotonic(),
      wallNow: () => hub.clock.now(),
    });
    this.#relay.start();
    clearInterval(this.#expirySweep);
    this.#expirySweep = setInterval(
      () => drop(this.expireStored(), 'relay: expiring stored mail', (m, f) => hub.log.warn(m, f)),
      EXPIRY_SWEEP_MS,
    );
    this.#expirySweep.unref();
  }

  /** Stored sends past their time: taken back and their senders told `expired` (stored-mail.ts). */
  expireStored(): Promise<void> {
    return expireStored(this.#relay?.store, this.outstanding, (r) => this.#receipt(r));
  }

  /** Our sessions may have changed: the relay re-announces soon, when they did (debounced). */
  sessionsChanged(): void {
    this.#relay?.changed();
  }

  #localSessions(): PresenceSession[] {
    const hub = this.#hub;
    return [...hub.table.live.values()].map((s) => {
      const depth = hub.mailboxes.depth(s.id);
      return {
        sessionId: s.id,
        name: s.name,
        agent: wireAgent(s.agent),
        state: s.state,
        stateSince: s.stateSince,
        cwd: s.cwd,
        inboxDepth: depth,
        canReceive: depth < hub.limits.inboxItems && hub.admission.effective(s).inbound.value !== 'refuse',
      };
    });
  }

  /** Sends the receipts that wait, in order, while their hubs take them (in the background). */
  #flushReceipts(): void {
    const sent = this.pending.flush(async (machine, r) => (await this.#relay?.sendReceipt(machine, r)) === 'taken');
    drop(sent, 'relay: sending waiting receipts', (m, f) => this.#hub.log.warn(m, f));
  }

  #remoteChanged(): void {
    if (this.pending.size > 0) this.#flushReceipts(); // a machine announced itself: it may take them now
    const rows: RemoteSession[] = [];
    const present = this.#relay?.remote() ?? [];
    for (const h of present) {
      for (const s of h.sessions) {
        const address = peerAddress(h.machine, s.sessionId);
        rows.push({ machine: h.machine, address, refHash: refHash(address), session: s });
      }
    }
    if (this.#relay?.mode === 'store') {
      this.#away.update(present, this.#hub.clock.now());
      for (const a of this.#away.list())
        for (const s of a.sessions) {
          const address = peerAddress(a.machine, s.sessionId);
          rows.push({ machine: a.machine, address, refHash: refHash(address), session: s, awaySince: a.since });
        }
    }
    const signature = JSON.stringify(rows);
    if (signature === this.#listedRemote) return;
    this.#listedRemote = signature;
    this.#hub.table.setRemote(rows);
    this.#hub.events.emit({ type: 'sessions.changed' });
  }

  /** A message from another machine, decided by our own policy for our own session. */
  async #admit(m: RelayMessage): Promise<RelayAnswer> {
    const hub = this.#hub;
    const receiver = hub.table.live.get(m.to) ?? ownRow(hub, m.to);
    if (receiver === undefined) return { v: PROTOCOL_VERSION, error: 'target_not_found' };
    // The limits a local send has (validate.ts): the wire format alone let 1 MiB bodies through.
    if (Buffer.byteLength(m.body, 'utf8') > hub.limits.messageBytes)
      return { v: PROTOCOL_VERSION, error: 'message_too_large' };
    if (m.summary !== null && [...m.summary].length > hub.limits.summaryChars)
      return { v: PROTOCOL_VERSION, error: 'summary_too_long' };
    const env: Envelope = {
      msgId: m.msgId,
      fromAddress: peerAddress(m.from.machine, m.from.sessionId),
      fromName: m.from.name,
      fromSessionId: null,
      fromClass: null,
      ownChild: false,
      summary: m.summary,
      body: m.body,
      at: hub.clock.now(),
    };
    const r = await hub.admission.route(env, receiver);
    const status =
      r.status === 'queued' || r.status === 'held' || r.status === 'refused' || r.status === 'dropped'
        ? r.status
        : 'dropped';
    return {
      v: PROTOCOL_VERSION,
      status,
      ...(r.reason !== undefined ? { reason: r.reason } : {}),
      to: { name: receiver.name, sessionId: receiver.id },
    };
  }

  /** A receipt from another machine for one of our senders. */
  #receipt(r: RelayReceipt): void {
    if (!this.outstanding.accept(r)) {
      const now = this.#hub.clock.monotonic();
      if (now - this.#forgedLoggedAt >= 60_000) {
        this.#forgedLoggedAt = now;
        this.#hub.log.warn('relay: a receipt for no message we sent was dropped', { machine: r.receiver.machine });
      }
      return;
    }
    const address = peerAddress(r.receiver.machine, r.receiver.sessionId);
    this.#hub.receipts.tell(
      { msgId: r.origMsgId, fromAddress: '', fromSessionId: r.senderSessionId },
      { id: `remote:${address}`, name: r.receiver.name, address, socketPath: '' },
      r.status,
      r.reason,
    );
  }

  /** A receipt for a sender on another machine (env.fromAddress is its peer: address). */
  sendReceipt(
    env: Pick<Envelope, 'msgId' | 'fromAddress'>,
    receiver: { id: string; name: string },
    status: ReceiptStatus,
    reason: string,
  ): void {
    const relay = this.#relay;
    const from = parsePeerAddress(env.fromAddress);
    if (relay === undefined || from === undefined || status === 'waiting' || status === 'kept') return; // not in relay protocol 1
    const receipt: RelayReceipt = {
      v: PROTOCOL_VERSION,
      origMsgId: env.msgId,
      senderSessionId: from.session,
      status: status === 'undelivered' ? 'dropped' : status,
      reason: reason.slice(0, 4096),
      receiver: { machine: relay.machine, sessionId: receiver.id, name: receiver.name },
    };
    this.pending.add(from.machine, receipt); // journaled, then sent in order until its hub takes it
    this.#flushReceipts();
  }

  async close(): Promise<void> {
    clearInterval(this.#expirySweep);
    this.confirmations.closeAll();
    await this.#relay?.close();
    this.#relay = undefined;
  }
}

/** `to` by name, `name [ref]` or prefix among this hub's own sessions only. */
function ownRow(hub: Pick<RemotePorts, 'table'>, to: string) {
  try {
    const r = resolveTo(to, hub.table);
    return r.kind === 'row' ? r.row.session : undefined;
  } catch (err) {
    if (err instanceof HubError) return undefined;
    throw err;
  }
}
