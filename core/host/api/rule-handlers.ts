// Rules with lifetimes, made and revoked by the person only: these methods
// take the user-interface token (the dispatcher checks it), never a session
// token, so no agent, MCP tool, hook or peer message can make, widen or
// revoke one. A rule covers two of this machine's sessions: the sender and
// receiver of a held message, or two sessions named by the person.

import { HubError } from '../../protocol/errors.js';
import type { MethodName, RuleView } from '../../protocol/methods.js';
import { ruleLabel, type Rule, type RuleParty } from '../../policy/rules.js';
import { resolveTo } from '../../registry/resolution.js';
import { applyRule } from '../../messaging/rule-admission.js';
import type { SessionRecord } from '../../registry/session.js';
import type { Hub } from '../hub.js';
import type { Handler } from './dispatch.js';

type RuleMethod = 'rules.list' | 'rules.add' | 'rules.revoke';
export type RuleHandlers = { [M in RuleMethod & MethodName]: Handler<M> };

const invalid = (issue: string): HubError => new HubError('invalid_params', { issues: [issue] });

export function viewOf(r: Rule): RuleView {
  return { ...r, label: ruleLabel(r) };
}

export function createRuleHandlers(hub: Hub): RuleHandlers {
  const party = (s: SessionRecord): RuleParty => ({ id: s.id, name: s.name, agent: s.agent, cwd: s.cwd });
  const named = (what: string, to: string): SessionRecord => {
    const r = resolveTo(to, hub.table);
    if (r.kind !== 'row' || r.row.session === undefined)
      throw invalid(`${what} "${to}" is not one of this machine's Switchboard sessions`);
    return r.row.session;
  };
  const ends = (p: { heldId?: string | undefined; from?: string | undefined; to?: string | undefined }) => {
    if (p.heldId === undefined) return [named('from', p.from!), named('to', p.to!)] as const;
    const e = hub.admission.held.get(p.heldId);
    if (e === undefined) throw new HubError('item_not_found');
    const sender = e.env.fromSessionId === null ? undefined : hub.table.live.get(e.env.fromSessionId);
    const receiver = hub.table.live.get(e.receiverId);
    if (sender === undefined || e.env.fromAddress.startsWith('peer:'))
      throw invalid('rules cover senders that are sessions on this machine; decide this one once');
    if (receiver === undefined) throw invalid('its receiver has ended');
    return [sender, receiver] as const;
  };
  return {
    'rules.list': () => ({ rules: hub.rules.list().map(viewOf), problem: hub.ruleProblem }),

    'rules.add': async (p) => {
      const [from, to] = ends(p);
      let rule: Rule;
      try {
        rule = hub.rules.add(p.effect, p.lifetime, party(from), party(to), p.madeWith);
      } catch (err) {
        throw invalid(err instanceof Error ? err.message : String(err));
      }
      const decided = await applyRule(hub, hub.admission, rule);
      hub.events.emit({ type: 'rules.changed' });
      return { rule: viewOf(rule), decided };
    },

    'rules.revoke': (p) => {
      const revoked = hub.rules.revoke(p.id);
      if (revoked) hub.events.emit({ type: 'rules.changed' });
      return { revoked };
    },
  };
}
