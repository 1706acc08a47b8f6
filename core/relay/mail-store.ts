// Mail that waits for a machine that is away, in NATS JetStream, when the
// relay's servers offer it. One file-backed stream per relay (work-queue
// retention: a message stays until a hub of its machine acknowledges it,
// whether or not that machine's consumer exists yet — interest retention
// would delete it), one durable consumer per machine on its own subject.
// A message is acknowledged only after `deliver` resolved (the receiving
// hub journaled it); a failure is redelivered, at most MAX_DELIVER times
// (the redelivery horizon). `msg_id` is the Nats-Msg-Id: a publish the
// stream already has within DEDUP_MS is not stored twice. Full is full:
// the stream refuses new mail (discard new) rather than evict old mail,
// and a message past its time (STORE_MS) is not delivered: the hub that
// meets it late answers `expired`, and the sender's hub, a minute after,
// takes it out of the stream (takeBack) and, when it was still there,
// tells its sender `expired` (nobody can take it any more). The stream
// keeps mail a day longer than that (max age) so that check can be made.
// Without JetStream on the server, open()
// answers undefined and the relay runs as before (direct mode).

import type { NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  jetstream,
  jetstreamManager,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { HubError } from '../protocol/errors.js';
import {
  decode,
  encode,
  machineToken,
  PROTOCOL_VERSION,
  STORE_MS,
  StoredMail,
  type RelayMessage,
  type RelayReceipt,
} from '../protocol/relay-wire.js';

export const STREAM = 'SB_MAIL';
/** The stream's own limit on age: past the messages' time, so the sender's hub can still find them there. */
const MAX_AGE_MS = STORE_MS + 24 * 3600_000;
/** The stream's size cap: beyond it new mail is refused, old mail kept. */
export const STORE_BYTES = 256 * 1024 * 1024;
/** A delivered message not acknowledged within this is delivered again… */
export const ACK_WAIT_MS = 30_000;
/** …at most this many times in all. */
export const MAX_DELIVER = 20;
/** The de-duplication window: the whole redelivery horizon. */
export const DEDUP_MS = ACK_WAIT_MS * MAX_DELIVER;
const NANOS = 1_000_000;

/** A send the store kept for a machine that is away, until `expiresAt` (epoch ms). */
export interface StoredAnswer {
  stored: true;
  expiresAt: number;
  /** Its sequence in the stream (takeBack). */
  seq: number;
}

export const storeSubject = (machine: string) => `sb.store.${machineToken(machine)}`;

export interface MailStorePorts {
  /** Resolves once the item is journaled (or decided and answered): only then is it acknowledged. */
  deliver(item: StoredMail): Promise<void>;
  log(level: 'info' | 'warn', message: string, fields?: Record<string, unknown>): void;
}

export class MailStore {
  readonly #js: JetStreamClient;
  readonly #jsm: JetStreamManager;
  #messages: ConsumerMessages | undefined;
  #closed = false;

  private constructor(js: JetStreamClient, jsm: JetStreamManager) {
    this.#js = js;
    this.#jsm = jsm;
  }

  /**
   * The stream and this machine's consumer, created when missing; undefined (logged) when the server has no
   * JetStream or they cannot be set up (this account may not use it, a stream of that name is not ours).
   */
  static async open(nc: NatsConnection, machine: string, ports: MailStorePorts): Promise<MailStore | undefined> {
    let jsm;
    try {
      jsm = await jetstreamManager(nc, { checkAPI: true, timeout: 5000 });
    } catch (err) {
      ports.log('info', 'relay: the broker has no JetStream; mail for a machine that is away is not kept', {
        error: String(err),
      });
      return undefined;
    }
    try {
      return await MailStore.#setUp(nc, jsm, machine, ports);
    } catch (err) {
      ports.log('warn', 'relay: JetStream is there but the mail store could not be set up; mail is not kept', {
        error: String(err),
      });
      return undefined;
    }
  }

  static async #setUp(
    nc: NatsConnection,
    jsm: JetStreamManager,
    machine: string,
    ports: MailStorePorts,
  ): Promise<MailStore> {
    const config = {
      name: STREAM,
      subjects: ['sb.store.>'],
      retention: RetentionPolicy.Workqueue,
      storage: StorageType.File,
      discard: DiscardPolicy.New,
      max_age: MAX_AGE_MS * NANOS,
      max_bytes: STORE_BYTES,
      duplicate_window: DEDUP_MS * NANOS,
    };
    try {
      await jsm.streams.info(STREAM);
    } catch {
      try {
        await jsm.streams.add(config);
      } catch (err) {
        await jsm.streams.info(STREAM).catch(() => {
          throw err; // neither there nor made: not usable
        });
      }
    }
    const durable = `sb-${machineToken(machine)}`;
    await jsm.consumers.add(STREAM, {
      durable_name: durable,
      filter_subject: storeSubject(machine),
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: ACK_WAIT_MS * NANOS,
      max_deliver: MAX_DELIVER,
      max_ack_pending: 64,
    });
    const store = new MailStore(jetstream(nc), jsm);
    await store.#consume(durable, ports);
    ports.log('info', 'relay: JetStream on; mail for a machine that is away is stored', { stream: STREAM });
    return store;
  }

  async #consume(durable: string, ports: MailStorePorts): Promise<void> {
    const consumer = await this.#js.consumers.get(STREAM, durable);
    const messages = await consumer.consume({ max_messages: 16 });
    this.#messages = messages;
    void (async () => {
      for await (const m of messages) {
        const item = decode(StoredMail, m.data);
        if (item === undefined) {
          m.term('not a stored message'); // anyone on the broker can publish: never retried
          continue;
        }
        try {
          await ports.deliver(item);
          m.ack();
        } catch (err) {
          ports.log('warn', 'relay: a stored message could not be taken; it comes again', { error: String(err) });
          m.nak(ACK_WAIT_MS);
        }
      }
    })().catch((err: unknown) => {
      if (!this.#closed) ports.log('warn', 'relay: stored mail stopped arriving', { error: String(err) });
    });
  }

  /** Stores a message for `machine` (away); `now`: epoch ms. Throws `unreachable` when the store refuses it. */
  async storeMessage(machine: string, message: RelayMessage, now: number): Promise<StoredAnswer> {
    const expiresAt = now + STORE_MS;
    const seq = await this.store(machine, { v: PROTOCOL_VERSION, type: 'message', message, expiresAt }, message.msgId);
    return { stored: true, expiresAt, seq };
  }

  /** Stores a receipt for `machine` (away), de-duplicated per receipt; false when the store refused it (it waits). */
  async storeReceipt(machine: string, r: RelayReceipt): Promise<boolean> {
    const id = `receipt:${r.origMsgId}:${r.status}:${r.receiver.sessionId}`;
    return this.store(machine, { v: PROTOCOL_VERSION, type: 'receipt', receipt: r }, id).then(
      () => true,
      () => false,
    );
  }

  /**
   * Takes a stored message out of the stream: `removed` (nobody took it, and nobody can now) or `gone` (a hub of
   * its machine took it, or the stream no longer has it). Throws when the broker cannot say (try again later).
   */
  async takeBack(seq: number): Promise<'removed' | 'gone'> {
    try {
      return (await this.#jsm.streams.deleteMessage(STREAM, seq, false)) ? 'removed' : 'gone';
    } catch (err) {
      // 10057: the delete failed because the stream has no such message (deleted, acknowledged, or past its end).
      if (err instanceof JetStreamApiError && err.code === 10057) return 'gone';
      throw err;
    }
  }

  /** Stores an item for `machine`; resolves with its stream sequence. Throws `unreachable` when the store refuses it. */
  async store(machine: string, item: StoredMail, msgId: string): Promise<number> {
    try {
      const ack = await this.#js.publish(storeSubject(machine), encode(item), {
        msgID: msgId,
        expect: { streamName: STREAM },
        timeout: 5000,
      });
      return ack.seq;
    } catch (err) {
      const full = /maximum (bytes|messages)/i.test(String(err)); // discard new: the stream refuses rather than evicts
      const why = full
        ? "the relay's store is full (nothing stored was dropped to make room); try again later"
        : `the relay could not store it (${String(err)})`;
      throw new HubError('unreachable', { detail: `${machine} is away and ${why}` }, { cause: err });
    }
  }

  stop(): void {
    this.#closed = true;
    this.#messages?.stop();
  }
}
