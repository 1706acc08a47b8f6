// The relay's two requests to another machine over NATS: a message, answered
// by the remote hub's decision once it journaled it, and a receipt, answered
// when a hub of that machine took it. When no hub answers for the machine
// and the broker has JetStream, both are kept in the mail store instead.
// Pure over a connection: relay.ts owns the connection and its state.

import { errors, type Msg, type NatsConnection } from '@nats-io/transport-node';
import { HubError } from '../protocol/errors.js';
import { decode, encode, RelayAnswer, SUBJECTS, type RelayMessage, type RelayReceipt } from '../protocol/relay-wire.js';
import type { MailStore, StoredAnswer } from './mail-store.js';

export const SEND_TIMEOUT_MS = 5000; // a remote hub answers once the message is journaled
const RECEIPT_ACK_MS = 2000; // a hub answers a receipt as it takes it

const isNoResponders = (err: unknown): boolean =>
  err instanceof errors.NoRespondersError || (err instanceof errors.RequestError && err.isNoResponders());

/** A message to `machine`: its hub's decision, or the store's expiry when nobody answers; else unreachable/timeout. */
export async function requestMessage(
  nc: NatsConnection,
  machine: string,
  msg: RelayMessage,
  /** Read when nobody answered: a store opened while the request waited keeps the mail. */
  store: () => MailStore | undefined,
  wallNow: () => number,
): Promise<RelayAnswer | StoredAnswer> {
  let reply: Msg;
  try {
    reply = await nc.request(SUBJECTS.message(machine), encode(msg), { timeout: SEND_TIMEOUT_MS });
  } catch (err) {
    if (err instanceof errors.TimeoutError)
      throw new HubError('timeout', { detail: `${machine} did not answer in ${SEND_TIMEOUT_MS} ms` }, { cause: err });
    if (isNoResponders(err)) {
      const kept = store();
      if (kept !== undefined) return kept.storeMessage(machine, msg, wallNow());
      throw new HubError('unreachable', { detail: `no hub answers for machine ${machine}` }, { cause: err });
    }
    throw new HubError('unreachable', { detail: 'the relay failed to carry the message' }, { cause: err });
  }
  const answer = decode(RelayAnswer, reply.data);
  if (answer === undefined)
    throw new HubError('unreachable', { detail: `${machine} answered with something that is not a relay answer` });
  return answer;
}

/**
 * A receipt to `machine`. `nobody`: no hub of that machine listens (it is away) and no store keeps it; `offline`:
 * the request failed. A hub that takes it without answering (an older one) times out and counts as taken, as a
 * plain publish did. The caller keeps what was not taken (pending-receipts.ts).
 */
export async function requestReceipt(
  nc: NatsConnection,
  machine: string,
  r: RelayReceipt,
  store: () => MailStore | undefined,
): Promise<'taken' | 'nobody' | 'offline'> {
  try {
    await nc.request(SUBJECTS.receipt(machine), encode(r), { timeout: RECEIPT_ACK_MS });
    return 'taken';
  } catch (err) {
    if (isNoResponders(err)) return (await store()?.storeReceipt(machine, r)) === true ? 'taken' : 'nobody';
    return err instanceof errors.TimeoutError ? 'taken' : 'offline';
  }
}
