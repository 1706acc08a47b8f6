// The relay's connection to NATS: presence (each hub publishes its live
// sessions with a time to live; rows of a silent hub expire: presences.ts), messages as
// request/reply (the answer is the remote hub's decision, sent only after
// it journaled the message: an acknowledged message survives a broker
// outage), and receipts back to the sending machine. It connects in the
// background and reconnects forever with backoff; while disconnected every
// send fails at once with `unreachable`. Knows nothing about the hub: the
// host (core/relay/remote-machines.ts) gives it ports. Any peer on the
// broker can publish: presence-guard.ts decides which presences count and
// how often queries are answered. With JetStream on the broker, mail for a
// machine no hub answers for is stored (mail-store.ts; store mode); without
// it, such a send is `unreachable` as before (direct mode).

import { connect, type Msg, type NatsConnection } from '@nats-io/transport-node';
import { connectionOptions } from './connection.js';
import { HubError } from '../protocol/errors.js';
import type { RelaySettings } from '../settings/schema.js';
import {
  decode,
  encode,
  Presence,
  PROTOCOL_VERSION,
  RelayAnswer,
  RelayMessage,
  RelayReceipt,
  SUBJECTS,
  type StoredMail,
  type PresenceSession,
} from '../protocol/relay-wire.js';
import { Coalescer, presenceRefusal, QUERY_ANSWER_MS } from './presence-guard.js';
import { drop, type DropLog } from '../kit/drop.js';
import { MailStore, type StoredAnswer } from './mail-store.js';
import { Presences, type RemoteHub } from './presences.js';
import { requestMessage, requestReceipt } from './requests.js';

export type { RemoteHub } from './presences.js';
export { SEND_TIMEOUT_MS } from './requests.js';

const DEFAULT_PRESENCE_S = 15;
const CLOSE_WAIT_MS = 2000; // at most this long to drain on close
/** A refused presence is logged at most this often. */
const REFUSED_LOG_MS = 60_000;

export interface RelayPorts {
  localSessions(): PresenceSession[];
  admit(msg: RelayMessage): Promise<RelayAnswer>;
  receipt(r: RelayReceipt): void;
  /** Mail the store kept for this machine while it was away: resolves once it is journaled (then acknowledged). */
  stored(item: StoredMail): Promise<void>;
  remoteChanged(): void;
  /** Connected (or reconnected): what waited for the broker can go now. */
  connected(): void;
  log(level: 'info' | 'warn', message: string, fields?: Record<string, unknown>): void;
  now(): number;
  /** Epoch milliseconds (when stored mail expires). */
  wallNow(): number;
}

/** `store` keeps mail for a machine that is away (JetStream), `direct` does not; null until known. */
type RelayMode = 'store' | 'direct' | null;

export class Relay {
  readonly machine: string;
  readonly hubId: string;
  readonly ttlMs: number;
  readonly #settings: RelaySettings;
  readonly #ports: RelayPorts;
  readonly #remote: Presences;
  #nc: NatsConnection | undefined;
  #connected = false;
  readonly #warn: DropLog = (message, fields) => this.#ports.log('warn', message, fields);
  #closed = false;
  #timers: NodeJS.Timeout[] = [];
  /** Presence queries: each costs a full presence, and any peer can send them. */
  readonly #queryAnswers = new Coalescer(
    () => this.announce(),
    QUERY_ANSWER_MS,
    () => this.#ports.now(),
  );
  #announceSoon: NodeJS.Timeout | undefined;
  #retry: NodeJS.Timeout | undefined;
  /** The session list last published: a change announcement that would repeat it is skipped. */
  #announced = '';
  #attempt = 0;
  #store: MailStore | undefined;
  #mode: RelayMode = null;

  constructor(settings: RelaySettings, machine: string, hubId: string, ports: RelayPorts) {
    this.#settings = settings;
    this.machine = machine;
    this.hubId = hubId;
    this.ttlMs = (settings.presenceSeconds ?? DEFAULT_PRESENCE_S) * 1000;
    this.#ports = ports;
    this.#remote = new Presences(
      () => ports.now(),
      () => ports.remoteChanged(),
    );
  }

  get connected(): boolean {
    return this.#connected;
  }

  get mode(): RelayMode {
    return this.#mode;
  }

  /** The JetStream store (store mode) while connected. */
  get store(): MailStore | undefined {
    return this.#connected ? this.#store : undefined;
  }

  /** Connects in the background (the hub never waits for the broker). */
  start(): void {
    drop(this.#connect(), 'relay: connecting', this.#warn);
    const beat = setInterval(() => this.announce(), Math.max(1000, Math.floor(this.ttlMs / 3)));
    beat.unref();
    this.#timers.push(beat);
  }

  /** First connection: retried with backoff (1 s doubling to 30 s) until it works or the hub closes; then NATS reconnects by itself. */
  async #connect(): Promise<void> {
    let nc: NatsConnection;
    try {
      nc = await connect(connectionOptions(this.#settings, this.machine));
    } catch (err) {
      if (this.#closed) return;
      const wait = Math.min(30_000, 1000 * 2 ** this.#attempt++);
      if (this.#attempt === 1) this.#ports.log('warn', 'relay: cannot connect yet; retrying', { error: String(err) });
      this.#retry = setTimeout(() => drop(this.#connect(), 'relay: connecting', this.#warn), wait);
      this.#retry.unref();
      return;
    }
    if (this.#closed) {
      await nc.close();
      return;
    }
    this.#nc = nc;
    this.#connected = true;
    this.#ports.log('info', 'relay: connected', { server: nc.getServer(), machine: this.machine });
    try {
      this.#subscribe(nc);
      this.#watchStatus(nc).catch((err: unknown) =>
        this.#ports.log('warn', 'relay: status stream ended', { error: String(err) }),
      );
      this.announce();
      nc.publish(SUBJECTS.presenceQuery, encode({ v: PROTOCOL_VERSION }));
      this.#ports.connected();
      drop(this.#openStore(nc), 'relay: opening the mail store', this.#warn);
    } catch (err) {
      // The connection closed under us (a broker restart between connect and subscribe): NATS reconnects or the hub closes it.
      this.#ports.log('warn', 'relay: setting up the connection failed', { error: String(err) });
    }
  }

  #subscribe(nc: NatsConnection): void {
    nc.subscribe(SUBJECTS.presenceAll, { callback: (_e, m) => this.#presence(m) });
    nc.subscribe(SUBJECTS.presenceQuery, { callback: () => this.#queryAnswers.call() });
    nc.subscribe(SUBJECTS.message(this.machine), {
      callback: (_e, m) => drop(this.#message(m), 'relay: answering a message', this.#warn),
    });
    nc.subscribe(SUBJECTS.receipt(this.machine), { callback: (_e, m) => this.#receipt(m) });
  }

  async #openStore(nc: NatsConnection): Promise<void> {
    const store = await MailStore.open(nc, this.machine, {
      deliver: (item) => this.#ports.stored(item),
      log: (level, m, f) => this.#ports.log(level, m, f),
    });
    if (this.#closed || this.#store !== undefined) return store?.stop(); // closed, or opened meanwhile
    this.#store = store;
    this.#mode = store === undefined ? 'direct' : 'store';
    this.#ports.remoteChanged(); // the listing says which mode the relay runs in
  }

  async #watchStatus(nc: NatsConnection): Promise<void> {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') {
        this.#connected = false;
        this.#ports.log('warn', 'relay: disconnected; sends to other machines fail until it reconnects');
      } else if (s.type === 'reconnect') {
        this.#connected = true;
        this.#ports.log('info', 'relay: reconnected');
        if (this.#store === undefined) drop(this.#openStore(nc), 'relay: opening the mail store', this.#warn); // restarted with -js?
        this.announce();
        nc.publish(SUBJECTS.presenceQuery, encode({ v: PROTOCOL_VERSION }));
        this.#ports.connected();
      }
    }
  }

  /** Publishes this hub's sessions (every heartbeat; on a change only when they differ from the last announcement). */
  announce(onlyIfChanged = false): void {
    if (!this.#connected || this.#nc === undefined) return;
    const sessions = this.#ports.localSessions();
    const signature = JSON.stringify(sessions);
    if (onlyIfChanged && signature === this.#announced) return;
    this.#announced = signature;
    const presence: Presence = {
      v: PROTOCOL_VERSION,
      machine: this.machine,
      hubId: this.hubId,
      ttlMs: this.ttlMs,
      sessions,
    };
    this.#nc.publish(SUBJECTS.presence(this.machine), encode(presence));
  }

  /** Coalesces bursts of local changes (and other machines' news, which also says "sessions changed") into one check. */
  changed(): void {
    if (this.#announceSoon !== undefined) return;
    this.#announceSoon = setTimeout(() => {
      this.#announceSoon = undefined;
      this.announce(true);
    }, 100);
    this.#announceSoon.unref();
  }

  remote(): RemoteHub[] {
    return this.#remote.live();
  }

  #presence(m: Msg): void {
    const p = decode(Presence, m.data);
    if (p === undefined || p.hubId === this.hubId) return;
    const refusal = presenceRefusal(p, m.subject, this.#remote.map);
    if (refusal !== undefined) return this.#refused(refusal, p.machine);
    if (p.machine === this.machine) {
      this.#ports.log('warn', 'relay: another hub uses this machine name; set relay.machine to tell them apart', {
        machine: p.machine,
      });
      return;
    }
    this.#remote.set({ machine: p.machine, hubId: p.hubId, sessions: p.sessions }, p.ttlMs);
  }

  #lastRefusedLog = -Infinity;

  #refused(why: string, machine: string): void {
    const now = this.#ports.now();
    if (now - this.#lastRefusedLog < REFUSED_LOG_MS) return;
    this.#lastRefusedLog = now;
    this.#ports.log('warn', `relay: presence ignored (${why})`, { machine });
  }

  async #message(m: Msg): Promise<void> {
    const msg = decode(RelayMessage, m.data);
    const answer: RelayAnswer =
      msg === undefined
        ? { v: PROTOCOL_VERSION, error: 'invalid_params' }
        : await this.#ports.admit(msg).catch((): RelayAnswer => ({ v: PROTOCOL_VERSION, error: 'internal' }));
    m.respond(encode(answer));
  }

  #receipt(m: Msg): void {
    const r = decode(RelayReceipt, m.data);
    if (r !== undefined) this.#ports.receipt(r);
    if (m.reply) m.respond(encode({ v: PROTOCOL_VERSION })); // taken: the sending hub stops keeping it
  }

  /**
   * Sends to a hub on another machine; resolves with its decision, or, when no hub answers for it and the relay
   * stores mail, with when the stored message expires; or throws unreachable/timeout (requests.ts).
   */
  async send(machine: string, msg: RelayMessage): Promise<RelayAnswer | StoredAnswer> {
    const nc = this.#nc;
    if (!this.#connected || nc === undefined)
      throw new HubError('unreachable', { detail: 'the relay is not connected' });
    return requestMessage(
      nc,
      machine,
      msg,
      () => this.#store,
      () => this.#ports.wallNow(),
    );
  }

  /** Sends a receipt and waits for a hub of `machine` to take it (requests.ts); `offline` while not connected. */
  async sendReceipt(machine: string, r: RelayReceipt): Promise<'taken' | 'nobody' | 'offline'> {
    const nc = this.#nc;
    if (!this.#connected || nc === undefined) return 'offline';
    return requestReceipt(nc, machine, r, () => this.#store);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#store?.stop();
    for (const t of this.#timers) clearInterval(t);
    this.#remote.close();
    this.#queryAnswers.cancel();
    if (this.#announceSoon) clearTimeout(this.#announceSoon);
    if (this.#retry) clearTimeout(this.#retry);
    const nc = this.#nc;
    if (nc === undefined) return;
    // Leave cleanly: an empty presence drops our rows at once elsewhere.
    const wasConnected = this.#connected;
    this.#connected = false;
    if (!wasConnected) return nc.close();
    nc.publish(
      SUBJECTS.presence(this.machine),
      encode({
        v: PROTOCOL_VERSION,
        machine: this.machine,
        hubId: this.hubId,
        ttlMs: 1000,
        sessions: [],
      } satisfies Presence),
    );
    // Drain delivers what is in flight; a broker that stops answering must not hold the hub's exit.
    const drained = nc.drain().then(
      () => true,
      () => false,
    );
    const timer = new Promise<boolean>((r) => setTimeout(() => r(false), CLOSE_WAIT_MS).unref());
    if (!(await Promise.race([drained, timer]))) await nc.close();
  }
}
