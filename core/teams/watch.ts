// Notices changes under Claude Code's teams and tasks roots (ours or Claude
// Code's own writes) and reports them, debounced. A root that does not exist
// yet is waited for by watching its nearest existing ancestor (one
// non-recursive watch, no polling): when that folder changes, `refresh()`
// looks again. Never throws: a watcher that fails is dropped and retried on
// the next refresh (the next change, or the hub's long liveness interval).

import fs from 'node:fs';
import path from 'node:path';

const DEBOUNCE_MS = 100; // one event for a burst of file writes

export class RootWatcher {
  readonly #roots: readonly string[];
  readonly #onChange: () => void;
  readonly #watchers = new Map<string, fs.FSWatcher>();
  /** A missing root → the watch on its nearest existing ancestor (and which folder that is). */
  readonly #waiting = new Map<string, { at: string; watcher: fs.FSWatcher }>();
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(roots: readonly string[], onChange: () => void) {
    this.#roots = roots;
    this.#onChange = onChange;
    this.refresh();
  }

  /** Starts watching roots that exist now and are not watched yet. */
  refresh(): void {
    if (this.#closed) return;
    for (const root of this.#roots) {
      if (this.#watchers.has(root)) continue;
      if (!fs.existsSync(root)) {
        this.#wait(root);
        continue;
      }
      this.#stopWaiting(root);
      try {
        const w = fs.watch(root, { recursive: true }, () => this.#changed());
        w.on('error', () => {
          w.close();
          this.#watchers.delete(root);
        });
        this.#watchers.set(root, w);
        this.#changed();
      } catch {
        // unsupported or vanished: try again on the next refresh
      }
    }
  }

  /** Watches the nearest existing ancestor of a missing root: its appearance is a change there. */
  #wait(root: string): void {
    let at = path.dirname(root);
    while (!fs.existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
    if (this.#waiting.get(root)?.at === at) return;
    this.#stopWaiting(root);
    try {
      const watcher = fs.watch(at, { persistent: false }, () => this.refresh());
      watcher.on('error', () => this.#stopWaiting(root));
      this.#waiting.set(root, { at, watcher });
    } catch {
      // unsupported: the next refresh tries again
    }
  }

  #stopWaiting(root: string): void {
    this.#waiting.get(root)?.watcher.close();
    this.#waiting.delete(root);
  }

  /** Whether every root is watched itself (none missing or failed). */
  get complete(): boolean {
    return this.#watchers.size === this.#roots.length;
  }

  #changed(): void {
    if (this.#timer !== undefined || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#onChange();
    }, DEBOUNCE_MS);
    this.#timer.unref();
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    for (const w of this.#watchers.values()) w.close();
    this.#watchers.clear();
    for (const root of [...this.#waiting.keys()]) this.#stopWaiting(root);
  }
}
