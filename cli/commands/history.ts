// `switchboard history`: search the hub's message history from a terminal or
// a script. With the user-interface token it sees every session; with a
// session's credentials only that session's own messages (the hub enforces
// the scope). It reads only; deleting is the UI token's `history.delete`.

import { OUTCOMES } from '../../core/protocol/history.js';
import type { HistoryMessage } from '../../core/protocol/history.js';
import type { MethodInput } from '../../core/protocol/methods.js';
import {
  intArg,
  oneOf,
  optionalCredentials,
  parse,
  SESSION_OPTIONS,
  UsageError,
  withHub,
  type Ctx,
} from '../common.js';
import { readSecret } from '../secrets.js';

export const HISTORY_HELP = `switchboard history [--with NAME] [--search TEXT] [--since WHEN] [--until WHEN]
                    [--outcome O] [--limit N] [--ui-token-file PATH|- | --session ID [--token-file PATH|-]]
  Messages from the history store (oldest first), with their outcome.
  WHEN: an ISO date or time, or an age such as 30m, 2h, 7d. O: queued, delivered,
  held, approved, denied, expired, refused, dropped, failed (not stored: a full
  disk), unknown (timed out; a receipt settles it), sent (left this hub),
  confirm-denied, confirm-expired, stored (kept by the relay for a machine that is
  away; a receipt settles it). With the UI token (or
  SWITCHBOARD_UI_TOKEN) every session's messages; with a session only its own.`;

const OPTIONS = {
  ...SESSION_OPTIONS,
  'ui-token-file': { type: 'string' },
  with: { type: 'string' },
  search: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  outcome: { type: 'string' },
  limit: { type: 'string' },
} as const;

const AGE_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** An ISO date/time or an age (`90s`, `30m`, `2h`, `7d`) as wall-clock milliseconds. */
export function parseWhen(name: string, raw: string | undefined, now: number): number | undefined {
  if (raw === undefined) return undefined;
  const age = /^(\d{1,9})([smhd])$/.exec(raw);
  if (age) return Math.max(0, now - Number(age[1]) * AGE_UNITS[age[2]!]!);
  const t = /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(t))
    throw new UsageError(
      `--${name} must be an ISO date such as 2026-12-01 or 2026-12-01T09:30, or an age such as 30m, 2h, 7d`,
    );
  return t;
}

function render(messages: HistoryMessage[]): string {
  if (messages.length === 0) return 'No messages in the history match.';
  return messages
    .map((m) => {
      const when = new Date(m.at).toISOString().replace('T', ' ').slice(0, 19);
      const from = m.sender.name ?? m.sender.address;
      const outcome =
        m.reason !== '' && m.outcome !== 'queued' && m.outcome !== 'delivered'
          ? `${m.outcome}: ${m.reason}`
          : m.outcome;
      const head = m.summary ?? m.text;
      return `${when}  ${from} → ${m.receiver.name}  [${outcome}]  ${head.replace(/\s+/g, ' ').trim().slice(0, 80)}`;
    })
    .join('\n');
}

export async function history(args: string[], ctx: Ctx): Promise<number> {
  const { values, positionals } = parse(args, OPTIONS, true, 'history');
  if (positionals.length > 0) throw new UsageError('history takes no arguments; use --search TEXT');
  const now = Date.now();
  const uiToken =
    values['ui-token-file'] !== undefined
      ? await readSecret('--ui-token-file', values['ui-token-file'])
      : process.env.SWITCHBOARD_UI_TOKEN;
  const creds = uiToken ? undefined : await optionalCredentials(values);
  if (!uiToken && creds === undefined) {
    throw new UsageError(
      'This needs the user-interface token that `switchboard serve` printed (SWITCHBOARD_UI_TOKEN or --ui-token-file PATH), or a session (SWITCHBOARD_SESSION and SWITCHBOARD_TOKEN, or --session with --token-file)',
    );
  }
  const outcome = oneOf('--outcome', values.outcome, OUTCOMES);
  const since = parseWhen('since', values.since, now);
  const until = parseWhen('until', values.until, now);
  const limit = intArg('limit', values.limit, 1, 500);
  if (values.search !== undefined && values.search.length > 1000)
    throw new UsageError('--search is longer than 1000 characters');
  const params: MethodInput<'history.search'> = {
    ...(uiToken ? { uiToken } : creds),
    ...(values.with !== undefined ? { with: values.with } : {}),
    ...(values.search !== undefined ? { text: values.search } : {}),
    ...(outcome !== undefined ? { outcome: [outcome] } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(until !== undefined ? { until } : {}),
    ...(limit !== undefined ? { limit } : {}),
  };
  const r = await withHub((c) => c.call('history.search', params));
  ctx.out(ctx.json ? JSON.stringify(r) : render([...r.messages].reverse()));
  return 0;
}
