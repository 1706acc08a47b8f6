// One-shot idle subscriptions (docs/design.md#12-idle-notifications): exactly one notice per
// subscription, when the target next goes idle, exits, or the subscription
// expires (on the monotonic clock). `deliver` decides where a notice goes
// (the agent's inbox, or its user); this module knows nothing about either.
// `changed` runs after every path that adds, fires, expires or removes one,
// so a view of the list never goes stale, whoever made the subscription.

import { randomUUID } from 'node:crypto';

export interface IdleSubscription {
  id: string;
  subscriberId: string;
  targetId: string;
  targetLabel: string;
  createdAt: number;
  expiresAt: number;
}

const PREFIX = '[Cross-session idle notice]';

/** The subscriber id of the user's own subscriptions (made from a user interface). */
export const USER_SUBSCRIBER = '__user__';

export class IdleWatch {
  readonly #byTarget = new Map<string, Map<string, IdleSubscription>>();
  readonly #deliver: (sub: IdleSubscription, text: string) => void;
  readonly #lifetimeMs: () => number;
  readonly #now: () => number;
  readonly #changed: () => void;

  constructor(opts: {
    lifetimeMs: () => number;
    now: () => number;
    deliver: (sub: IdleSubscription, text: string) => void;
    changed?: () => void;
  }) {
    this.#lifetimeMs = opts.lifetimeMs;
    this.#now = opts.now;
    this.#deliver = opts.deliver;
    this.#changed = opts.changed ?? (() => undefined);
  }

  /** Adds (or renews) the subscription of `subscriberId` to `targetId`. */
  subscribe(
    subscriber: { id: string },
    target: { id: string; name: string },
    targetLabel = target.name,
  ): IdleSubscription {
    let subs = this.#byTarget.get(target.id);
    if (subs === undefined) this.#byTarget.set(target.id, (subs = new Map<string, IdleSubscription>()));
    const now = this.#now();
    const sub: IdleSubscription = {
      id: subs.get(subscriber.id)?.id ?? randomUUID(),
      subscriberId: subscriber.id,
      targetId: target.id,
      targetLabel,
      createdAt: now,
      expiresAt: now + this.#lifetimeMs(),
    };
    subs.set(subscriber.id, sub);
    this.#changed();
    return sub;
  }

  list(): IdleSubscription[] {
    return [...this.#byTarget.values()].flatMap((m) => [...m.values()]);
  }

  cancel(id: string): boolean {
    for (const subs of this.#byTarget.values()) {
      for (const [k, sub] of subs) {
        if (sub.id === id) {
          subs.delete(k);
          this.#changed();
          return true;
        }
      }
    }
    return false;
  }

  /** Drops every subscription a session holds (it ended). */
  forgetSubscriber(subscriberId: string): void {
    let removed = false;
    for (const subs of this.#byTarget.values()) removed = subs.delete(subscriberId) || removed;
    if (removed) this.#changed();
  }

  targetIdle(targetId: string): void {
    this.#fire(targetId, (label) => `${PREFIX} ${label} is now idle.`);
  }

  targetExited(targetId: string): void {
    this.#fire(targetId, (label) => `${PREFIX} ${label} has exited.`);
  }

  /** Sends the "expired" notice for every subscription past its lifetime. */
  expire(): void {
    const now = this.#now();
    let expired = false;
    for (const [targetId, subs] of this.#byTarget) {
      for (const [k, sub] of subs) {
        if (sub.expiresAt > now) continue;
        subs.delete(k);
        expired = true;
        this.#notify(
          sub,
          `${PREFIX} Your idle subscription to ${sub.targetLabel} expired before it signalled; it may still be busy or may have ended abruptly.`,
        );
      }
      if (subs.size === 0) this.#byTarget.delete(targetId);
    }
    if (expired) this.#changed();
  }

  #fire(targetId: string, text: (label: string) => string): void {
    const subs = this.#byTarget.get(targetId);
    if (subs === undefined) return;
    this.#byTarget.delete(targetId);
    for (const sub of subs.values()) this.#notify(sub, text(sub.targetLabel));
    if (subs.size > 0) this.#changed();
  }

  #notify(sub: IdleSubscription, text: string): void {
    this.#deliver(sub, text);
  }
}
