// Which unread items one MCP tool result carries. Agents cut long tool
// results too (Codex keeps head and tail of an output over 10 000 bytes), so
// a result carries only what fits whole within the agent's tool-result
// budget: whole items in order, and an item too long for any one result in
// consecutive parts, one per result. Only items shown completely are
// acknowledged (so only those are reported `delivered`); a note says what
// is still waiting. One pager per MCP server process (it remembers parts).

import type { InboxItem } from '../../core/protocol/methods.js';
import { frameHeader } from './framing.js';
import type { AgentKind } from './identity.js';

/**
 * UTF-8 bytes of inbox text one tool result may carry, per agent. Codex:
 * tool outputs over 10 000 bytes (or 10 000 tokens, by model) are cut to
 * head and tail (`TruncationPolicy`, codex-rs; seen with a 32 KB message in
 * the real-agent suite). Claude Code: MCP results up to 25 000 tokens
 * (MAX_MCP_OUTPUT_TOKENS); 32 KB proven whole by the suite. Gemini CLI: none
 * documented. Others: unknown, so Codex's.
 */
export const TOOL_TEXT_BUDGET: Record<AgentKind, number> = {
  claude: 40 * 1024,
  codex: 9000,
  gemini: 64 * 1024,
  opencode: 9000,
  qwen: 9000,
  other: 9000,
};

export interface Page {
  /** The text to append to the tool result, or undefined when nothing is unread. */
  text: string | undefined;
  /** Items now shown completely: the only ones to acknowledge. */
  done: string[];
}

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');
const NOTE_ROOM = 400;

/** The longest prefix of `s` within `max` UTF-8 bytes, never splitting a character. */
function prefixWithin(s: string, max: number): string {
  const b = Buffer.from(s, 'utf8');
  if (b.length <= max) return s;
  let end = max;
  while (end > 0 && (b[end]! & 0xc0) === 0x80) end--; // back to a character boundary
  return b.subarray(0, end).toString('utf8');
}

export class InboxPager {
  /** Of a long item being shown in parts, by item id: characters shown so far and parts given. */
  readonly #shown = new Map<string, { at: number; parts: number }>();

  constructor(private readonly budget: number) {}

  page(items: readonly InboxItem[], toolText: string): Page {
    if (items.length === 0) return { text: undefined, done: [] };
    let room = this.budget - bytes(toolText) - NOTE_ROOM;
    const whole: InboxItem[] = [];
    for (const item of items) {
      if (this.#shown.has(item.id)) break; // a long item in parts goes alone
      const cost = bytes(item.text) + 2;
      if (cost > room - bytes(frameHeader(whole.length + 1))) break;
      whole.push(item);
      room -= cost;
    }
    if (whole.length > 0) {
      const rest = items.length - whole.length;
      const parts = [frameHeader(whole.length), ...whole.map((i) => i.text)];
      if (rest > 0)
        parts.push(
          `[Switchboard] ${rest} more item(s) from other sessions are waiting: call switchboard_check_inbox to read them.`,
        );
      return { text: parts.join('\n\n'), done: whole.map((i) => i.id) };
    }
    return this.#part(items[0]!, room - bytes(frameHeader(1)), items.length - 1);
  }

  /** The next part of an item too long for one result. */
  #part(item: InboxItem, room: number, others: number): Page {
    const so = this.#shown.get(item.id) ?? { at: 0, parts: 0 };
    const from = so.at;
    const k = so.parts + 1;
    const piece = prefixWithin(item.text.slice(from), Math.max(room, 1024));
    const to = from + piece.length;
    const last = to >= item.text.length;
    const head = last
      ? `[Switchboard] Last part (${k}) of a long item from another session (characters ${from + 1}–${to} of ${item.text.length}); it is now shown in full.`
      : `[Switchboard] Part ${k} of a long item from another session (characters ${from + 1}–${to} of ${item.text.length}); the rest follows: call switchboard_check_inbox again to read it. It stays unread until all of it has been shown.`;
    const tail =
      others > 0
        ? [
            `[Switchboard] ${others} more item(s) from other sessions are waiting: call switchboard_check_inbox to read them.`,
          ]
        : [];
    if (last) this.#shown.delete(item.id);
    else this.#shown.set(item.id, { at: to, parts: k });
    return { text: [frameHeader(1), head, piece, ...tail].join('\n\n'), done: last ? [item.id] : [] };
  }
}
