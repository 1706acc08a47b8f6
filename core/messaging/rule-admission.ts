// Where the person's rules with lifetimes (policy/rules.ts) meet admission:
// the decision a rule makes for a message as it arrives, and the held
// messages a new rule decides at once. Rules cover only this machine's
// verified senders (never a socket writer or a relay peer). Block wins over
// allow; an allow rule releases a hold only where mode parity or the user's
// own settings made it — a repository (project, local), per-session (flag)
// or managed scope that holds or refuses still does.

import type { Envelope } from '../delivery/envelope.js';
import type { Decision } from '../policy/policy.js';
import { ruleLabel, type Rule, type RuleBook } from '../policy/rules.js';
import type { SessionRecord } from '../registry/session.js';
import type { SessionTable } from '../registry/table.js';
import type { EffectiveSettings } from '../settings/effective.js';
import type { HeldEntry } from '../policy/held.js';

/** What deciding held messages by a rule needs from admission (its public decisions). */
interface HeldDecisions {
  readonly held: { all(): HeldEntry[] };
  approve(id: string, reason: string): Promise<unknown>;
  deny(id: string, reason: string): Promise<void>;
  effective(s: SessionRecord): EffectiveSettings;
}

interface RulePorts {
  readonly table: Pick<SessionTable, 'live'>;
  readonly rules: RuleBook;
}

/** The rule for this sender → receiver, or undefined. */
function ruleFor(hub: RulePorts, env: Envelope, receiver: SessionRecord): Rule | undefined {
  const sender = env.fromSessionId === null ? undefined : hub.table.live.get(env.fromSessionId);
  if (sender === undefined || env.fromAddress.startsWith('peer:')) return undefined;
  return hub.rules.match(sender, receiver);
}

export function rulesMayRelease(inbound: EffectiveSettings['inbound']): boolean {
  return inbound.floor === null && (inbound.source === 'parity' || inbound.source === 'user');
}

/**
 * What a rule decides for an arriving message: refuse (block), deliver (allow over a hold it may release), or
 * undefined when no rule changes the policy's decision. Counts the decision on the rule.
 */
export function ruleDecision(
  hub: RulePorts,
  env: Envelope,
  receiver: SessionRecord,
  decision: Decision,
  inbound: EffectiveSettings['inbound'],
): Decision | undefined {
  const rule = ruleFor(hub, env, receiver);
  if (rule === undefined) return undefined;
  if (rule.effect === 'block' && decision.action !== 'refuse') {
    hub.rules.decided(rule);
    return { action: 'refuse', reason: `blocked by rule "${ruleLabel(rule)}"` };
  }
  if (rule.effect === 'allow' && decision.action === 'hold' && rulesMayRelease(inbound)) {
    hub.rules.decided(rule);
    return { action: 'deliver', reason: `approved by rule "${ruleLabel(rule)}"` };
  }
  return undefined;
}

/** A rule the person just made decides the held messages it covers, at once; answers the ids it decided. */
export async function applyRule(hub: RulePorts, admission: HeldDecisions, rule: Rule): Promise<string[]> {
  const decided: string[] = [];
  for (const e of admission.held.all()) {
    const receiver = hub.table.live.get(e.receiverId);
    if (receiver === undefined || ruleFor(hub, e.env, receiver) !== rule) continue; // a block beats this allow
    if (rule.effect === 'block') await admission.deny(e.id, `denied by rule "${ruleLabel(rule)}"`);
    else if (rulesMayRelease(admission.effective(receiver).inbound))
      await admission.approve(e.id, `approved by rule "${ruleLabel(rule)}"`);
    else continue;
    decided.push(e.id);
  }
  if (decided.length > 0) hub.rules.decided(rule, decided.length);
  return decided;
}
