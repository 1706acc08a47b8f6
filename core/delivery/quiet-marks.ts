// The hub's side of the "nothing pending" marks (format: protocol/quiet.ts).
// A mark is written when a fetch of the session's inbox found nothing to hand
// over (vouch) and removed, synchronously and before anything answers, the
// moment an item becomes fetchable (added, or released by a wake), when the
// session ends, and for all sessions at hub start and close. Every failure
// leaves the safe side: no mark, or one that expires within quietMarkMs.

import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../kit/clock.js';
import type { Logger } from '../kit/logger.js';
import { QUIET_DIR, formatQuietMark, quietMarkPath } from '../protocol/quiet.js';

/** What an inbox tells about its marks. */
export interface QuietPort {
  /** Something became fetchable for the session: its mark goes now. */
  revoke(sessionId: string): void;
}

export interface QuietMarksOptions {
  runtimeDir: string;
  hubPid: number;
  clock: Clock;
  ttlMs: number;
  log: Logger;
  /** false where the runtime directory is not a private directory (Windows: pipe names only). */
  enabled: boolean;
}

export class QuietMarks implements QuietPort {
  readonly #dir: string;
  readonly #o: QuietMarksOptions;
  /** Sessions with a mark on disk: an add to an inbox without one costs no system call. */
  readonly #written = new Set<string>();

  constructor(o: QuietMarksOptions) {
    this.#o = o;
    this.#dir = path.join(o.runtimeDir, QUIET_DIR);
  }

  /** Removes every mark (a previous hub's too) and makes the directory (0700). */
  reset(): void {
    this.#written.clear();
    if (!this.#o.enabled) return;
    try {
      fs.rmSync(this.#dir, { recursive: true, force: true });
      fs.mkdirSync(this.#dir, { mode: 0o700 });
    } catch (err) {
      this.#o.log.warn('quiet marks unavailable', { error: String(err) });
    }
  }

  /**
   * The session's inbox has nothing to hand over now: writes its mark, valid
   * ttlMs. Every time (one small write per empty fetch, which with the marks
   * in use is about one a minute per busy session), so a mark removed by
   * anyone else comes back at the next call.
   */
  vouch(sessionId: string): void {
    if (!this.#o.enabled) return;
    const now = this.#o.clock.now();
    const file = quietMarkPath(this.#o.runtimeDir, sessionId);
    if (file === undefined) return;
    try {
      fs.writeFileSync(file, formatQuietMark(this.#o.hubPid, now + this.#o.ttlMs), { mode: 0o600 });
      this.#written.add(sessionId);
    } catch {
      this.revoke(sessionId); // a half-written mark parses as none; make sure
    }
  }

  revoke(sessionId: string): void {
    if (!this.#written.delete(sessionId)) return;
    const file = quietMarkPath(this.#o.runtimeDir, sessionId);
    if (file === undefined) return;
    try {
      fs.unlinkSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        this.#o.log.error('quiet mark not removed (it expires on its own)', { sessionId, error: String(err) });
    }
  }

  /** The hub stops: no mark may outlive it. */
  clear(): void {
    this.#written.clear();
    if (!this.#o.enabled) return;
    try {
      fs.rmSync(this.#dir, { recursive: true, force: true });
    } catch (err) {
      this.#o.log.error('quiet marks not removed (they expire on their own)', { error: String(err) });
    }
  }
}
