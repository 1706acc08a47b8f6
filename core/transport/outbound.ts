// Writes lines to another program's socket the way Claude Code does: one
// connection, the lines, then close, all within a timeout. Resolves when the
// socket took the bytes; that means "sent", never "delivered".

import net from 'node:net';
import { HubError } from '../protocol/errors.js';

export function writeLines(target: string, lines: readonly string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(target);
    let settled = false;
    const finish = (err?: HubError): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        sock.destroy();
        reject(err);
      } else {
        sock.end();
        resolve();
      }
    };
    const timer = setTimeout(() => finish(new HubError('timeout')), timeoutMs);
    sock.once('error', (cause) => finish(new HubError('unreachable', undefined, { cause })));
    sock.once('connect', () => {
      sock.write(lines.map((l) => l + '\n').join(''), (err) =>
        finish(err ? new HubError('unreachable', undefined, { cause: err }) : undefined),
      );
    });
  });
}

/** Fire-and-forget for receipts: failures are the caller's log line, never a throw. */
export function writeLinesQuietly(
  target: string,
  lines: readonly string[],
  timeoutMs: number,
  onError: (err: unknown) => void,
): void {
  writeLines(target, lines, timeoutMs).catch(onError);
}
