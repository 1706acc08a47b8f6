// What a scenario reads back from the hub and the scripted model: the
// Switchboard rows and hub sessions of one agent (by its working directory),
// a registered test session's inbox, and the from-address inside a framed
// message — so a script step can reply by copying `from`, as an agent must.

import type { HubClient } from '../../../core/client/client.js';
import type { AgentRow, InboxItem, Registration } from '../../../core/protocol/methods.js';
import type { SessionRecord } from '../../../core/registry/session.js';
import { until } from '../../helpers/hub.js';
import type { World } from './world.js';

export const SWITCHBOARD_TOOLS = [
  'switchboard_list_peers',
  'switchboard_send',
  'switchboard_check_inbox',
  'switchboard_tasks',
] as const;

/** Every listed row (Switchboard's and Claude Code's own) whose cwd is the agent's. */
export async function rowsOf(w: World, cwd: string): Promise<AgentRow[]> {
  return (await w.rows()).filter((r) => r.cwd === cwd);
}

/** The hub's live Switchboard sessions for that cwd (with permission mode and pid). */
export function sessionsOf(w: World, cwd: string): SessionRecord[] {
  return [...w.hub.hub.table.live.values()].filter((s) => s.cwd === cwd);
}

/** Waits for the agent's Switchboard row and returns it. */
export async function switchboardRow(w: World, cwd: string, ms = 20_000): Promise<AgentRow> {
  let row: AgentRow | undefined;
  await until(async () => (row = (await rowsOf(w, cwd)).find((r) => r.kind === 'switchboard')) !== undefined, ms);
  return row!;
}

export async function inbox(c: HubClient, reg: Registration): Promise<InboxItem[]> {
  return (await c.call('inbox.fetch', { sessionId: reg.sessionId, token: reg.token, limit: 50 })).items;
}

export async function waitInbox(
  c: HubClient,
  reg: Registration,
  match: (i: InboxItem) => boolean,
  ms = 20_000,
): Promise<InboxItem> {
  let found: InboxItem | undefined;
  await until(async () => (found = (await inbox(c, reg)).find(match)) !== undefined, ms);
  return found!;
}

/**
 * The `from` address of the last framed cross-session message in a model
 * context. Gemini CLI escapes `<` and `>` in hook additionalContext
 * (`&lt;cross-session-message from="…"&gt;`); a model still reads `from`.
 */
export function lastFrom(context: string): string | undefined {
  const all = [...context.matchAll(/(?:<|&lt;)cross-session-message from="([^"]+)"/g)];
  return all.at(-1)?.[1];
}
