// A scripted Codex app-server control socket for tests: a real Unix socket
// at `<codexHome>/app-server-control/app-server-control.sock` that answers
// the WebSocket upgrade as codex 0.171.0 does, unmasks the client's frames
// and answers each JSON-RPC request through `answer` (a result, or
// `{ error }`). Records every request. `mode` makes it misbehave.

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export interface FakeRequest {
  id?: number;
  method: string;
  params?: unknown;
}

export type Answer = (req: FakeRequest) => unknown;

export interface FakeAppServer {
  socketPath: string;
  requests: FakeRequest[];
  connections: number;
  close(): Promise<void>;
}

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

function serverFrame(payload: Buffer, opcode = 1): Buffer {
  const len = payload.length;
  const head = len < 126 ? Buffer.from([0x80 | opcode, len]) : Buffer.alloc(len < 65536 ? 4 : 10);
  if (len >= 126) {
    head[0] = 0x80 | opcode;
    head[1] = len < 65536 ? 126 : 127;
    if (len < 65536) head.writeUInt16BE(len, 2);
    else head.writeBigUInt64BE(BigInt(len), 2);
  }
  return Buffer.concat([head, payload]);
}

/** `mode`: 'http' answers the upgrade with 400; 'silent' never answers; 'huge' sends a frame over any small limit first. */
export async function fakeAppServer(
  codexHome: string,
  answer: Answer,
  mode: 'ok' | 'http' | 'silent' | 'huge' = 'ok',
): Promise<FakeAppServer> {
  const dir = path.join(codexHome, 'app-server-control');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const socketPath = path.join(dir, 'app-server-control.sock');
  const requests: FakeRequest[] = [];
  const sockets = new Set<net.Socket>();
  const fake: FakeAppServer = { socketPath, requests, connections: 0, close: async () => undefined };
  const server = net.createServer((sock) => {
    fake.connections++;
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    sock.on('error', () => undefined);
    let buf = Buffer.alloc(0);
    let upgraded = false;
    sock.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (!upgraded) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const key = /sec-websocket-key:\s*(\S+)/i.exec(buf.subarray(0, end).toString())?.[1] ?? '';
        buf = buf.subarray(end + 4);
        if (mode === 'silent') return;
        if (mode === 'http') return void sock.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n');
        const accept = createHash('sha1')
          .update(key + GUID)
          .digest('base64');
        sock.write(
          `HTTP/1.1 101 Switching Protocols\r\nconnection: Upgrade\r\nupgrade: websocket\r\nsec-websocket-accept: ${accept}\r\n\r\n`,
        );
        upgraded = true;
        if (mode === 'huge') sock.write(serverFrame(Buffer.alloc(200_000, 0x20)));
      }
      while (buf.length >= 2) {
        let len = buf[1]! & 0x7f;
        let off = 2;
        if (len === 126) [len, off] = [buf.readUInt16BE(2), 4];
        else if (len === 127) [len, off] = [Number(buf.readBigUInt64BE(2)), 10];
        if (buf.length < off + 4 + len) return;
        const mask = buf.subarray(off, off + 4);
        const body = Buffer.from(buf.subarray(off + 4, off + 4 + len));
        for (let i = 0; i < body.length; i++) body[i]! ^= mask[i % 4]!;
        const opcode = buf[0]! & 0x0f;
        buf = buf.subarray(off + 4 + len);
        if (opcode !== 1) continue;
        const req = JSON.parse(body.toString()) as FakeRequest;
        requests.push(req);
        if (req.id === undefined) continue;
        const out = answer(req) as { error?: unknown } | undefined;
        const reply =
          out !== undefined && typeof out === 'object' && 'error' in out
            ? { id: req.id, error: out.error }
            : { id: req.id, result: out ?? {} };
        sock.write(
          serverFrame(
            Buffer.from(JSON.stringify({ method: 'configWarning', params: { summary: 'a notification first' } })),
          ),
        );
        sock.write(serverFrame(Buffer.from(JSON.stringify(reply))));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  fake.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return fake;
}

/** What a loaded thread answers: `status` for thread/read, a turn id for turn/start. */
export function threadAnswers(o: { threadId: string; cwd: string; status?: () => string }): Answer {
  return (req) => {
    if (req.method === 'initialize')
      return { userAgent: 'codex-fake/0.171.0', codexHome: '', platformFamily: 'unix', platformOs: 'linux' };
    if (req.method === 'thread/read')
      return { thread: { id: o.threadId, cwd: o.cwd, status: { type: o.status?.() ?? 'idle' } }, readState: null };
    if (req.method === 'turn/start') return { turn: { id: 'turn-1', status: 'inProgress', items: [] } };
    return { error: { code: -32601, message: `no ${req.method}` } };
  };
}
