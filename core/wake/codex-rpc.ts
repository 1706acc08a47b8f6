// A small client of the Codex app-server control socket (codex 0.171.0,
// `$CODEX_HOME/app-server-control/app-server-control.sock`): an HTTP/1.1
// WebSocket upgrade on the Unix socket, then one JSON-RPC message (without
// the `jsonrpc` member) per masked text frame. Requests only; the server's
// notifications are ignored. Bounded: a frame-size cap, a header cap, and
// the caller's deadline (close() fails what is pending). Never throws late.

import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { CodedError } from '../protocol/coded-error.js';

const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const MAX_HEADER_BYTES = 16 * 1024;

/** The Codex app-server cannot be reached, misbehaved, or answered with an error. */
export class CodexRpcError extends CodedError<'codex_rpc'> {
  override readonly name: string = 'CodexRpcError';
  /** The app-server's JSON-RPC error code, when it answered with one. */
  readonly rpcCode: number | undefined;
  constructor(message: string, rpcCode?: number) {
    super('codex_rpc', message);
    this.rpcCode = rpcCode;
  }
}

export interface CodexRpc {
  request(method: string, params: unknown): Promise<unknown>;
  notify(method: string, params?: unknown): void;
  close(): void;
}

function frame(opcode: number, payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const len = payload.length;
  const head = len < 126 ? Buffer.from([0x80 | opcode, 0x80 | len]) : len < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  if (len >= 126) {
    head[0] = 0x80 | opcode;
    head[1] = 0x80 | (len < 65536 ? 126 : 127);
    if (len < 65536) head.writeUInt16BE(len, 2);
    else head.writeBigUInt64BE(BigInt(len), 2);
  }
  const body = Buffer.from(payload);
  for (let i = 0; i < body.length; i++) body[i]! ^= mask[i % 4]!;
  return Buffer.concat([head, mask, body]);
}

/** Connects and upgrades; rejects on a refused upgrade, a closed socket or an oversized answer. */
export function connectCodex(socketPath: string, o: { maxFrameBytes: number }): Promise<CodexRpc> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(socketPath);
    const key = randomBytes(16).toString('base64');
    const accept = createHash('sha1')
      .update(key + WS_GUID)
      .digest('base64');
    const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
    let serial = 0;
    let upgraded = false;
    let closed: Error | undefined; // why, once closed
    let buf: Buffer = Buffer.alloc(0);
    let parts: Buffer[] = [];
    let partsBytes = 0;

    const fail = (err: Error): void => {
      if (closed) return;
      closed = err;
      sock.destroy();
      for (const p of pending.values()) p.reject(err);
      pending.clear();
      if (!upgraded) reject(err);
    };
    const rpc: CodexRpc = {
      request(method, params) {
        if (closed) return Promise.reject(closed);
        const id = ++serial;
        return new Promise((res, rej) => {
          pending.set(id, { resolve: res, reject: rej });
          sock.write(frame(1, Buffer.from(JSON.stringify({ id, method, params }))));
        });
      },
      notify(method, params) {
        if (!closed)
          sock.write(frame(1, Buffer.from(JSON.stringify(params === undefined ? { method } : { method, params }))));
      },
      close: () => fail(new CodexRpcError('closed')),
    };
    const onMessage = (text: string): void => {
      let msg: unknown;
      try {
        msg = JSON.parse(text);
      } catch {
        return fail(new CodexRpcError('the Codex app-server sent a message that is not JSON'));
      }
      if (msg === null || typeof msg !== 'object') return;
      const m = msg as { id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
      if (typeof m.id !== 'number' || !pending.has(m.id)) return; // a notification, or a request to a client (we offer none)
      const p = pending.get(m.id)!;
      pending.delete(m.id);
      if (m.error !== undefined)
        p.reject(
          new CodexRpcError(
            typeof m.error?.message === 'string' ? m.error.message.slice(0, 500) : 'error',
            typeof m.error?.code === 'number' ? m.error.code : undefined,
          ),
        );
      else p.resolve(m.result);
    };
    const onFrames = (): void => {
      for (;;) {
        if (buf.length < 2) return;
        const fin = (buf[0]! & 0x80) !== 0;
        const opcode = buf[0]! & 0x0f;
        const masked = (buf[1]! & 0x80) !== 0;
        let len = buf[1]! & 0x7f;
        let off = 2;
        if (len === 126) {
          if (buf.length < 4) return;
          len = buf.readUInt16BE(2);
          off = 4;
        } else if (len === 127) {
          if (buf.length < 10) return;
          const big = buf.readBigUInt64BE(2);
          if (big > BigInt(o.maxFrameBytes))
            return fail(new CodexRpcError('the Codex app-server sent a frame over the size limit'));
          len = Number(big);
          off = 10;
        }
        if (len > o.maxFrameBytes)
          return fail(new CodexRpcError('the Codex app-server sent a frame over the size limit'));
        const maskAt = off;
        if (masked) off += 4;
        if (buf.length < off + len) return;
        const payload = Buffer.from(buf.subarray(off, off + len));
        if (masked) for (let i = 0; i < payload.length; i++) payload[i]! ^= buf[maskAt + (i % 4)]!;
        buf = buf.subarray(off + len);
        if (opcode === 8) return fail(new CodexRpcError('the Codex app-server closed the connection'));
        if (opcode === 9) sock.write(frame(10, payload));
        if (opcode !== 0 && opcode !== 1) continue; // pong, binary: nothing for us
        partsBytes += payload.length;
        if (partsBytes > o.maxFrameBytes)
          return fail(new CodexRpcError('the Codex app-server sent a message over the size limit'));
        parts.push(payload);
        if (!fin) continue;
        const text = Buffer.concat(parts).toString('utf8');
        parts = [];
        partsBytes = 0;
        onMessage(text);
        if (closed) return;
      }
    };
    sock.on('data', (d: Buffer) => {
      buf = buf.length === 0 ? d : Buffer.concat([buf, d]);
      if (!upgraded) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) {
          if (buf.length > MAX_HEADER_BYTES)
            fail(new CodexRpcError('the Codex app-server answered the upgrade with too long a header'));
          return;
        }
        const head = buf.subarray(0, end).toString('latin1').split('\r\n');
        buf = buf.subarray(end + 4);
        const ok =
          /^HTTP\/1\.1 101\b/.test(head[0] ?? '') &&
          head.some((h) => /^sec-websocket-accept:/i.test(h) && h.slice(h.indexOf(':') + 1).trim() === accept);
        if (!ok)
          return fail(
            new CodexRpcError(`the socket did not accept a WebSocket upgrade (${(head[0] ?? '').slice(0, 80)})`),
          );
        upgraded = true;
        resolve(rpc);
      }
      onFrames();
    });
    sock.once('error', (err) => fail(new CodexRpcError(`cannot reach the Codex app-server: ${err.message}`)));
    sock.once('close', () => fail(new CodexRpcError('the Codex app-server closed the connection')));
    sock.once('connect', () => {
      sock.write(
        `GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
  });
}
