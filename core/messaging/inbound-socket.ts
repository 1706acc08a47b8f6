// Turns lines written to a session's inbound socket into envelopes for the
// router. The writer is not vouched for: it has no permission class, its
// claimed wrapper attributes are discarded (only a cleaned from-name is
// kept) and the body is re-wrapped by us. A `from` that names the user or
// one of this hub's sessions is a forgery (only the hub sends as those):
// it becomes `unknown`, without its from-name. Status reports go back to the
// writer's `from` socket only when it sits in the receiver's own directory,
// as Claude Code does. A rename line is obeyed only from the session's own
// child (the connection began with its token), and never to a name another
// listed session holds.

import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { cleanFromName, peerStatusLine, socketPathOf, unwrapMessage, type PeerStatus } from '../protocol/cc-wire.js';
import { validName } from '../registry/names.js';
import { nameHeldByOther } from '../registry/resolution.js';
import { tokenMatches, type PersistedSession, type SessionRecord } from '../registry/session.js';
import type { Envelope } from '../delivery/envelope.js';
import type { Clock } from '../kit/clock.js';
import type { Logger } from '../kit/logger.js';
import type { AdmissionPort, EventSink } from '../delivery/ports.js';
import type { Limits } from '../protocol/limits.js';
import type { SessionTable } from '../registry/table.js';
import { writeLinesQuietly } from '../transport/outbound.js';
import type { InboundHandler } from '../transport/session-socket.js';

/** What writing a status report back needs. */
export interface StatusPorts {
  readonly limits: Limits;
  readonly log: Logger;
}

/** What a session's inbound socket needs from the hub. */
export interface InboundPorts extends StatusPorts {
  readonly admission: Pick<AdmissionPort, 'route'>;
  readonly table: SessionTable;
  readonly events: EventSink;
  readonly clock: Clock;
  persist(s: SessionRecord): Promise<void>;
}

/** The socket a status report for `fromAddress` may go to, if any. */
export function replySocket(fromAddress: string, receiver: Pick<PersistedSession, 'socketPath'>): string | undefined {
  const target = socketPathOf(fromAddress);
  if (target === undefined || !target.endsWith('.sock')) return undefined;
  return path.dirname(target) === path.dirname(receiver.socketPath) ? target : undefined;
}

export function sendPeerStatus(
  hub: StatusPorts,
  receiver: Pick<PersistedSession, 'socketPath' | 'address'>,
  fromAddress: string,
  origMsgId: string,
  status: PeerStatus,
  reason: string,
): void {
  const target = replySocket(fromAddress, receiver);
  if (target === undefined) return;
  const line = peerStatusLine({ status, reason, from: receiver.address, origMsgId, msgId: randomUUID() });
  writeLinesQuietly(target, [line], hub.limits.outboundTimeoutMs, (err) =>
    hub.log.warn('status report not written', { error: String(err) }),
  );
}

/**
 * The handler for a session's inbound socket. `via` is set for a reply
 * socket (core/stock/reply.ts): status reports then go to writers in that
 * socket's directory, from that socket's address.
 */
export function inboundHandler(
  hub: InboundPorts,
  receiver: SessionRecord,
  via?: { socketPath: string; address: string },
): InboundHandler {
  const replyTo = via ?? receiver;
  return {
    checkAuth: (token) => (tokenMatches(token, receiver) ? 'own' : 'bad'),
    message(line, ownChild) {
      const { attrs, body } = unwrapMessage(line.message.content);
      // A writer may not speak as the user or as one of our sessions (its own child as its session only).
      const forged = line.from === 'user' || (line.from !== undefined && !ownChild && hub.table.hosts(line.from));
      if (forged)
        hub.log.warn('inbound socket: a writer claimed to be the user or a hosted session', { id: receiver.id });
      const fromAddress = forged ? 'unknown' : (line.from ?? 'unknown');
      const claimed = forged ? undefined : attrs['from-name'];
      const env: Envelope = {
        msgId: line.msg_id ?? randomUUID(),
        fromAddress,
        fromName: claimed !== undefined && claimed !== '' ? cleanFromName(claimed) : null,
        fromSessionId: null,
        fromClass: null,
        ownChild,
        summary: null,
        body,
        at: hub.clock.now(),
        ...(via ? { statusVia: via } : {}),
      };
      hub.admission.route(env, receiver).then(
        (r) => {
          if (r.status === 'refused')
            sendPeerStatus(hub, replyTo, fromAddress, env.msgId, 'refused', r.reason ?? 'refused');
        },
        (err: unknown) => hub.log.error('inbound message not stored', { error: String(err) }),
      );
    },
    rename(raw, ownChild) {
      if (!ownChild)
        return hub.log.warn('inbound socket: rename refused, the writer did not present the session token', {
          id: receiver.id,
        });
      const name = validName(raw);
      if (name === undefined || hub.table.live.get(receiver.id) !== receiver)
        return hub.log.warn('inbound socket: rename refused, invalid name', { id: receiver.id });
      if (nameHeldByOther(hub.table, name, receiver.address))
        return hub.log.warn('inbound socket: rename refused, name held by another session', { id: receiver.id });
      hub.table.rename(receiver, name);
      hub.events.emit({ type: 'sessions.changed' });
      hub.persist(receiver).catch((err: unknown) => hub.log.error('rename not journaled', { error: String(err) }));
    },
  };
}
