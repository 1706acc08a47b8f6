// message.send to a session on another machine: with isolatePeerMachines
// (true in any scope, bypass sessions included) the send waits for the
// user's Allow; Deny or expiry answers confirm-denied / confirm-expired
// and nothing leaves (so nothing is ever stored unconfirmed). Then the relay carries it and the status is what the
// remote hub decided (queued/held/refused/dropped), `stored` when that
// machine is away and the relay keeps its mail (its receipts say the
// rest: delivered, expired…), or a clear error. A send
// that timed out may still arrive (a broker that paused): it is answered
// `timeout` with its msg_id and stays outstanding, so its later receipt
// reaches the sender and settles it; other errors mean it never left.

import { randomUUID } from 'node:crypto';
import { sendNote } from '../receipts/texts.js';
import { HubError } from '../protocol/errors.js';
import type { SendResult } from '../protocol/methods.js';
import type { SessionRecord } from '../registry/session.js';
import { dialogExpiryMs } from '../settings/effective.js';
import type { AdmissionPort } from '../delivery/ports.js';
import type { EffectiveSettings } from '../settings/effective.js';
import type { RemoteMachines } from './remote-machines.js';
import { peerAddress, PROTOCOL_VERSION, STORE_MS } from '../protocol/relay-wire.js';

export interface RemoteTarget {
  machine: string;
  /** The session as the remote hub resolves it: an id, a name or `name [ref]`. */
  session: string;
  /** How this hub lists it, when it does. */
  label: string;
}

/** What a send to another machine needs from the hub. */
export interface RemoteSendPorts {
  readonly remote: Pick<RemoteMachines, 'relay' | 'confirmations' | 'outstanding'>;
  readonly admission: Pick<AdmissionPort, 'effective'>;
  adminSettings(): EffectiveSettings;
}

export async function sendRemote(
  hub: RemoteSendPorts,
  sender: SessionRecord,
  target: RemoteTarget,
  summary: string | null,
  message: string | null,
  notifyWhenIdle: boolean,
  msgId: string = randomUUID(),
): Promise<SendResult> {
  if (message === null || notifyWhenIdle) throw new HubError('idle_not_local');
  const relay = hub.remote.relay;
  if (relay === undefined) throw new HubError('unreachable', { detail: 'no relay is configured (the relay setting)' });
  const to = { name: null, ref: null, address: peerAddress(target.machine, target.session) };
  if (hub.admission.effective(sender).isolatePeerMachines.value) {
    const decision = await hub.remote.confirmations.park(
      { senderId: sender.id, senderName: sender.name, machine: target.machine, session: target.label, text: message },
      dialogExpiryMs(hub.adminSettings().dialogExpiry.value),
    );
    if (decision !== 'allow') {
      const status = decision === 'deny' ? 'confirm-denied' : 'confirm-expired';
      return { status, msg_id: msgId, to, note: sendNote(status, target.label) };
    }
  }
  await hub.remote.outstanding.add(msgId, sender.id, target.machine); // before, and durable: a receipt can overtake the answer, or come after a restart
  const answer = await relay
    .send(target.machine, {
      v: PROTOCOL_VERSION,
      msgId,
      to: target.session,
      from: { machine: relay.machine, sessionId: sender.id, name: sender.name },
      summary,
      body: message,
    })
    .catch((err: unknown) => {
      if (err instanceof HubError && err.reason === 'timeout') {
        const detail = (err.data as { detail?: unknown } | undefined)?.detail;
        throw new HubError(
          'timeout',
          {
            detail: `${typeof detail === 'string' ? detail : 'no answer'}; it may still arrive: a receipt will say`,
            msg_id: msgId,
          },
          { cause: err },
        );
      }
      hub.remote.outstanding.forget(msgId);
      throw err;
    });
  if ('stored' in answer) {
    await hub.remote.outstanding.stored(msgId, {
      seq: answer.seq,
      expiresAt: answer.expiresAt,
      session: target.session,
      to: target.label,
    });
    const days = Math.round(STORE_MS / 86_400_000);
    return {
      status: 'stored',
      msg_id: msgId,
      to,
      expiresAt: answer.expiresAt,
      note: sendNote('stored', target.label, `${days} day${days === 1 ? '' : 's'}`),
    };
  }
  if ('error' in answer) {
    hub.remote.outstanding.forget(msgId);
    throw new HubError(answer.error === 'target_not_found' ? 'target_not_found' : 'unreachable', {
      detail: `${target.machine} answered ${answer.error}`,
    });
  }
  const shown = `${answer.to.name} on ${target.machine}`;
  return {
    status: answer.status,
    msg_id: msgId,
    to: { name: answer.to.name, ref: null, address: peerAddress(target.machine, answer.to.sessionId) },
    ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
    note: sendNote(answer.status, shown, answer.reason),
  };
}
