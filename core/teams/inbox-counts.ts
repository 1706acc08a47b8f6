// Inbox depths for teams.show, remembered by file version: (device, inode,
// size, mtime, ctime in nanoseconds, from lstat). The UI asks again on every
// teams.changed, so without this each write to one inbox re-parsed every
// inbox of the team (up to 64 MiB each; 21 hard links to one 50 MB file
// took 15.8 s). Hard links share an inode and so one reading, and a reading
// in flight is shared. A file that changes while it is read is stored under
// the version seen before the read, which the next lstat no longer matches:
// it is read again, never answered stale. At most `max` versions are kept.

import fs from 'node:fs';
import type { Mailbox, ReadResult } from './mailbox.js';

export interface InboxCounts {
  depth: number;
  unread: number;
  problem?: string;
}

export class InboxCountCache {
  /** version → its counts (a reading in flight is shared); Map order is recency, oldest first. */
  readonly #byVersion = new Map<string, Promise<InboxCounts>>();
  readonly #max: number;
  readonly #peek: (mailbox: Mailbox) => Promise<ReadResult>;

  constructor(max = 256, peek: (mailbox: Mailbox) => Promise<ReadResult> = (m) => m.peek()) {
    this.#max = max;
    this.#peek = peek;
  }

  async of(mailbox: Mailbox): Promise<InboxCounts> {
    const version = await versionOf(mailbox.file);
    if (version === undefined) return this.#read(mailbox);
    let counts = this.#byVersion.get(version);
    if (counts !== undefined) this.#byVersion.delete(version);
    else {
      counts = this.#read(mailbox);
      counts.catch(() => this.#byVersion.delete(version));
    }
    this.#byVersion.set(version, counts);
    if (this.#byVersion.size > this.#max) this.#byVersion.delete(this.#byVersion.keys().next().value as string);
    return counts;
  }

  async #read(mailbox: Mailbox): Promise<InboxCounts> {
    const { entries, problem } = await this.#peek(mailbox);
    return {
      depth: entries.length,
      unread: entries.filter((e) => e.read !== true).length,
      ...(problem !== undefined ? { problem } : {}),
    };
  }
}

/** The file's version, or undefined when it cannot be lstat'ed (missing: nothing to remember). */
async function versionOf(file: string): Promise<string | undefined> {
  try {
    const st = await fs.promises.lstat(file, { bigint: true });
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return undefined;
  }
}
