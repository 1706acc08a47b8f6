// The person's standing decisions for held messages, with lifetimes (as a
// firewall decides at the alert): allow or block one sender → one receiver
// for an hour, until either session ends, or always. Block wins over allow.
// Keys (docs/decisions.md, "D-047: Rules with lifetimes"): an hour or a session
// lifetime pins the two sessions by id, which no other session can take;
// "always" outlives sessions, so it names the sender's and receiver's agent
// kind and project directory on this machine — never a name, which any new
// session may choose. Rules are made only through user-interface methods
// (the hub checks the UI token); nothing here is reachable otherwise.
// Pure but for the clock; the "always" ones persist through `store`.

import { randomUUID } from 'node:crypto';
import type { AgentKind } from '../registry/session.js';

export const RULE_EFFECTS = ['allow', 'block'] as const;
export const RULE_LIFETIMES = ['hour', 'sessions', 'always'] as const;
export type RuleEffect = (typeof RULE_EFFECTS)[number];
export type RuleLifetime = (typeof RULE_LIFETIMES)[number];
export const HOUR_MS = 3_600_000;

/** One side of a rule: a pinned session (id), or for "always" an agent kind in a project directory. */
export interface RuleEnd {
  /** Shown to the person: the session's name when the rule was made. */
  name: string;
  sessionId: string | null;
  agent: AgentKind;
  cwd: string;
}

export interface Rule {
  id: string;
  effect: RuleEffect;
  lifetime: RuleLifetime;
  from: RuleEnd;
  to: RuleEnd;
  /** How the person made it: the web UI, the desktop app or `switchboard rules`. */
  madeWith: string;
  createdAt: number;
  /** Wall-clock end of an hour rule; null otherwise. */
  expiresAt: number | null;
  decided: number;
  lastDecidedAt: number | null;
}

/** A session as rules see it: this machine's, verified. */
export interface RuleParty {
  id: string;
  name: string;
  agent: AgentKind;
  cwd: string;
}

const LIFETIME_TEXT: Record<RuleLifetime, string> = {
  hour: '1 h',
  sessions: 'until either session ends',
  always: 'always',
};

/** `web → api, 1 h`: how History, receipts and the lists name a rule. */
export function ruleLabel(r: Pick<Rule, 'from' | 'to' | 'lifetime'>): string {
  return `${r.from.name} → ${r.to.name}, ${LIFETIME_TEXT[r.lifetime]}`;
}

const endOf = (p: RuleParty, lifetime: RuleLifetime): RuleEnd => ({
  name: p.name,
  sessionId: lifetime === 'always' ? null : p.id,
  agent: p.agent,
  cwd: p.cwd,
});

function covers(end: RuleEnd, p: RuleParty): boolean {
  return end.sessionId !== null ? end.sessionId === p.id : end.agent === p.agent && end.cwd === p.cwd;
}

export class RuleBook {
  readonly #rules = new Map<string, Rule>();
  readonly #now: () => number;
  readonly #persist: (always: Rule[]) => void;

  constructor(opts: { now: () => number; restored?: Rule[]; persist?: (always: Rule[]) => void }) {
    this.#now = opts.now;
    this.#persist = opts.persist ?? (() => undefined);
    for (const r of opts.restored ?? []) if (r.lifetime === 'always') this.#rules.set(r.id, r);
  }

  add(effect: RuleEffect, lifetime: RuleLifetime, from: RuleParty, to: RuleParty, madeWith: string): Rule {
    const now = this.#now();
    const rule: Rule = {
      id: randomUUID(),
      effect,
      lifetime,
      from: endOf(from, lifetime),
      to: endOf(to, lifetime),
      madeWith,
      createdAt: now,
      expiresAt: lifetime === 'hour' ? now + HOUR_MS : null,
      decided: 0,
      lastDecidedAt: null,
    };
    this.#rules.set(rule.id, rule);
    if (lifetime === 'always')
      try {
        this.#save();
      } catch (err) {
        this.#rules.delete(rule.id); // not kept: it would be gone after a restart
        throw err;
      }
    return rule;
  }

  revoke(id: string): boolean {
    const r = this.#rules.get(id);
    if (r === undefined) return false;
    this.#rules.delete(id);
    if (r.lifetime === 'always') this.#save();
    return true;
  }

  /** Every rule in force, oldest first (hour rules past their end are gone). */
  list(): Rule[] {
    this.#expire();
    return [...this.#rules.values()];
  }

  /** The rule that decides a message from `from` to `to`: a block before any allow; undefined when none. */
  match(from: RuleParty, to: RuleParty): Rule | undefined {
    const hits = this.list().filter((r) => covers(r.from, from) && covers(r.to, to));
    return hits.find((r) => r.effect === 'block') ?? hits[0];
  }

  /** Counts a decision the rule made (shown in Preferences). */
  decided(rule: Rule, count = 1): void {
    rule.decided += count;
    rule.lastDecidedAt = this.#now();
    if (rule.lifetime !== 'always') return;
    try {
      this.#save();
    } catch {
      // the counts are for the person's overview; the rule itself is on disk already
    }
  }

  /** A session ended for good: the rules that lived as long as it go. */
  sessionEnded(sessionId: string): void {
    for (const [id, r] of this.#rules)
      if (r.lifetime === 'sessions' && (r.from.sessionId === sessionId || r.to.sessionId === sessionId))
        this.#rules.delete(id);
  }

  #expire(): void {
    const now = this.#now();
    for (const [id, r] of this.#rules) if (r.expiresAt !== null && r.expiresAt <= now) this.#rules.delete(id);
  }

  #save(): void {
    this.#persist([...this.#rules.values()].filter((r) => r.lifetime === 'always'));
  }
}
