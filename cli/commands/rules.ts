// `switchboard rules …`: the person's rules with lifetimes from a terminal —
// list them, allow or block one sender → receiver for an hour, until either
// session ends, or always, and revoke one. Like `held`, these need the
// user-interface token (never a session's): no agent can make a rule.

import type { RuleView } from '../../core/protocol/methods.js';
import { atMost, parse, table, UsageError, withHub, type Ctx } from '../common.js';
import { uiToken } from './ui.js';

export const RULES_HELP = `switchboard rules [list] | allow|block --from NAME --to NAME [--for 1h|session|always] | revoke ID
  Rules for held messages (default --for 1h): allow or block one sender → receiver; block wins
  over allow; a repository that holds still holds. Same token as \`held\`.`;

const FOR = { '1h': 'hour', session: 'sessions', always: 'always' } as const;

function renderRules(rules: RuleView[], problem: string | null): string {
  const lines: string[] = [];
  if (problem !== null) lines.push(`Always-rules are off: ${problem}`);
  if (rules.length === 0) lines.push('No rules: every held message waits for you.');
  else
    lines.push(
      table([
        ['ID', 'EFFECT', 'RULE', 'MADE WITH', 'DECIDED'],
        ...rules.map((r) => [r.id, r.effect, r.label, r.madeWith, String(r.decided)]),
      ]),
    );
  return lines.join('\n');
}

export async function rules(args: string[], ctx: Ctx): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      'ui-token-file': { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      for: { type: 'string' },
    },
    true,
    'rules',
  );
  atMost(positionals, 2, RULES_HELP);
  const [sub = 'list', id] = positionals;
  const token = await uiToken(values);
  switch (sub) {
    case 'list': {
      const r = await withHub((c) => c.call('rules.list', { uiToken: token }));
      ctx.out(ctx.json ? JSON.stringify(r) : renderRules(r.rules, r.problem));
      return 0;
    }
    case 'allow':
    case 'block': {
      if (values.from === undefined || values.to === undefined)
        throw new UsageError(`usage: switchboard rules ${sub} --from NAME --to NAME [--for 1h|session|always]`);
      const span = values.for ?? '1h';
      if (!(span in FOR)) throw new UsageError('--for takes 1h, session or always');
      const r = await withHub((c) =>
        c.call('rules.add', {
          uiToken: token,
          effect: sub,
          lifetime: FOR[span as keyof typeof FOR],
          from: values.from!,
          to: values.to!,
          madeWith: 'switchboard rules',
        }),
      );
      ctx.out(
        ctx.json
          ? JSON.stringify(r)
          : `${sub === 'allow' ? 'allowed' : 'blocked'}: ${r.rule.label} (id ${r.rule.id}); it decided ${r.decided.length} held message(s)`,
      );
      return 0;
    }
    case 'revoke': {
      if (id === undefined) throw new UsageError('usage: switchboard rules revoke ID');
      const r = await withHub((c) => c.call('rules.revoke', { uiToken: token, id }));
      ctx.out(ctx.json ? JSON.stringify(r) : r.revoked ? 'revoked' : 'no such rule');
      return r.revoked ? 0 : 1;
    }
    default:
      throw new UsageError(`unknown rules command ${JSON.stringify(sub)}; use list, allow, block or revoke ID`);
  }
}
