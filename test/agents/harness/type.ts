// Typing a line into an agent's terminal as its user would: the text, once
// the pane shows it, then Enter, until what the line causes (the model
// request that carries it, a view on screen) is seen. A TUI may take an Enter
// that follows fast typing as part of a paste (Codex's paste-burst window
// makes it a newline in the composer): then Enter goes again, after a bounded
// wait for that event each time, never after a fixed delay.

import { until } from '../../helpers/hub.js';

/** A tmux pane: its screen and its keyboard. */
export interface Keyboard {
  screen(): string;
  keys(...keys: string[]): void;
}

/** How long one Enter may take to show its effect before it is pressed again (a retry bound, not a delay). */
const ENTER_RETRY_MS = 2000;
const ENTER_TRIES = 4;

/**
 * Types `text`, then presses Enter until `done` holds; throws with the screen when it never does within `ms`.
 * `tries: 1` where a second Enter would act on what the first opened (a view, a menu).
 */
export async function typeLine(
  p: Keyboard,
  text: string,
  done: () => boolean | Promise<boolean>,
  o: { ms?: number; tries?: number } = {},
): Promise<void> {
  const ms = o.ms ?? 30_000;
  const tries = o.tries ?? ENTER_TRIES;
  p.keys('-l', text);
  await until(() => p.screen().includes(text), ms).catch((err: unknown) => {
    throw new Error(`the pane never showed "${text}": ${String(err)}\n${p.screen()}`);
  });
  for (let n = 1; ; n++) {
    p.keys('Enter');
    const last = n >= tries;
    try {
      await until(done, last ? ms : ENTER_RETRY_MS);
      return;
    } catch (err) {
      if (last) throw new Error(`"${text}" typed and Enter pressed ${n} times\n${p.screen()}`, { cause: err });
      const tail = p.screen().trimEnd().split('\n').slice(-8).join('\n');
      console.log(`typeLine: Enter ${n} after "${text}" showed no effect in ${ENTER_RETRY_MS} ms; again:\n${tail}`);
    }
  }
}
