// `switchboard agents`, `send` and `inbox`: the user-facing messaging
// commands. `send` exits 1 when nothing was delivered or queued (refused,
// dropped, not confirmed), so scripts can tell.

import { SEND_WAIT_MS, type HubClient } from '../../core/client/client.js';
import type { AgentRow, InboxItem } from '../../core/protocol/methods.js';
import { MODE_SOURCE_WORDS } from '../../core/protocol/vocabulary.js';
import {
  credentials,
  intArg,
  optionalCredentials,
  parse,
  SESSION_OPTIONS,
  table,
  UsageError,
  withHub,
  type Credentials,
  type Ctx,
} from '../common.js';
import { readMessage } from '../message-input.js';

export const MESSAGING_HELP = `switchboard agents
  Lists live sessions: name [ref], where, agent, state, cwd.
switchboard send --to X --summary S (--message M | --message - | --message-file PATH) [--notify-when-idle]
  Sends as the session in SWITCHBOARD_SESSION/SWITCHBOARD_TOKEN (or --session ID --token-file PATH)
  and prints the status. --message - and --message-file - read the message from stdin; up to 256 KiB
  (a shell refuses an argument of about 128 KiB: use stdin or a file for long messages).
  X is a name, a unique start of one (3 characters or more), "name [ref]", or an address (uds:…).
  Exit 1 when refused or dropped.
switchboard inbox [--ack] [--wait SECONDS]
  Prints unread items; --ack marks them delivered; --wait waits for the first one.`;

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  return `${Math.floor(s / 3600)}h`;
}

/** The MODE column: the mode and where it came from ("auto, from its hooks"; "mode unknown, not told yet"). */
function modeText(r: AgentRow): string {
  if (r.mode === null) return '-';
  const source =
    r.modeSource === undefined ? '' : r.modeSource === null ? 'not told yet' : MODE_SOURCE_WORDS[r.modeSource];
  const mode = r.mode === 'unknown' ? 'mode unknown' : r.mode;
  return source === '' ? mode : `${mode}, ${source}`;
}

export async function agents(args: string[], ctx: Ctx): Promise<number> {
  const { values } = parse(args, SESSION_OPTIONS, false, 'agents');
  const creds = await optionalCredentials(values);
  const { rows, scope } = await withHub((c) => c.call('agents.list', creds ?? {}));
  if (ctx.json) {
    ctx.out(JSON.stringify(scope === undefined ? { rows } : { rows, scope }));
    return 0;
  }
  if (rows.length === 0) {
    ctx.out('No live sessions.');
    return 0;
  }
  const now = Date.now();
  const lines = [['NAME [REF]', 'WHERE', 'AGENT', 'KIND', 'MODE', 'STATE', 'INBOX', 'CWD']];
  for (const r of rows) {
    lines.push([
      r.label + (r.self ? ' (you)' : ''),
      r.machine === null
        ? 'this machine'
        : r.awaySince === undefined
          ? r.machine
          : `${r.machine} (away ${ago(now - r.awaySince)})`,
      r.agent + (r.hooks === 'never' ? ' (hooks not running)' : ''),
      r.kind + (r.host !== undefined ? ` (${r.host})` : ''),
      modeText(r),
      `${r.state} ${ago(now - r.stateSince)}`,
      `${r.inboxDepth}${r.canReceive ? '' : ' (closed)'}`,
      r.cwd,
    ]);
  }
  ctx.out(table(lines));
  if (scope?.value === 'project')
    ctx.out(
      `Scope: project ${scope.project ?? ''} (crossSessionScope in ${scope.source} settings): only its sessions are listed and reachable.`,
    );
  return 0;
}

export async function send(args: string[], ctx: Ctx): Promise<number> {
  const { values } = parse(
    args,
    {
      ...SESSION_OPTIONS,
      to: { type: 'string' },
      summary: { type: 'string' },
      message: { type: 'string' },
      'message-file': { type: 'string' },
      'notify-when-idle': { type: 'boolean' },
    },
    false,
    'send',
  );
  if (values.to === undefined) throw new UsageError('send needs --to');
  if (values.message === undefined && values['message-file'] === undefined && values['notify-when-idle'] !== true)
    throw new UsageError(
      'send needs --message TEXT, --message - (stdin) or --message-file PATH (or --notify-when-idle alone)',
    );
  const message = await readMessage(values);
  const creds = await credentials(values);
  const r = await withHub((c) =>
    c.call(
      'message.send',
      {
        ...creds,
        to: values.to as string,
        ...(values.summary !== undefined ? { summary: values.summary } : {}),
        ...(message !== undefined ? { message } : {}),
        ...(values['notify-when-idle'] ? { notify_when_idle: true } : {}),
      },
      { timeoutMs: SEND_WAIT_MS },
    ),
  );
  ctx.out(ctx.json ? JSON.stringify(r) : `${r.status}: ${r.note}`);
  return ['queued', 'held', 'sent', 'subscribed'].includes(r.status) ? 0 : 1;
}

function render(item: InboxItem): string {
  switch (item.kind) {
    case 'message':
      return `— message ${item.id}${item.summary ? ` (${item.summary})` : ''}\n${item.text}`;
    case 'receipt':
      return `— receipt ${item.id}: ${item.text}`;
    case 'notice':
      return `— notice ${item.id}: ${item.text}`;
    default: {
      const never: never = item;
      return never;
    }
  }
}

async function fetchItems(c: HubClient, creds: Credentials, waitMs: number): Promise<InboxItem[]> {
  const r = await c.call('inbox.fetch', { ...creds, limit: 1000, waitMs }, { timeoutMs: waitMs + 10_000 });
  return r.items;
}

export async function inbox(args: string[], ctx: Ctx): Promise<number> {
  const { values } = parse(
    args,
    { ...SESSION_OPTIONS, ack: { type: 'boolean' }, wait: { type: 'string' } },
    false,
    'inbox',
  );
  const waitMs = (intArg('wait', values.wait, 0, 600) ?? 0) * 1000;
  const creds = await credentials(values);
  const items = await withHub(async (c) => {
    const found = await fetchItems(c, creds, waitMs);
    if (values.ack && found.length > 0) await c.call('inbox.ack', { ...creds, ids: found.map((i) => i.id) });
    return found;
  });
  if (ctx.json) ctx.out(JSON.stringify({ items, acked: values.ack === true }));
  else ctx.out(items.length === 0 ? 'Inbox empty.' : items.map(render).join('\n'));
  return 0;
}
