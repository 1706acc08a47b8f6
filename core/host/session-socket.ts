// A session's inbound socket: anything that writes Claude Code's user event
// line (FORMATS.md §5) to it delivers a message to that session, subject to
// the hub's pipeline. Optional first line `{"type":"auth","token":…}`: the
// session's own token marks the writer as its child process; a wrong token
// closes the connection. `rename` control lines go to the handler with
// whether the writer proved to be the session's own child. Garbage
// lines are skipped (Claude Code does the same); a line over the frame limit
// closes the connection. It knows nothing about inboxes or policy.

import net from 'node:net';
import type { Limits } from '../protocol/limits.js';
import { AuthLine, PeerIdleNotice, PeerMessageStatus, RenameControl, UserEventLine, type UserEventLine as UserEvent } from '../protocol/cc-wire.js';
import { LineSplitter } from '../protocol/ndjson.js';
import type { Logger } from './logger.js';

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

export function createSessionServer(limits: Limits, handler: InboundHandler, log: Logger): net.Server {
  let open = 0;
  return net.createServer((socket) => {
    if (open >= limits.inboundConnections) {
      socket.destroy();
      return;
    }
    open++;
    const splitter = new LineSplitter(limits.frameBytes);
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
    socket.on('data', (chunk: Buffer) => {
      if (!splitter.push(chunk, onLine)) {
        log.warn('inbound socket: line over the frame limit, connection closed');
        socket.destroy();
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      open--;
    });
  });
}
