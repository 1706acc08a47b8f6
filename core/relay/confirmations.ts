// isolatePeerMachines: a send that would leave this machine waits here
// until the user allows it (then it goes), denies it, or it expires after
// dialogExpiry (the sender then gets `confirm-denied` / `confirm-expired`).
// Bypass sessions wait too. The countdown runs from the moment of parking
// on the monotonic clock; 'never' waits for a decision. Closing the hub
// expires every pending one (nothing leaves unconfirmed).

import { randomUUID } from 'node:crypto';
import type { ConfirmationView } from '../protocol/methods.js';

export type ConfirmDecision = 'allow' | 'deny' | 'expire';

export type { ConfirmationView };

interface Pending {
  view: ConfirmationView;
  resolve: (d: ConfirmDecision) => void;
  timer: NodeJS.Timeout | undefined;
}

const PREVIEW_CHARS = 200;
export const CONFIRMATIONS_CAP = 100; // the oldest pending one expires when more wait

export class Confirmations {
  readonly #pending = new Map<string, Pending>();
  readonly #now: () => number;
  readonly #onChange: () => void;

  constructor(now: () => number, onChange: () => void) {
    this.#now = now;
    this.#onChange = onChange;
  }

  get size(): number {
    return this.#pending.size;
  }

  /** Parks a send; resolves with the user's decision or 'expire'. */
  park(
    args: { senderId: string; senderName: string; machine: string; session: string; text: string },
    expiryMs: number | null,
  ): Promise<ConfirmDecision> {
    if (this.#pending.size >= CONFIRMATIONS_CAP) this.#decide(this.#pending.keys().next().value as string, 'expire');
    const id = randomUUID();
    const now = this.#now();
    const view: ConfirmationView = {
      id,
      sender: { sessionId: args.senderId, name: args.senderName },
      target: { machine: args.machine, session: args.session },
      preview: args.text.slice(0, PREVIEW_CHARS),
      text: args.text,
      createdAt: now,
      expiresAt: expiryMs === null ? null : now + expiryMs,
    };
    return new Promise<ConfirmDecision>((resolve) => {
      const timer = expiryMs === null ? undefined : setTimeout(() => this.#decide(id, 'expire'), expiryMs);
      timer?.unref();
      this.#pending.set(id, { view, resolve, timer });
      this.#onChange();
    });
  }

  list(): ConfirmationView[] {
    return [...this.#pending.values()].map((p) => p.view);
  }

  /** The user's decision; false when there is no such pending item. */
  decide(id: string, decision: 'allow' | 'deny'): boolean {
    return this.#decide(id, decision);
  }

  /** The sender ended: its pending sends never leave. */
  senderGone(senderId: string): void {
    for (const [id, p] of [...this.#pending]) if (p.view.sender.sessionId === senderId) this.#decide(id, 'deny');
  }

  closeAll(): void {
    for (const id of [...this.#pending.keys()]) this.#decide(id, 'expire');
  }

  #decide(id: string, decision: ConfirmDecision): boolean {
    const p = this.#pending.get(id);
    if (p === undefined) return false;
    this.#pending.delete(id);
    if (p.timer) clearTimeout(p.timer);
    p.resolve(decision);
    this.#onChange();
    return true;
  }
}
