// Fire-and-forget, said aloud. A promise nobody awaits goes to drop() with
// what it is: its failure is logged with that name instead of vanishing (a
// bare `void` hid it, and an unhandled rejection would end the process).
// ESLint forbids `void` on a promise in core/ (no-floating-promises with
// ignoreVoid off), so every such place names what it drops.

/** Where a dropped promise's failure is told: a message and its fields. */
export type DropLog = (message: string, fields: Record<string, unknown>) => void;

export function drop(promise: PromiseLike<unknown>, what: string, log: DropLog): void {
  promise.then(undefined, (err: unknown) =>
    log(`${what} failed`, { error: err instanceof Error ? err.message : String(err) }),
  );
}
