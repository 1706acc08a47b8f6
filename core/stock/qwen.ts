// Interop with Qwen Code's own sessions, in one place for the hub
// (docs/integrations.md#qwen-code): discovery of its interactive sessions
// into the session table (listed beside stock Claude Code ones) and reply
// sockets for the receipts of what our sessions send them. Publishing our
// sessions to Qwen Code is not done. The hub calls start/sweep/sessionEnded/close.

import path from 'node:path';
import type { EventSink } from '../delivery/ports.js';
import { drop } from '../kit/drop.js';
import type { SessionTable } from '../registry/table.js';
import { QwenDiscovery } from './qwen-discovery.js';
import { QwenReplies, type QwenReplyPorts } from './qwen-reply.js';

export interface QwenPorts extends QwenReplyPorts {
  readonly table: Pick<SessionTable, 'setQwen'>;
  readonly events: EventSink;
  /** Whether a socket is one of this hub's (its own, its sessions', its reply sockets). */
  isOurSocket(socketPath: string): boolean;
}

export class QwenInterop {
  readonly replies: QwenReplies;
  /** Qwen Code's home: `$QWEN_HOME`, else `~/.qwen`. */
  readonly home: string;
  readonly #discovery: QwenDiscovery;
  readonly #hub: QwenPorts;

  constructor(hub: QwenPorts, home: string) {
    this.#hub = hub;
    this.home = home;
    this.replies = new QwenReplies(hub, () =>
      drop(this.#discovery.scan(), 'Qwen Code registry rescan', (m, f) => hub.log.warn(m, f)),
    );
    this.#discovery = new QwenDiscovery({
      sessionsDir: path.join(home, 'sessions'),
      isOurs: (p) => this.replies.isOurs(p) || hub.isOurSocket(p),
      onChange: (sessions) => {
        hub.table.setQwen(sessions);
        hub.events.emit({ type: 'sessions.changed' });
      },
      log: (m, f) => hub.log.warn(m, f),
    });
  }

  start(): void {
    this.#discovery.start();
  }

  sweep(): Promise<void> {
    return this.#discovery.sweep();
  }

  get wantsRecheck(): boolean {
    return this.#discovery.wantsRecheck;
  }

  sessionEnded(id: string): void {
    this.replies.close(id);
  }

  close(): void {
    this.#discovery.close();
    this.replies.closeAll();
    this.#hub.table.setQwen([]);
  }
}
