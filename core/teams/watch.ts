// Notices changes under Claude Code's teams and tasks roots (ours or Claude
// Code's own writes) and reports them, debounced. A root that does not exist
// yet is picked up by `refresh()` (the hub's sweep) once it appears. Never
// throws: a watcher that fails is dropped and retried on the next refresh.

import fs from 'node:fs';

const DEBOUNCE_MS = 100; // one event for a burst of file writes

export class RootWatcher {
  readonly #roots: readonly string[];
  readonly #onChange: () => void;
  readonly #watchers = new Map<string, fs.FSWatcher>();
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
      if (this.#watchers.has(root) || !fs.existsSync(root)) continue;
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
  }
}
