// A fake socket peer (a stock Claude Code session or a script): listens on
// a Unix socket and records every line written to it.

import net from 'node:net';

export interface FakePeer {
  path: string;
  lines: Array<Record<string, unknown>>;
  raw: string[];
  close(): Promise<void>;
}

export async function fakePeer(socketPath: string): Promise<FakePeer> {
  const lines: Array<Record<string, unknown>> = [];
  const raw: string[] = [];
  const server = net.createServer((sock) => {
    let buf = '';
    sock.on('data', (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
    });
  });
  await new Promise<void>((r) => server.listen(socketPath, r));
  return { path: socketPath, lines, raw, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Writes data to a socket in one connection, then closes it. */
export async function writeSocket(socketPath: string, data: string | Buffer): Promise<void> {
  const sock = net.connect(socketPath);
  await new Promise<void>((resolve, reject) => {
    sock.once('error', reject);
    sock.once('connect', () => sock.end(data, () => resolve()));
  });
}

/** Claude Code conformance fixtures, serialized as Claude Code does (docs/claude-code-formats.md). */
export const FIXTURES = new URL('../fixtures/claude-code', import.meta.url).pathname;
