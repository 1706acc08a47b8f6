// Which unread items one hook output can carry whole. Items are taken in
// order while the whole text stays within the agent's budget; the first that
// does not fit and everything after it stay unread (never acknowledged, so
// never reported `delivered`), and a note tells the model to read them
// through the Switchboard inbox tool, whose result carries them whole.

import type { InboxItem } from '../../core/protocol/methods.js';
import { frameHeader, frameLead, type FrameAt } from './framing.js';

export interface Fitted {
  /** The model-visible text, or undefined when there is nothing to say. */
  text: string | undefined;
  /** The items shown whole: the only ones to acknowledge. */
  shown: InboxItem[];
}

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

function restNote(count: number, size: number, lead: string): string {
  return (
    `[Switchboard] ${lead}${count} more item(s) from other sessions (${Math.ceil(size / 1024)} KiB) are waiting and are too long to show here whole. ` +
    'Call the switchboard_check_inbox tool to read them in full; nothing of them has been shown yet.'
  );
}

export function fitItems(items: readonly InboxItem[], budget: number, at: FrameAt): Fitted {
  if (items.length === 0) return { text: undefined, shown: [] };
  const shown: InboxItem[] = [];
  // Reserve room for the note, sized for the worst case (every item left).
  const noteRoom = bytes(restNote(items.length, Number.MAX_SAFE_INTEGER, frameLead(at))) + 2;
  let used = bytes(frameHeader(items.length, at));
  for (const item of items) {
    const cost = bytes(item.text) + 2;
    const last = shown.length === items.length - 1;
    if (used + cost + (last ? 0 : noteRoom) > budget) break;
    shown.push(item);
    used += cost;
  }
  const rest = items.slice(shown.length);
  const parts = shown.length > 0 ? [frameHeader(shown.length, at), ...shown.map((i) => i.text)] : [];
  if (rest.length > 0)
    parts.push(
      restNote(
        rest.length,
        rest.reduce((n, i) => n + bytes(i.text), 0),
        shown.length > 0 ? '' : frameLead(at),
      ),
    );
  return { text: parts.join('\n\n'), shown };
}
