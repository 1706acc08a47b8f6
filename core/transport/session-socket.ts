// A session's inbound socket: anything that writes Claude Code's user event
// line (docs/claude-code-formats.md#5-cross-session-messaging) to it delivers a message to that session, subject to
// the hub's pipeline. Optional first line `{"type":"auth","token":…}`: the
// session's own token marks the writer as its child process; a wrong token
// closes the connection. `rename` control lines go to the handler with
// whether the writer proved to be the session's own child. Garbage
// lines are skipped (Claude Code does the same); a line over the frame limit
// closes the connection. Writers send and close: a connection silent for
// inboundIdleMs or with a line unfinished for partialLineMs is closed, as is
// the largest unfinished line past the hub's partialBytesTotal, and past
// inboundConnections the least recently active one makes room, so idle
// connections never lock writers out. It knows nothing about inboxes or policy.

import net from 'node:net';
import type { Limits } from '../protocol/limits.js';
import {
  AuthLine,
  PeerIdleNotice,
  PeerMessageStatus,
  RenameControl,
  UserEventLine,
  type UserEventLine as UserEvent,
} from '../protocol/cc-wire.js';
import { performance } from 'node:perf_hooks';
import { LinePump } from './line-pump.js';
import type { Logger } from '../kit/logger.js';

export interface InboundHandler {
  /** The writer's auth token: 'own' (the session's token), 'bad', or 'none'. */
  checkAuth(token: string): 'own' | 'bad';
  message(line: UserEvent, ownChild: boolean): void;
  /** A rename control line; `ownChild`: the connection began with the session's own token. */
  rename(name: string, ownChild: boolean): void;
  /** A receipt from a Claude Code session we sent to (reply sockets only). */
  status?(line: PeerMessageStatus): void;
  /** A Claude Code session's answer to our notify_when_idle (reply sockets only). */
  idleNotice?(line: PeerIdleNotice): void;
}

/** Destroys the connection that read nothing for the longest time. */
function evictLeastRecent(open: Map<net.Socket, number>, log: Logger): void {
  let victim: net.Socket | undefined;
  let oldest = Infinity;
  for (const [socket, lastRead] of open) {
    if (lastRead < oldest) {
      oldest = lastRead;
      victim = socket;
    }
  }
  if (victim === undefined) return;
  log.warn('inbound socket: connection limit reached, the least recently active connection was closed');
  open.delete(victim);
  victim.destroy();
}

export function createSessionServer(limits: Limits, handler: InboundHandler, log: Logger): net.Server {
  /** Open connections and when each last sent bytes. */
  const open = new Map<net.Socket, number>();
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    if (open.size >= limits.inboundConnections) evictLeastRecent(open, log);
    open.set(socket, performance.now());
    socket.on('data', () => open.has(socket) && open.set(socket, performance.now()));
    socket.setTimeout(limits.inboundIdleMs, () => {
      log.warn('inbound socket: idle connection closed');
      socket.destroy();
    });
    let first = true;
    let ownChild = false;
    let dead = false;
    const onLine = (line: string): void => {
      if (dead) return;
      const isFirst = first;
      first = false;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        log.warn('inbound socket: skipped a line that is not JSON');
        return;
      }
      if (isFirst) {
        const auth = AuthLine.safeParse(value);
        if (auth.success) {
          if (handler.checkAuth(auth.data.token) === 'bad') {
            log.warn('inbound socket: wrong auth token, connection closed');
            dead = true;
            socket.destroy();
          } else {
            ownChild = true;
          }
          return;
        }
      }
      const user = UserEventLine.safeParse(value);
      if (user.success) return handler.message(user.data, ownChild);
      const rename = RenameControl.safeParse(value);
      if (rename.success) return handler.rename(rename.data.name, ownChild);
      if (handler.status !== undefined) {
        const status = PeerMessageStatus.safeParse(value);
        if (status.success) return handler.status(status.data);
      }
      if (handler.idleNotice !== undefined) {
        const notice = PeerIdleNotice.safeParse(value);
        if (notice.success) return handler.idleNotice(notice.data);
      }
      log.warn('inbound socket: skipped a line that is not a user event or known control');
    };
    new LinePump(socket, limits, {
      line: onLine,
      overflow: () => {
        log.warn('inbound socket: line over the frame limit, connection closed');
        socket.destroy();
      },
      partialTimeout: () => {
        log.warn('inbound socket: a line stayed unfinished too long, connection closed');
        socket.destroy();
      },
      overBudget: () => {
        log.warn("inbound socket: the hub's unfinished lines passed their budget; the largest was closed");
        socket.destroy();
      },
    });
    socket.on('close', () => open.delete(socket));
  });
  // After listening, an accept failure (EMFILE) is an 'error' event: log it, never crash.
  server.once('listening', () =>
    server.on('error', (err) => log.warn('inbound socket: accept failed', { error: err.message })),
  );
  return server;
}
