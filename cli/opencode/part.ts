// The text part our OpenCode plugin adds to a prompt in `chat.message` for
// what other sessions sent: a part of its own, marked `synthetic` (not the
// user's words), never written into the user's part. OpenCode 1.18.33
// (session/prompt.ts, read in its bundle) saves every part left in the
// hook's `output.parts` as it is (`updatePart`, which needs an `id`; its
// schema wants `prt…` ids and the message's `sessionID`/`messageID`), lists a
// message's parts ordered by id, sends every text part not `ignored` to the
// model, and its TUI leaves `synthetic` text out of the user's message (and
// out of what revert or fork puts back in the prompt box). Ids are made as
// OpenCode's `Identifier.ascending('part')` makes them: `prt_`, 12 hex
// digits of (ms × 4096 + a counter) cut to 48 bits, 14 base-62 characters;
// ours is one past the largest of the message's parts and the clock, so it
// sorts after the user's text.

import { randomBytes } from 'node:crypto';

const PREFIX = 'prt_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_CHARS = 14;
const TIME_BITS = 0xffff_ffff_ffffn; // 6 bytes, as OpenCode keeps them
const PER_MS = 4096n;

export interface PeerTextPart {
  id: string;
  sessionID: string;
  messageID: string;
  type: 'text';
  text: string;
  synthetic: true;
}

/** The 48-bit time-and-counter value of an OpenCode part id, or undefined for another form. */
function timeOf(id: unknown): bigint | undefined {
  if (typeof id !== 'string' || !id.startsWith(PREFIX)) return undefined;
  const hex = id.slice(PREFIX.length, PREFIX.length + 12);
  return /^[0-9a-f]{12}$/.test(hex) ? BigInt(`0x${hex}`) : undefined;
}

/** An ascending part id that sorts after every id in `after` (and after now). */
export function partIdAfter(after: readonly unknown[], now: number = Date.now()): string {
  let t = (BigInt(now) * PER_MS) & TIME_BITS;
  for (const id of after) {
    const v = timeOf(id);
    if (v !== undefined && v > t) t = v;
  }
  const hex = ((t + 1n) & TIME_BITS).toString(16).padStart(12, '0');
  const bytes = randomBytes(RANDOM_CHARS);
  let tail = '';
  for (const b of bytes) tail += BASE62[b % BASE62.length];
  return PREFIX + hex + tail;
}

/** The part for `text` in the message `user` (the user's own text part) belongs to; undefined without its ids. */
export function peerTextPart(
  user: Record<string, unknown>,
  parts: readonly unknown[],
  text: string,
): PeerTextPart | undefined {
  const { sessionID, messageID } = user;
  if (typeof sessionID !== 'string' || typeof messageID !== 'string' || !messageID.startsWith('msg')) return undefined;
  const ids = parts.map((p) => (p !== null && typeof p === 'object' ? (p as { id?: unknown }).id : undefined));
  return { id: partIdAfter(ids), sessionID, messageID, type: 'text', text, synthetic: true };
}
