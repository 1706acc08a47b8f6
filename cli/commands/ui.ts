// `switchboard held …` and `switchboard subscriptions …`: the user's
// decisions from a terminal. They need the hub's user-interface token
// (printed by `serve`), never a session's: an agent cannot approve its own
// held messages.

import type { HeldView } from '../../core/protocol/methods.js';
import { atMost, CliFailure, parse, table, UsageError, withHub, type Ctx } from '../common.js';
import { readSecret } from '../secrets.js';

export const UI_HELP = `switchboard held [list] | approve ID | deny ID   [--ui-token-file PATH|-]
switchboard held approve|deny --from NAME
  Lists held messages (sender, receiver, why, countdown) or decides one; --from decides
  every message held from the sender named NAME (as \`held\` lists it) and names each.
switchboard subscriptions [list] | cancel ID     [--ui-token-file PATH|-]
  Lists idle-notification subscriptions or cancels one.
switchboard confirmations [list] | allow ID | deny ID   [--ui-token-file PATH|-]
  With isolatePeerMachines, sends to other machines wait here for your Allow.
  These need the user-interface token that \`serve\` prints: SWITCHBOARD_UI_TOKEN, or
  --ui-token-file with a file only you can read (- reads stdin). Never on the command line.`;

const UI_OPTIONS = { 'ui-token-file': { type: 'string' } } as const;

export async function uiToken(values: { 'ui-token-file'?: string | undefined }): Promise<string> {
  const token =
    values['ui-token-file'] !== undefined
      ? await readSecret('--ui-token-file', values['ui-token-file'])
      : process.env.SWITCHBOARD_UI_TOKEN;
  if (!token)
    throw new UsageError(
      'This needs the user-interface token that `switchboard serve` printed: set SWITCHBOARD_UI_TOKEN or pass --ui-token-file PATH (or - for stdin)',
    );
  return token;
}

function left(expiresAt: number | null): string {
  if (expiresAt === null) return 'waiting for a UI';
  const s = Math.max(0, Math.round((expiresAt - Date.now()) / 1000));
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s left`;
}

function oneLine(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
}

function renderHeld(items: HeldView[]): string {
  if (items.length === 0) return 'No held messages. Messages the inbound policy holds for your approval appear here.';
  const rows = [['ID', 'FROM', 'TO', 'EXPIRES', 'WHY', 'PREVIEW']];
  for (const h of items) {
    rows.push([
      h.id,
      `${h.sender.name ?? h.sender.address}${h.sender.verified ? '' : ' (unverified)'}`,
      h.receiver.label,
      left(h.expiresAt),
      h.reason,
      oneLine(h.preview),
    ]);
  }
  return table(rows);
}

const HELD_OPTIONS = { ...UI_OPTIONS, from: { type: 'string' } } as const;

/** Decides every message held from the sender named `from`, one by one, and says what happened to each. */
async function decideFrom(sub: 'approve' | 'deny', from: string, token: string, ctx: Ctx): Promise<number> {
  const { items } = await withHub((c) => c.call('held.list', { uiToken: token }));
  const chosen = items.filter((h) => h.sender.name === from);
  if (chosen.length === 0)
    throw new CliFailure(
      'held_not_found',
      `No message is held from ${JSON.stringify(from)}` +
        (items.length === 0 ? '; nothing is held.' : `; held from: ${[...new Set(items.map(senderLabel))].join(', ')}`),
    );
  // One request for all of them (at most 100 at a time); one decided meanwhile elsewhere is `gone`, not an error.
  const results: Array<{ id: string; status: 'queued' | 'dropped' | 'denied' | 'gone' }> = [];
  for (let i = 0; i < chosen.length; i += 100) {
    const ids = chosen.slice(i, i + 100).map((h) => h.id);
    results.push(
      ...(await withHub((c) => c.call('held.decide', { uiToken: token, ids, approve: sub === 'approve' }))).results,
    );
  }
  if (!ctx.json)
    for (const [k, h] of chosen.entries()) {
      const status = results[k]?.status;
      const what =
        status === 'gone'
          ? 'already decided or expired'
          : status === 'dropped'
            ? 'approved, but dropped (not queued; its sender was told)'
            : sub === 'approve'
              ? 'approved'
              : 'denied';
      ctx.out(`${what} ${senderLabel(h)} → ${h.receiver.label}: ${oneLine(h.preview)}`);
    }
  if (ctx.json) ctx.out(JSON.stringify({ decided: results }));
  return 0;
}

function senderLabel(h: HeldView): string {
  return h.sender.name ?? h.sender.address;
}

export async function held(args: string[], ctx: Ctx): Promise<number> {
  const { values, positionals } = parse(args, HELD_OPTIONS, true, 'held');
  atMost(positionals, 2, 'switchboard held [list] | approve ID | deny ID');
  const [sub = 'list', id] = positionals;
  if (values.from !== undefined && (id !== undefined || (sub !== 'approve' && sub !== 'deny')))
    throw new UsageError(
      '--from goes with `held approve` or `held deny` and no ID: switchboard held approve --from NAME',
    );
  const token = await uiToken(values);
  if (values.from !== undefined) return decideFrom(sub as 'approve' | 'deny', values.from, token, ctx);
  switch (sub) {
    case 'list': {
      atMost(positionals, 1, 'switchboard held [list]');
      const r = await withHub((c) => c.call('held.list', { uiToken: token }));
      ctx.out(ctx.json ? JSON.stringify(r) : renderHeld(r.items));
      return 0;
    }
    case 'approve':
    case 'deny': {
      if (id === undefined) throw new UsageError(`usage: switchboard held ${sub} ID, or ${sub} --from NAME`);
      const r = await withHub((c) => c.call(sub === 'approve' ? 'held.approve' : 'held.deny', { uiToken: token, id }));
      ctx.out(ctx.json ? JSON.stringify(r) : sub === 'approve' ? `approved: ${r.status}` : 'denied');
      return 0;
    }
    default:
      throw new UsageError(`unknown held command ${JSON.stringify(sub)}; use list, approve ID or deny ID`);
  }
}

export async function subscriptions(args: string[], ctx: Ctx): Promise<number> {
  const { values, positionals } = parse(args, UI_OPTIONS, true, 'subscriptions');
  atMost(positionals, 2, 'switchboard subscriptions [list] | cancel ID');
  const [sub = 'list', id] = positionals;
  const token = await uiToken(values);
  if (sub === 'list') {
    atMost(positionals, 1, 'switchboard subscriptions [list]');
    const r = await withHub((c) => c.call('subscriptions.list', { uiToken: token }));
    if (ctx.json) ctx.out(JSON.stringify(r));
    else if (r.items.length === 0) ctx.out('No idle subscriptions.');
    else
      ctx.out(
        table([
          ['ID', 'SUBSCRIBER', 'TARGET', 'EXPIRES'],
          ...r.items.map((s) => [s.id, s.subscriber.name ?? s.subscriber.sessionId, s.target.label, left(s.expiresAt)]),
        ]),
      );
    return 0;
  }
  if (sub === 'cancel') {
    if (id === undefined) throw new UsageError('usage: switchboard subscriptions cancel ID');
    const r = await withHub((c) => c.call('subscriptions.cancel', { uiToken: token, id }));
    ctx.out(ctx.json ? JSON.stringify(r) : r.cancelled ? 'cancelled' : 'no such subscription');
    return r.cancelled ? 0 : 1;
  }
  throw new UsageError(`unknown subscriptions command ${JSON.stringify(sub)}; use list or cancel ID`);
}

/** The relay's state in words: connected or not, and whether mail for a machine that is away is stored. */
function relayLine(relay: { connected: boolean; machine: string | null; mode: 'store' | 'direct' | null }): string {
  const mode =
    relay.mode === 'store'
      ? '; store mode: mail for a machine that is away is kept until it is back (JetStream)'
      : relay.mode === 'direct'
        ? '; direct mode: a machine that is away cannot be reached (the broker has no JetStream)'
        : '';
  return `Relay: ${relay.connected ? 'connected' : 'not connected'} as ${relay.machine ?? '?'}${mode}.`;
}

export async function confirmations(args: string[], ctx: Ctx): Promise<number> {
  const { values, positionals } = parse(args, UI_OPTIONS, true, 'confirmations');
  atMost(positionals, 2, 'switchboard confirmations [list] | allow ID | deny ID');
  const [sub = 'list', id] = positionals;
  const token = await uiToken(values);
  if (sub === 'list') {
    atMost(positionals, 1, 'switchboard confirmations [list]');
    const r = await withHub((c) => c.call('confirmations.list', { uiToken: token }));
    if (ctx.json) ctx.out(JSON.stringify(r));
    else if (r.items.length === 0)
      ctx.out(
        'No sends wait for your confirmation. With isolatePeerMachines on, every send to another machine waits here for your Allow.',
      );
    else
      ctx.out(
        table([
          ['ID', 'FROM', 'TO', 'EXPIRES', 'PREVIEW'],
          ...r.items.map((c) => [
            c.id,
            c.sender.name,
            `${c.target.session} (${c.target.machine})`,
            c.expiresAt === null ? 'no expiry' : left(c.expiresAt),
            oneLine(c.preview),
          ]),
        ]),
      );
    if (!ctx.json && r.relay.configured) ctx.out(relayLine(r.relay));
    return 0;
  }
  if (sub === 'allow' || sub === 'deny') {
    if (id === undefined) throw new UsageError(`usage: switchboard confirmations ${sub} ID`);
    const r = await withHub((c) =>
      c.call(sub === 'allow' ? 'confirmations.allow' : 'confirmations.deny', { uiToken: token, id }),
    );
    ctx.out(
      ctx.json
        ? JSON.stringify(r)
        : sub === 'allow'
          ? 'allowed: the send goes on'
          : 'denied: the sender gets confirm-denied',
    );
    return 0;
  }
  throw new UsageError(`unknown confirmations command ${JSON.stringify(sub)}; use list, allow ID or deny ID`);
}
