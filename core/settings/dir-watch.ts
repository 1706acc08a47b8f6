// Watches the folders settings files live in, so that a change is noticed
// when it happens instead of by a stat poll. Folders are counted by users
// (`add`/`remove`): a folder no session uses is no longer watched. A folder
// that does not exist is watched through its nearest existing ancestor (one
// watch, no polling), and watched itself once it appears. Changes are
// reported once per burst (debounced). A folder that cannot be watched
// (unsupported, out of watches) is reported by `unwatched`: its owner polls
// it at its long interval instead. Never throws.

import fs from 'node:fs';
import path from 'node:path';

const DEBOUNCE_MS = 100; // an editor's write-rename-chmod is one change

function isDir(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** The folder itself when it exists, else its nearest existing ancestor. */
function nearestExisting(dir: string): string {
  let d = path.resolve(dir);
  while (!isDir(d)) {
    const up = path.dirname(d);
    if (up === d) break;
    d = up;
  }
  return d;
}

export class DirWatch {
  readonly #onChange: () => void;
  /** Folders wanted, with their number of users. */
  readonly #wanted = new Map<string, number>();
  /** Watched folder (a wanted one or its nearest existing ancestor) → its watcher. */
  readonly #watchers = new Map<string, fs.FSWatcher>();
  readonly #failed = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(onChange: () => void) {
    this.#onChange = onChange;
  }

  /** Whether some folder could not be watched (then poll). */
  get unwatched(): boolean {
    return this.#failed.size > 0;
  }

  /** How many folders are watched now (tests, benchmarks). */
  get watching(): number {
    return this.#watchers.size;
  }

  add(dir: string): void {
    this.#wanted.set(dir, (this.#wanted.get(dir) ?? 0) + 1);
    if (this.#wanted.get(dir) === 1) this.#sync();
  }

  remove(dir: string): void {
    const n = (this.#wanted.get(dir) ?? 0) - 1;
    if (n > 0) return void this.#wanted.set(dir, n);
    this.#wanted.delete(dir);
    this.#sync();
  }

  /** Watches exactly the targets the wanted folders need now. */
  #sync(): void {
    if (this.#closed) return;
    const targets = new Set<string>();
    for (const dir of this.#wanted.keys()) targets.add(nearestExisting(dir));
    for (const [target, w] of this.#watchers)
      if (!targets.has(target)) {
        w.close();
        this.#watchers.delete(target);
      }
    this.#failed.clear();
    for (const target of targets) {
      if (this.#watchers.has(target)) continue;
      try {
        const w = fs.watch(target, { persistent: false }, () => this.#changed());
        w.on('error', () => {
          w.close();
          this.#watchers.delete(target);
          this.#changed(); // it vanished or broke: look again
        });
        this.#watchers.set(target, w);
      } catch {
        this.#failed.add(target);
      }
    }
  }

  #changed(): void {
    if (this.#timer !== undefined || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#sync(); // a folder that appeared is watched itself now; one that vanished through its ancestor
      this.#onChange();
    }, DEBOUNCE_MS);
    this.#timer.unref();
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    for (const w of this.#watchers.values()) w.close();
    this.#watchers.clear();
  }
}
