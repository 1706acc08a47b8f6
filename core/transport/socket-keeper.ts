// Socket files that vanish while the hub listens. A temp-directory cleaner
// (macOS removes files in $TMPDIR nobody opened for three days; the runtime
// directory falls back there without XDG_RUNTIME_DIR), a logout that
// removes /run/user/<uid>, or an `rm` takes the file while the server still
// listens on its inode: nobody can connect, `switchboard status` says no hub
// runs, and a second `serve` is refused because this one holds the state.
// Each check costs one lstat of the socket directory; only when the
// directory changed (inode or mtime) does it look at every socket, binds
// again each one whose file is gone (recreating the directory with the
// start-up checks), and logs it. A path that holds something else is left
// alone: the directory is private, so that is this user's doing. Unix only.

import fs from 'node:fs';
import type net from 'node:net';
import type { Logger } from '../kit/logger.js';
import { ensurePrivateDir, listenPrivate } from './endpoint.js';

/** A socket the hub listens on, and its file. */
export interface ListeningSocket {
  path: string;
  server: net.Server;
}

function stampOf(dir: string): string {
  try {
    const st = fs.lstatSync(dir);
    return `${st.ino}:${st.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

function missing(file: string): boolean {
  try {
    fs.lstatSync(file);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

export class SocketKeeper {
  readonly #dir: string;
  readonly #uid: number;
  readonly #log: Logger;
  #stamp: string;
  /** Sockets closed for a new bind that failed: each check tries them again (logged once until all succeed). */
  #retry = new Set<string>();

  /** `dir`: the socket directory as it is now, with every socket in it bound. */
  constructor(dir: string, uid: number, log: Logger) {
    this.#dir = dir;
    this.#uid = uid;
    this.#log = log;
    this.#stamp = stampOf(dir);
  }

  /** Binds again the sockets whose files are gone; returns their paths. Never throws: failures are logged. */
  async check(sockets: () => Iterable<ListeningSocket>): Promise<string[]> {
    const stamp = stampOf(this.#dir);
    if (stamp === this.#stamp && this.#retry.size === 0) return [];
    const failing = this.#retry.size > 0;
    const retry = new Set<string>();
    const rebound: string[] = [];
    const failures: Array<Record<string, string>> = [];
    try {
      if (stamp === 'missing') ensurePrivateDir(this.#dir, this.#uid, 'socket');
      for (const { path, server } of [...sockets()]) {
        const again = this.#retry.has(path) && !server.listening;
        if ((!server.listening && !again) || !missing(path)) continue;
        if (server.listening) server.close(); // stops accepting on the orphaned inode; open connections go on
        try {
          await listenPrivate(server, path, false);
          rebound.push(path);
        } catch (err) {
          retry.add(path);
          failures.push({ path, error: String(err) });
        }
      }
    } catch (err) {
      failures.push({ dir: this.#dir, error: String(err) });
    }
    if (rebound.length > 0)
      this.#log.warn('socket files were removed while the hub listened (a temp cleaner?); bound again', {
        dir: this.#dir,
        count: rebound.length,
        first: rebound[0],
      });
    if (failures.length > 0 && !failing)
      this.#log.error('socket files were removed and cannot be bound again (tried at every sweep)', {
        failures: failures.length,
        ...failures[0],
      });
    this.#retry = retry;
    // A directory that could not be made again is looked at again next time.
    this.#stamp = failures.some((f) => f.dir !== undefined) ? '' : stampOf(this.#dir);
    return rebound;
  }
}
