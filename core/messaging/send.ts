// message.send for a hosted session: the §5 rules, resolution of `to`, pins,
// then the router (a session of this hub), a listed stock Claude Code
// session (core/stock/stock-send.ts) or Qwen Code session (core/stock/qwen-send.ts), or one line written to another program's
// socket given by address. The
// result is a truthful status; receipts follow in the sender's inbox.

import { userEventLine, socketPathOf, wrapMessage } from '../protocol/cc-wire.js';
import { HubError } from '../protocol/errors.js';
import type { SendParams, SendResult } from '../protocol/methods.js';
import { label } from '../registry/names.js';
import { resolveTo, type Resolved, type RowIndex } from '../registry/resolution.js';
import { inScope, outOfScopeReason, type ScopedParty } from '../policy/scope.js';
import { senderClass, type SessionRecord } from '../registry/session.js';
import { sendNote } from '../receipts/texts.js';
import { randomId } from '../delivery/msg-id.js';
import type { Envelope } from '../delivery/envelope.js';
import { validateSend } from './validate.js';
import type { Clock } from '../kit/clock.js';
import type { AdmissionPort } from '../delivery/ports.js';
import type { IdleWatch } from '../idle/idle.js';
import type { Limits } from '../protocol/limits.js';
import type { Pins } from '../registry/resolution.js';
import type { ListedSession, SessionTable } from '../registry/table.js';
import { writeLines } from '../transport/outbound.js';
import { sendToStock, type StockSendPorts } from '../stock/stock-send.js';
import { QWEN_SENT_REASON, sendToQwen, type QwenSendPorts } from '../stock/qwen-send.js';
import { isOwnMessagingSocket } from '../stock/entry.js';
import { parsePeerAddress } from '../protocol/relay-wire.js';
import { sendRemote, type RemoteSendPorts } from '../relay/remote-send.js';
import { recordOutbound, type OutboundHistory, type OutboundMessage } from '../history/outbound.js';

/** What message.send needs from the hub. */
export interface SendPorts extends StockSendPorts, QwenSendPorts, RemoteSendPorts {
  /** Where messages that leave this hub are recorded (core/history/outbound.ts). */
  readonly history: OutboundHistory;
  readonly table: Pick<SessionTable, 'byAddress' | 'listed' | 'named'>;
  readonly pins: Pins;
  readonly idle: Pick<IdleWatch, 'subscribe'>;
  readonly admission: AdmissionPort;
  readonly limits: Limits;
  readonly clock: Clock;
}

export async function sendMessage(hub: SendPorts, sender: SessionRecord, params: SendParams): Promise<SendResult> {
  const input = validateSend(params, hub.limits);
  const resolved = resolveFor(hub, sender, input.to);
  const msgId = randomId();
  const outside = scopeRefusal(hub, sender, resolved, msgId);
  if (outside !== undefined) return outside;

  if (resolved.kind === 'address') {
    const peer = parsePeerAddress(resolved.address);
    const leaving = outbound(hub, sender, msgId, { id: resolved.address, name: resolved.address, team: null }, input);
    if (peer !== undefined)
      return recordOutbound(hub.history, leaving, () =>
        sendRemote(
          hub,
          sender,
          { ...peer, label: resolved.address },
          input.summary,
          input.message,
          input.notifyWhenIdle,
          msgId,
        ),
      );
    if (input.to.startsWith('peer:')) throw new HubError('target_not_found', { candidates: [] });
    const target = socketPathOf(resolved.address);
    if (target === undefined) throw new HubError('target_not_found', { candidates: [] });
    if (isOwnMessagingSocket(hub.stock.root, sender, target)) throw new HubError('to_self'); // not yet discovered
    if (input.notifyWhenIdle) throw new HubError('idle_not_local');
    const fromMode = senderClass(sender);
    const content = wrapMessage(input.message ?? '', {
      from: sender.address,
      fromName: sender.name,
      ...(fromMode !== null ? { fromMode } : {}),
    });
    return recordOutbound(
      hub.history,
      leaving,
      async (): Promise<SendResult> => {
        await writeLines(
          target,
          [userEventLine({ msgId, content, from: sender.address })],
          hub.limits.outboundTimeoutMs,
        );
        return {
          status: 'sent',
          msg_id: msgId,
          to: { name: null, ref: null, address: resolved.address },
          note: sendNote('sent', resolved.address),
        };
      },
      'written to the socket at that address',
    );
  }

  const row = resolved.row;
  if (resolved.byName) hub.pins.check(sender.id, input.to, row);
  if (row.remote !== undefined) {
    const remote = row.remote;
    const leaving = outbound(
      hub,
      sender,
      msgId,
      { id: row.address, name: `${row.name} on ${remote.machine}`, team: null },
      input,
    );
    const result = await recordOutbound(hub.history, leaving, () =>
      sendRemote(
        hub,
        sender,
        {
          machine: remote.machine,
          session: remote.session.sessionId,
          label: `${label(row.name, row.ref)} on ${remote.machine}`,
        },
        input.summary,
        input.message,
        input.notifyWhenIdle,
        msgId,
      ),
    );
    const reached = result.status === 'queued' || result.status === 'held' || result.status === 'stored';
    if (resolved.byName && reached) hub.pins.pin(sender.id, row);
    return result;
  }
  if (row.stock !== undefined) {
    const stock = row.stock;
    const result = await recordOutbound(
      hub.history,
      outbound(hub, sender, msgId, { id: stock.address, name: row.name, team: null }, input),
      () =>
        (stock.qwen !== undefined ? sendToQwen : sendToStock)(
          hub,
          sender,
          { name: row.name, ref: row.ref, stock },
          input.message,
          input.notifyWhenIdle,
          msgId,
        ),
      stock.qwen !== undefined ? QWEN_SENT_REASON : 'written to the Claude Code session’s socket',
    );
    if (resolved.byName) hub.pins.pin(sender.id, row);
    return result;
  }
  const receiver = row.session;
  if (receiver.id === sender.id) throw new HubError('to_self');
  const to = { name: receiver.name, ref: row.ref, address: receiver.address };
  const shown = label(receiver.name, row.ref);

  if (input.message === null) {
    hub.idle.subscribe(sender, receiver, shown);
    if (resolved.byName) hub.pins.pin(sender.id, row);
    return { status: 'subscribed', msg_id: msgId, to, note: sendNote('subscribed', shown) };
  }

  const env: Envelope = {
    msgId,
    fromAddress: sender.address,
    fromName: sender.name,
    fromSessionId: sender.id,
    fromClass: senderClass(sender),
    ownChild: false,
    summary: input.summary,
    body: input.message,
    at: hub.clock.now(),
  };
  const result = await hub.admission.route(env, receiver);
  const accepted = result.status === 'queued' || result.status === 'held';
  if (accepted && input.notifyWhenIdle) hub.idle.subscribe(sender, receiver, shown);
  if (accepted && resolved.byName) hub.pins.pin(sender.id, row);
  return {
    status: result.status,
    msg_id: msgId,
    to,
    ...(result.reason !== undefined ? { reason: result.reason } : {}),
    note: sendNote(result.status, shown, result.reason),
  };
}

const partyOfSender = (hub: SendPorts, sender: SessionRecord): ScopedParty => ({
  cwd: sender.cwd,
  scope: hub.admission.effective(sender).crossSessionScope.value,
});

/** A listed row as scope sees it: another machine's project cannot be known; stock sessions are machine-scoped. */
function partyOf(hub: SendPorts, row: ListedSession): ScopedParty {
  if (row.remote !== undefined) return { cwd: '/', scope: 'machine', remote: true };
  if (row.stock !== undefined) return { cwd: row.stock.entry.cwd, scope: 'machine' };
  return { cwd: row.session.cwd, scope: hub.admission.effective(row.session).crossSessionScope.value };
}

/**
 * `to` resolved for this sender. A project-scoped sender resolves names among its own project's sessions first:
 * another project's session neither makes a name ambiguous nor is offered as a candidate. Only a name that
 * matches nothing in the project is looked up everywhere, so that the scope can refuse it with its reason;
 * when that finds no single session either, the answer is the project's own "not found".
 */
function resolveFor(hub: SendPorts, sender: SessionRecord, to: string): Resolved<ListedSession> {
  const mine = partyOfSender(hub, sender);
  if (mine.scope !== 'project') return resolveTo(to, hub.table);
  const visible = (r: ListedSession): boolean => inScope(mine, partyOf(hub, r));
  const project: RowIndex<ListedSession> = {
    listed: () => hub.table.listed().filter(visible),
    named: (n) => hub.table.named(n).filter(visible),
    byAddress: (a) => hub.table.byAddress(a), // addresses resolve everywhere; the scope refuses them
  };
  try {
    return resolveTo(to, project);
  } catch (err) {
    if (!(err instanceof HubError) || err.reason !== 'target_not_found') throw err;
    try {
      return resolveTo(to, hub.table);
    } catch {
      throw err;
    }
  }
}

/**
 * crossSessionScope "project" on either side: a target in another project (or on another machine, or a bare
 * socket whose project nobody can tell) is refused with a reason that says so.
 */
function scopeRefusal(
  hub: SendPorts,
  sender: SessionRecord,
  resolved: Resolved<ListedSession>,
  msgId: string,
): SendResult | undefined {
  const mine = partyOfSender(hub, sender);
  let other: ScopedParty;
  let to: SendResult['to'];
  if (resolved.kind === 'address') {
    other = { cwd: '/', scope: 'machine', remote: true }; // its project cannot be known
    to = { name: null, ref: null, address: resolved.address };
  } else {
    to = { name: resolved.row.name, ref: resolved.row.ref, address: resolved.row.address };
    other = partyOf(hub, resolved.row);
  }
  if (inScope(mine, other)) return undefined;
  const reason = outOfScopeReason(to.name ?? to.address);
  return { status: 'refused', msg_id: msgId, to, reason, note: sendNote('refused', to.name ?? to.address, reason) };
}

/** A message leaving this hub, for its history (null for a pure idle subscription: no message). */
function outbound(
  hub: Pick<SendPorts, 'clock'>,
  sender: SessionRecord,
  msgId: string,
  receiver: OutboundMessage['receiver'],
  input: { summary: string | null; message: string | null },
): OutboundMessage | null {
  if (input.message === null) return null;
  return {
    msgId,
    at: hub.clock.now(),
    sender: { id: sender.id, name: sender.name, address: sender.address, team: sender.team },
    receiver,
    summary: input.summary,
    text: input.message,
  };
}
