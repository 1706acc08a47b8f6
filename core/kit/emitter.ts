// One typed event emitter: a listener that throws is logged and never breaks
// the emitter or the other listeners. Every subscription returns its disposer.

import type { Logger } from './logger.js';

export class Emitter<E extends { type: string }> {
  readonly #listeners = new Set<(e: E) => void>();
  readonly #log: Logger;

  constructor(log: Logger) {
    this.#log = log;
  }

  on(listener: (e: E) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(e: E): void {
    for (const l of this.#listeners) {
      try {
        l(e);
      } catch (err) {
        this.#log.error('event listener failed', { type: e.type, error: String(err) });
      }
    }
  }
}
