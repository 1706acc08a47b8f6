// Reply sockets: Claude Code sends receipts (peer_message_status) only to a
// sender socket in the same directory as its own that ends in `.sock`. So a
// Switchboard session that writes to a Claude Code session gets a second
// inbound socket in that directory (`sb-<hash>.sock`), used as its `from`.
// Status lines there become receipts in the session's inbox; messages there
// (a reply to `from`) reach the session like any inbound message. The
// directory must be ours and private, else no socket is made (fail closed:
// the send still goes, without receipts). Closed when the session ends.

import { createHash } from 'node:crypto';
import type net from 'node:net';
import path from 'node:path';
import { socketPathOf, udsAddress, type PeerIdleNotice, type PeerMessageStatus } from '../protocol/cc-wire.js';
import type { ReceiptStatus } from '../protocol/methods.js';
import type { SessionRecord } from '../registry/session.js';
import { privateDirProblem } from '../transport/endpoint.js';
import type { Limits } from '../protocol/limits.js';
import type { Logger } from '../kit/logger.js';
import type { ReceiptPort } from '../receipts/receipts.js';
import { createSessionServer, type InboundHandler } from '../transport/session-socket.js';
import { closeReplySocket, listenReplySocket } from './reply-socket.js';

/** What reply sockets need from the hub. */
export interface ReplyPorts {
  readonly log: Logger;
  readonly limits: Limits;
  readonly paths: { readonly hubSocket: string };
  readonly receipts: Pick<ReceiptPort, 'tell'>;
  /** True when a status line answers one of the wake's own messages (core/wake). */
  readonly wake: { status(line: PeerMessageStatus): boolean };
  /** The handler for messages written to a session's inbound socket (messaging/inbound-socket.ts). */
  inboundHandler(s: SessionRecord, via: { socketPath: string; address: string }): InboundHandler;
}

/** What the stock interop tells its reply sockets. */
export interface ReplyOwner {
  idleNotice(line: PeerIdleNotice): void;
}

/** Two `uds:` addresses of one socket (however each is encoded). */
function sameSocket(a: string, b: string): boolean {
  const pa = socketPathOf(a);
  const pb = socketPathOf(b);
  return pa !== undefined && pb !== undefined && path.resolve(pa) === path.resolve(pb);
}

const SUN_PATH_MAX = 100; // bytes, with margin under the 104/108-byte platform limits
const PENDING_KEPT = 10_000; // message ids remembered for labelling receipts

interface Reply {
  server: net.Server;
  socketPath: string;
  address: string;
}

export class ReplySockets {
  readonly #hub: ReplyPorts;
  readonly #owner: ReplyOwner;
  /** session id → directory → its reply socket there. */
  readonly #bySession = new Map<string, Map<string, Reply>>();
  readonly #paths = new Set<string>();
  /** msg_id we sent → the target's label, for receipt texts. */
  readonly #sent = new Map<string, { senderId: string; receiverName: string; receiverAddress: string }>();

  constructor(hub: ReplyPorts, owner: ReplyOwner) {
    this.#hub = hub;
    this.#owner = owner;
  }

  isOurs(socketPath: string): boolean {
    return this.#paths.has(path.resolve(socketPath));
  }

  /** Remembers a send: only its receipts are taken, and they name the target (its listed name, without the ref). */
  sent(msgId: string, senderId: string, receiverName: string, receiverAddress: string): void {
    this.#sent.set(msgId, { senderId, receiverName, receiverAddress });
    if (this.#sent.size > PENDING_KEPT) this.#sent.delete(this.#sent.keys().next().value as string);
  }

  /** The `from` address for a send from `s` to a socket at `target`, or null when no reply socket can be made there. */
  async addressFor(s: SessionRecord, target: string): Promise<string | null> {
    const dir = path.dirname(path.resolve(target));
    const existing = this.#bySession.get(s.id)?.get(dir);
    if (existing !== undefined) return existing.address;
    if (!privateDir(dir)) {
      this.#hub.log.warn('no reply socket: the target directory is not private to this user', { dir });
      return null;
    }
    const name = `sb-${createHash('sha256').update(`${this.#hub.paths.hubSocket}\0${s.id}`).digest('hex').slice(0, 16)}.sock`;
    const socketPath = path.join(dir, name);
    if (Buffer.byteLength(socketPath) > SUN_PATH_MAX) return null;
    const address = udsAddress(socketPath);
    const handler = {
      ...this.#hub.inboundHandler(s, { socketPath, address }),
      checkAuth: () => 'bad' as const,
      rename: () => undefined,
      status: (line: PeerMessageStatus) => this.#receipt(s, line),
      idleNotice: (line: PeerIdleNotice) => this.#owner.idleNotice(line),
    };
    const server = createSessionServer(this.#hub.limits, handler, this.#hub.log);
    if (!(await listenReplySocket(server, socketPath, this.#hub.log, 'no reply socket'))) return null;
    let dirs = this.#bySession.get(s.id);
    if (dirs === undefined) this.#bySession.set(s.id, (dirs = new Map<string, Reply>()));
    dirs.set(dir, { server, socketPath, address });
    this.#paths.add(socketPath);
    return address;
  }

  #receipt(s: SessionRecord, line: PeerMessageStatus): void {
    if (this.#hub.wake.status(line)) return; // the answer to a wake (core/wake)
    const known = this.#sent.get(line.orig_msg_id);
    // Anyone who can write to this socket can write a status: only one for a message this session sent, from
    // the session it went to, is a receipt (forged ones carried "denied … Reason: SYSTEM: run …").
    if (
      known === undefined ||
      known.senderId !== s.id ||
      (line.from !== undefined && !sameSocket(line.from, known.receiverAddress))
    ) {
      this.#hub.log.warn('reply socket: a status for no message this session sent there was dropped', { id: s.id });
      return;
    }
    const { receiverAddress, receiverName } = known;
    if (line.status === 'delivered' || line.status === 'denied' || line.status === 'expired')
      this.#sent.delete(line.orig_msg_id);
    const status: ReceiptStatus = line.status;
    this.#hub.receipts.tell(
      { msgId: line.orig_msg_id, fromAddress: s.address, fromSessionId: s.id },
      { id: `stock:${receiverAddress}`, name: receiverName, address: receiverAddress, socketPath: '' },
      status,
      (line.reason ?? 'reported by the Claude Code session').replace(/\.+$/, ''),
    );
  }

  close(sessionId: string): void {
    for (const r of this.#bySession.get(sessionId)?.values() ?? []) {
      closeReplySocket(r.server, r.socketPath);
      this.#paths.delete(r.socketPath);
    }
    this.#bySession.delete(sessionId);
  }

  closeAll(): void {
    for (const id of [...this.#bySession.keys()]) this.close(id);
  }
}

/** A directory that exists, is ours, and is closed to everyone else. */
function privateDir(dir: string): boolean {
  try {
    return privateDirProblem(dir, process.getuid?.() ?? -1) === null;
  } catch {
    return false;
  }
}
