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
// and mail older than STORE_MS is gone (its sender is told `expired` by
// the hub that meets it late). Without JetStream on the server, open()
// answers undefined and the relay runs as before (direct mode).

import type { NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type ConsumerMessages,
  type JetStreamClient,
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
}

export const storeSubject = (machine: string) => `sb.store.${machineToken(machine)}`;

export interface MailStorePorts {
  /** Resolves once the item is journaled (or decided and answered): only then is it acknowledged. */
  deliver(item: StoredMail): Promise<void>;
  log(level: 'info' | 'warn', message: string, fields?: Record<string, unknown>): void;
}

export class MailStore {
  readonly #js: JetStreamClient;
  #messages: ConsumerMessages | undefined;
  #closed = false;

  private constructor(js: JetStreamClient) {
    this.#js = js;
  }

  /** The stream and this machine's consumer, created when missing; undefined when the server has no JetStream. */
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
    const config = {
      name: STREAM,
      subjects: ['sb.store.>'],
      retention: RetentionPolicy.Workqueue,
      storage: StorageType.File,
      discard: DiscardPolicy.New,
      max_age: STORE_MS * NANOS,
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
    const store = new MailStore(jetstream(nc));
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
    await this.store(machine, { v: PROTOCOL_VERSION, type: 'message', message, expiresAt }, message.msgId);
    return { stored: true, expiresAt };
  }

  /** Stores a receipt for `machine` (away), de-duplicated per receipt; false when the store refused it (it waits). */
  async storeReceipt(machine: string, r: RelayReceipt): Promise<boolean> {
    const id = `receipt:${r.origMsgId}:${r.status}:${r.receiver.sessionId}`;
    return this.store(machine, { v: PROTOCOL_VERSION, type: 'receipt', receipt: r }, id).then(
      () => true,
      () => false,
    );
  }

  /** Stores an item for `machine`. Throws `unreachable` when the store refuses it. */
  async store(machine: string, item: StoredMail, msgId: string): Promise<void> {
    try {
      await this.#js.publish(storeSubject(machine), encode(item), {
        msgID: msgId,
        expect: { streamName: STREAM },
        timeout: 5000,
      });
    } catch (err) {
      throw new HubError(
        'unreachable',
        { detail: `${machine} is away and the relay could not store the message (${String(err)})` },
        { cause: err },
      );
    }
  }

  stop(): void {
    this.#closed = true;
    this.#messages?.stop();
  }
}
