// Turns lines written to a session's inbound socket into envelopes for the
// router. The writer is not vouched for: it has no permission class, its
// claimed wrapper attributes are discarded (only a cleaned sender name is
// kept: Claude Code's from-name, Claude Desktop's name) and the body — a
// Desktop body decoded (protocol/desktop-wire.ts) — is re-wrapped by us; a
// Desktop frame in an encoding we cannot read is refused, never guessed at. A `from` that names the user, one
// of this hub's sessions or a session on another machine (`peer:`) is a
// forgery (only the hub and its relay send as those): it becomes `unknown`,
// without its from-name, so no receipt of it goes to the relay. A refusal is
// answered to the writer's `from` socket (receipts/receipts.ts). A rename line is obeyed only from the session's own
// child (the connection began with its token), and never to a name another
// listed session holds.

import { randomUUID } from 'node:crypto';
import { readFrame } from '../protocol/desktop-wire.js';
import { validName } from '../registry/names.js';
import { nameHeldByOther } from '../registry/resolution.js';
import { tokenMatches, type SessionRecord } from '../registry/session.js';
import type { Envelope } from '../delivery/envelope.js';
import type { Clock } from '../kit/clock.js';
import type { Logger } from '../kit/logger.js';
import type { AdmissionPort, EventSink } from '../delivery/ports.js';
import type { SessionTable } from '../registry/table.js';
import type { ReceiptPort } from '../receipts/receipts.js';
import type { InboundHandler } from '../transport/session-socket.js';

/** What a session's inbound socket needs from the hub. */
export interface InboundPorts {
  readonly admission: Pick<AdmissionPort, 'route'>;
  readonly receipts: Pick<ReceiptPort, 'answerWriter'>;
  readonly table: Pick<SessionTable, 'live' | 'hosts' | 'rename' | 'listed' | 'named' | 'byAddress'>;
  readonly events: EventSink;
  readonly clock: Clock;
  readonly log: Logger;
  persist(s: SessionRecord): Promise<void>;
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
  return {
    checkAuth: (token) => (tokenMatches(token, receiver) ? 'own' : 'bad'),
    message(line, ownChild) {
      const frame = readFrame(line.message.content);
      // A writer may not speak as the user or as one of our sessions (its own child as its session only).
      const forged =
        line.from === 'user' ||
        line.from?.startsWith('peer:') === true ||
        (line.from !== undefined && !ownChild && hub.table.hosts(line.from));
      if (forged)
        hub.log.warn('inbound socket: a writer claimed to be the user, a hosted session or another machine', {
          id: receiver.id,
        });
      const fromAddress = forged ? 'unknown' : (line.from ?? 'unknown');
      const env: Envelope = {
        msgId: line.msg_id ?? randomUUID(),
        fromAddress,
        fromName: forged || !frame.ok ? null : frame.senderName,
        fromSessionId: null,
        fromClass: null,
        ownChild,
        summary: null,
        body: frame.ok ? frame.body : '',
        at: hub.clock.now(),
        ...(via ? { statusVia: via } : {}),
      };
      if (!frame.ok) {
        hub.log.warn('inbound socket: a message refused', { id: receiver.id, why: frame.detail });
        return hub.receipts.answerWriter(env, receiver, 'refused', `Not delivered: ${frame.detail}.`);
      }
      hub.admission.route(env, receiver).then(
        (r) => {
          if (r.status === 'refused') hub.receipts.answerWriter(env, receiver, 'refused', r.reason ?? 'refused');
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
