// The agent's own-history tool: `switchboard_history` calls `history.search`
// with this session's own credentials only, so the hub scopes it to messages
// this session sent or received (it has no parameter for another session and
// the hub refuses one). Renders a bounded text for the tool result; the
// message text is what was delivered, cut to a preview per message.

import { z } from 'zod';
import type { HubCaller } from './hub-link.js';
import { OUTCOMES, type HistoryMessage, type Outcome } from '../../core/protocol/history.js';
import type { MethodInput } from '../../core/protocol/methods.js';
import type { Credentials } from './identity.js';

const PREVIEW_CHARS = 400; // per message: enough to recognise it; the full text is the receiver's to read
const TEXT_BYTES = 6000; // one result stays inside the smallest tool budget (Codex cuts at 10 000 bytes) with room for inbox items
const DEFAULT_ROWS = 20; // newest first; the agent pages with `before`
const MAX_ROWS = 50;
const AGE_UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

export const HISTORY_TOOL = 'switchboard_history';

export const HISTORY_TOOL_DESCRIPTION =
  'Search your own message history through Switchboard: messages this session sent or received, newest first, with where each one ended (queued, delivered, held, approved, denied, expired, refused, dropped). ' +
  "Only your own session's messages are ever returned. `text`: words that must all appear; `with`: the other session's name; `since`: an age such as 30m, 2h, 7d; `before`: the cursor a previous page returned.";

export const HISTORY_TOOL_INPUT = {
  text: z.string().min(1).max(1000).optional().describe('Words to find in the text, summary or names (all must match)'),
  with: z.string().min(1).max(256).optional().describe('Only messages with this session (its name)'),
  outcome: z.enum(OUTCOMES).optional(),
  since: z
    .string()
    .regex(/^\d{1,6}[mhd]$/)
    .optional()
    .describe('An age: 30m, 2h, 7d'),
  before: z.number().int().min(0).optional().describe('The `more:` cursor from a previous result'),
  limit: z.number().int().min(1).max(MAX_ROWS).optional(),
};

type Args = {
  text?: string | undefined;
  with?: string | undefined;
  outcome?: Outcome | undefined;
  since?: string | undefined;
  before?: number | undefined;
  limit?: number | undefined;
};

/** Runs the search as this session (never any other credential) and renders the page. */
export async function historyTool(client: HubCaller, creds: Credentials, a: Args, now: number): Promise<string> {
  const since =
    a.since === undefined ? undefined : Math.max(0, now - Number(a.since.slice(0, -1)) * AGE_UNITS[a.since.slice(-1)]!);
  const params: MethodInput<'history.search'> = {
    sessionId: creds.sessionId,
    token: creds.token,
    limit: a.limit ?? DEFAULT_ROWS,
    ...(a.text !== undefined ? { text: a.text } : {}),
    ...(a.with !== undefined ? { with: a.with } : {}),
    ...(a.outcome !== undefined ? { outcome: [a.outcome] } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(a.before !== undefined ? { before: a.before } : {}),
  };
  const page = await client.call('history.search', params);
  if (page.messages.length === 0) return 'No messages of yours in the history match.';
  const lines: string[] = [];
  let bytes = 0;
  let cursor = page.next;
  for (const m of page.messages) {
    const line = renderOne(m, creds.sessionId);
    bytes += Buffer.byteLength(line, 'utf8') + 2;
    if (bytes > TEXT_BYTES && lines.length > 0) {
      cursor = page.messages[lines.length - 1]!.seq; // older than the last one shown
      break;
    }
    lines.push(line);
  }
  if (cursor !== null) lines.push(`more: pass before=${cursor} for older messages`);
  return lines.join('\n\n');
}

function renderOne(m: HistoryMessage, self: string): string {
  const when = new Date(m.at).toISOString().replace('T', ' ').slice(0, 19);
  const dir = m.sender.sessionId === self ? `you → ${m.receiver.name}` : `${m.sender.name ?? m.sender.address} → you`;
  const outcome =
    m.reason !== '' && m.outcome !== 'queued' && m.outcome !== 'delivered' ? `${m.outcome}: ${m.reason}` : m.outcome;
  const body = m.text.replace(/\s+/g, ' ').trim();
  const preview = body.length > PREVIEW_CHARS ? `${body.slice(0, PREVIEW_CHARS)}…` : body;
  return `${when} UTC  ${dir}  [${outcome}]${m.summary !== null ? `  ${m.summary}` : ''}\n  ${preview}`;
}
