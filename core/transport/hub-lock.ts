// One hub per user: the hub socket itself is the mutex (bind is atomic).
// The only racy step, replacing a stale socket, runs under a short-lived
// mkdir lock so two starting hubs can never both unlink and bind. A lock
// left by a process that died while holding it is stale (core/storage/mkdir-guard.ts).

import fs from 'node:fs';
import net from 'node:net';
import { takeMkdirGuard } from '../storage/mkdir-guard.js';
import { EndpointError, listenPrivate, probeSocket, removeStaleSocket } from './endpoint.js';
import { CodedError } from '../protocol/coded-error.js';

export class HubRunningError extends CodedError<'hub_running'> {
  override readonly name = 'HubRunningError';
  readonly socket: string;
  constructor(socket: string) {
    super('hub_running', `A hub is already running on ${socket}`);
    this.socket = socket;
  }
}

/**
 * Binds `server` on the hub socket unless a live hub answers there, in
 * which case it throws HubRunningError. Unsafe paths throw EndpointError.
 */
export async function bindHubSocket(
  server: net.Server,
  socket: string,
  opts: { uid: number; windows: boolean; probeTimeoutMs: number },
): Promise<void> {
  if (opts.windows) {
    try {
      await listenPrivate(server, socket, true);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new HubRunningError(socket);
      throw err;
    }
  }
  const lockDir = `${socket}.lock`;
  await takeMkdirGuard(lockDir, () => new Error(`Timed out waiting for ${lockDir}`));
  try {
    if (!(await removeStaleSocket(socket, opts.uid, opts.probeTimeoutMs))) throw new HubRunningError(socket);
    try {
      await listenPrivate(server, socket, false);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE' && (await probeSocket(socket, opts.probeTimeoutMs))) {
        throw new HubRunningError(socket);
      }
      throw err;
    }
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

export { EndpointError };
