// The socket file of a reply socket (reply.ts for Claude Code, qwen-reply.ts
// for Qwen Code): opened private to this user after a left-over one of ours
// is removed (our names are deterministic per hub and session, so a crash
// leaves one behind; a socket of another user, or a file that is not a
// socket, is never removed), and removed again when closed. A socket that
// cannot listen is logged and reported as false: the send still goes,
// without receipts.

import fs from 'node:fs';
import type net from 'node:net';
import type { Logger } from '../kit/logger.js';
import { listenPrivate } from '../transport/endpoint.js';

/** Listens on `socketPath`; false (logged as `what`) when it cannot. */
export async function listenReplySocket(
  server: net.Server,
  socketPath: string,
  log: Logger,
  what: string,
): Promise<boolean> {
  removeOwnStaleSocket(socketPath);
  try {
    await listenPrivate(server, socketPath, false);
    return true;
  } catch (err) {
    log.warn(what, { socketPath, error: String(err) });
    return false;
  }
}

/** Stops listening and removes the socket file. */
export function closeReplySocket(server: net.Server, socketPath: string): void {
  server.close();
  fs.rmSync(socketPath, { force: true });
}

function removeOwnStaleSocket(socketPath: string): void {
  try {
    const st = fs.lstatSync(socketPath);
    if (st.isSocket() && st.uid === process.getuid?.()) fs.rmSync(socketPath, { force: true });
  } catch {
    // not there
  }
}
