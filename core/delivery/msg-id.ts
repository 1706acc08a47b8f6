// Message ids: random version-4 UUIDs (RFC 9562), the same form as
// crypto.randomUUID(), from the same CSPRNG, written as one flat string.
// Node's randomUUID() joins 20 pieces into a rope of short strings that a
// Map lookup and the journal's JSON.stringify each have to flatten again;
// on the send path that is garbage per message. Pure apart from randomness.

import { randomFillSync } from 'node:crypto';

const POOL_IDS = 128; // random bytes fetched for this many ids at a time
const pool = Buffer.alloc(16 * POOL_IDS);
let next = POOL_IDS; // empty: filled on first use
const out = Buffer.alloc(36);
/** The two ASCII hex digits of every byte value, as char codes. */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0')).map(
  (h) => [h.charCodeAt(0), h.charCodeAt(1)] as const,
);
/** Where each of the 16 bytes goes in `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`. */
const AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
const DASH = 0x2d;
out[8] = out[13] = out[18] = out[23] = DASH;

export function randomId(): string {
  if (next === POOL_IDS) {
    randomFillSync(pool);
    next = 0;
  }
  const base = next++ * 16;
  for (let i = 0; i < 16; i++) {
    let b = pool[base + i] as number;
    if (i === 6)
      b = (b & 0x0f) | 0x40; // version 4
    else if (i === 8) b = (b & 0x3f) | 0x80; // variant 10xx
    const hex = HEX[b] as readonly [number, number];
    const at = AT[i] as number;
    out[at] = hex[0];
    out[at + 1] = hex[1];
  }
  pool.fill(0, base, base + 16); // used randomness does not stay in memory
  return out.toString('latin1', 0, 36);
}
