// Reply sockets for Qwen Code (docs/integrations.md#qwen-code): a Switchboard
// session that writes to a Qwen Code session names one of these as its
// `from`, with a token minted for it as `replyToken`. Qwen Code answers each
// message with delivery_status frames on a new connection: its auth line
// (our token, compared in constant time) and then the frame. A connection
// whose first line is not our token is closed; a status is a receipt only
// for a message this session sent to the session whose socket answers.
// The socket lives in the hub's own private socket directory and is
// closed when the session ends. Bounded: 64 connections, 64 KiB a line,
// 8 lines and 10 s a connection.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { drop } from '../kit/drop.js';
import type { Logger } from '../kit/logger.js';
import { LineSplitter } from '../protocol/ndjson.js';
import { parseQwenLine, QWEN_LINE_MAX_BYTES, receiptOf, type DeliveryStatus } from '../protocol/qwen-wire.js';
import type { ReceiptPort } from '../receipts/receipts.js';
import type { SessionRecord } from '../registry/session.js';
import { MAX_SOCKET_PATH_BYTES } from '../transport/endpoint.js';
import { closeReplySocket, listenReplySocket } from './reply-socket.js';

const MAX_CONNECTIONS = 64;
const LINES_PER_CONNECTION = 8;
const CONNECTION_MS = 10_000;
const PENDING_KEPT = 10_000;

export interface QwenReplyPorts {
  readonly log: Logger;
  readonly paths: { readonly hubSocket: string };
  readonly receipts: Pick<ReceiptPort, 'tell'>;
}

interface Reply {
  server: net.Server;
  socketPath: string;
  /**
   * One token per receiver socket this session sent to: a Qwen Code session holds only the token of the messages
   * sent to it, so it cannot answer for another's (`from` in a status frame is the writer's own word).
   */
  tokens: Map<string, Buffer>;
}

interface Sent {
  senderId: string;
  senderAddress: string;
  receiverName: string;
  receiverAddress: string;
  receiverSocket: string;
}

export class QwenReplies {
  readonly #hub: QwenReplyPorts;
  readonly #bySession = new Map<string, Promise<Reply | null>>();
  readonly #paths = new Set<string>();
  readonly #sent = new Map<string, Sent>();
  readonly #misaddressed: () => void;

  /** `misaddressed`: a session answered that its socket now hosts another conversation (read its record again). */
  constructor(hub: QwenReplyPorts, misaddressed: () => void = () => undefined) {
    this.#hub = hub;
    this.#misaddressed = misaddressed;
  }

  isOurs(socketPath: string): boolean {
    return this.#paths.has(path.resolve(socketPath));
  }

  /** Remembers a send: only its receipts are taken, and they name the target. */
  sent(msgId: string, sender: SessionRecord, receiver: Omit<Sent, 'senderId' | 'senderAddress'>): void {
    this.#sent.set(msgId, { senderId: sender.id, senderAddress: sender.address, ...receiver });
    if (this.#sent.size > PENDING_KEPT) this.#sent.delete(this.#sent.keys().next().value as string);
  }

  /**
   * The session's reply socket (made on first use) and the token for messages to `receiverSocket`, or null when
   * no socket can be made (no receipts then). Calls at once for one session share the one socket being made.
   */
  async for(s: SessionRecord, receiverSocket: string): Promise<{ from: string; token: string } | null> {
    let made = this.#bySession.get(s.id);
    if (made === undefined) this.#bySession.set(s.id, (made = this.#open(s)));
    const reply = await made;
    if (reply === null) {
      if (this.#bySession.get(s.id) === made) this.#bySession.delete(s.id); // the next send tries again
      return null;
    }
    const receiver = path.resolve(receiverSocket);
    let token = reply.tokens.get(receiver);
    if (token === undefined) reply.tokens.set(receiver, (token = randomBytes(32)));
    return { from: reply.socketPath, token: token.toString('hex') };
  }

  async #open(s: SessionRecord): Promise<Reply | null> {
    const dir = path.dirname(path.resolve(this.#hub.paths.hubSocket));
    const hash = createHash('sha256').update(`${this.#hub.paths.hubSocket}\0qwen\0${s.id}`).digest('hex').slice(0, 16);
    const socketPath = path.join(dir, `qw-${hash}.sock`);
    if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) return null;
    const reply: Reply = { server: net.createServer(), socketPath, tokens: new Map() };
    reply.server.maxConnections = MAX_CONNECTIONS;
    reply.server.on('connection', (sock) => this.#serve(s, reply, sock));
    if (!(await listenReplySocket(reply.server, socketPath, this.#hub.log, 'no Qwen Code reply socket'))) return null;
    this.#paths.add(socketPath);
    return reply;
  }

  #serve(s: SessionRecord, reply: Reply, sock: net.Socket): void {
    const lines = new LineSplitter(QWEN_LINE_MAX_BYTES);
    let seen = 0;
    let receiver: string | undefined; // the receiver whose token this connection gave
    const timer = setTimeout(() => sock.destroy(), CONNECTION_MS);
    sock.on('close', () => clearTimeout(timer));
    sock.on('error', () => undefined);
    sock.on('data', (chunk: Buffer) => {
      const ok = lines.push(chunk, (line) => {
        if (sock.destroyed) return;
        if (++seen > LINES_PER_CONNECTION) return void sock.destroy();
        const parsed = parseQwenLine(line);
        if (receiver === undefined) {
          receiver = parsed.kind === 'auth' ? receiverOf(reply, parsed.token) : undefined;
          if (receiver === undefined) sock.destroy();
          return;
        }
        if (parsed.kind === 'status') this.#receipt(s, receiver, parsed.frame);
      });
      if (!ok) sock.destroy();
    });
    sock.on('end', () => sock.end());
  }

  #receipt(s: SessionRecord, receiver: string, frame: DeliveryStatus): void {
    const ids = new Set([frame.origMsgId, ...(frame.status === 'dropped' ? (frame.droppedMsgIds ?? []) : [])]);
    const { status, reason } = receiptOf(frame);
    if (frame.status === 'misaddressed') this.#misaddressed();
    for (const id of ids) {
      const known = this.#sent.get(id);
      if (
        known === undefined ||
        known.senderId !== s.id ||
        known.receiverSocket !== receiver ||
        (frame.from !== undefined && path.resolve(frame.from) !== receiver)
      ) {
        this.#hub.log.warn('Qwen Code reply socket: a status for no message this session sent there was dropped', {
          id: s.id,
        });
        continue;
      }
      // After `held` a decision follows; after `delivered` an `expired` may (never consumed before Qwen Code exited).
      if (status !== 'held' && status !== 'delivered') this.#sent.delete(id);
      this.#hub.receipts.tell(
        { msgId: id, fromAddress: known.senderAddress, fromSessionId: s.id },
        {
          id: `stock:${known.receiverAddress}`,
          name: known.receiverName,
          address: known.receiverAddress,
          socketPath: '',
        },
        status,
        reason,
      );
    }
  }

  close(sessionId: string): void {
    const made = this.#bySession.get(sessionId);
    if (made === undefined) return;
    this.#bySession.delete(sessionId);
    // One still being made is closed as it lands.
    const shut = made.then((r) => {
      if (r === null) return;
      closeReplySocket(r.server, r.socketPath);
      this.#paths.delete(r.socketPath);
    });
    drop(shut, 'closing a Qwen Code reply socket', (m, f) => this.#hub.log.warn(m, f));
  }

  closeAll(): void {
    for (const id of [...this.#bySession.keys()]) this.close(id);
  }
}

function sameToken(given: string, ours: Buffer): boolean {
  const g = Buffer.from(given, 'utf8');
  const want = Buffer.from(ours.toString('hex'), 'utf8');
  return g.length === want.length && timingSafeEqual(g, want);
}

/** The receiver socket whose token `given` is, if any (every token compared, in constant time each). */
function receiverOf(reply: Reply, given: string): string | undefined {
  let found: string | undefined;
  for (const [receiver, token] of reply.tokens) if (sameToken(given, token)) found = receiver;
  return found;
}
