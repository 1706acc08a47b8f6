// Session names and refs (docs/design.md#5-sessions-names-and-addresses): derivation from a cwd, the
// normalization every comparison uses, validation of chosen names, a free
// `name-2`, `name-3` … when a chosen name is held, the sentence that says a
// name was rewritten or taken, and refs lengthened while listed rows
// collide. Pure; randomness and the table are passed in.

import { DESKTOP_SESSION_ID } from '../protocol/desktop-wire.js';
import type { NameChange } from '../protocol/results.js';

import { createHash } from 'node:crypto';
import path from 'node:path';

/** Names no session may hold: they mean something else to senders. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([
  'main',
  'user',
  'self',
  'all',
  'everyone',
  'team-lead',
  '*',
]);

const REF_MIN = 6; // Claude Code's ref length
const REF_MAX = 12; // lengthened one character at a time up to this
const NAME_MAX = 64; // Claude Code's from-name bound

/** Names every step below leaves as they are (most names): checked with one cheap test. */
const ALREADY_NORMAL = /^[a-z0-9._-]*$/;

/** NFKC, control/format characters removed, trimmed, lowercased, whitespace to `-`. */
export function normalizeName(name: string): string {
  if (ALREADY_NORMAL.test(name)) return name;
  return name
    .normalize('NFKC')
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, '-');
}

export function deriveName(cwd: string, randomHex2: string): string {
  let base = path
    .basename(cwd)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '-')
    .slice(0, 40);
  if (base === '' || /^-+$/.test(base)) base = 'agent';
  return `${base}-${randomHex2}`;
}

/** A chosen name, normalized, or undefined when it cannot be a session name. */
export function validName(raw: string): string | undefined {
  const name = normalizeName(raw);
  if (name.length === 0 || name.length > NAME_MAX) return undefined;
  if (name.includes('@') || name.includes('[') || name.includes(']') || name.includes('"')) return undefined;
  if (/^(uds|peer|bridge):/.test(name) || name.startsWith('/') || name.startsWith('\\')) return undefined;
  if (RESERVED_NAMES.has(name)) return undefined;
  if (DESKTOP_SESSION_ID.test(name)) return undefined; // a `to` of that form names a Claude Desktop session
  return name;
}

/**
 * `name` when `held` says no one holds it, else the first free `name-2`,
 * `name-3` … (cut to the 64-character bound), like Claude Code's member names.
 */
export function freeName(name: string, held: (nameNorm: string) => boolean): string {
  if (!held(name)) return name;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = name.slice(0, NAME_MAX - suffix.length) + suffix;
    if (!held(candidate)) return candidate;
  }
}

/**
 * What a session is told when its name is not the one it asked for: the raw
 * name was rewritten (case, spaces, Unicode, control characters), and/or a
 * live session (`holder`, its `name [ref]`) holds it. Undefined when it got
 * exactly what it asked for.
 */
export function nameChange(requested: string, got: string, holder?: string): NameChange | undefined {
  const rewritten = normalizeName(requested);
  const reasons: NameChange['reasons'] = [];
  if (rewritten !== requested) reasons.push('rewritten');
  if (holder !== undefined) reasons.push('taken');
  if (reasons.length === 0) return undefined;
  const parts: string[] = [];
  if (rewritten !== requested)
    parts.push(
      `${JSON.stringify(requested)} was rewritten to ${JSON.stringify(rewritten)} (names are lowercase, without spaces or control characters)`,
    );
  if (holder !== undefined)
    parts.push(
      `${JSON.stringify(rewritten)} is held by the live session ${holder}, so this session is ${JSON.stringify(got)}`,
    );
  else parts.push(`this session is ${JSON.stringify(got)}`);
  return { requested, reasons, note: `The name ${parts.join('; ')}.` };
}

export function refHash(address: string): string {
  return createHash('sha256')
    .update('session:' + address)
    .digest('hex');
}

/**
 * Refs for a set of rows: each hash's first 6 hex characters, lengthened one
 * at a time (to 12) while two rows share a prefix. Sorting makes the longest
 * shared prefix a neighbour's, so this is O(n log n) for big listings.
 */
export function assignRefs(hashes: readonly string[]): string[] {
  const order = hashes.map((h, i) => [h, i] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const out = new Array<string>(hashes.length);
  const common = (a: string | undefined, b: string): number => {
    if (a === undefined || a === b) return 0; // identical hashes are one address
    let n = 0;
    while (n < a.length && a[n] === b[n]) n++;
    return n;
  };
  order.forEach(([h, i], k) => {
    const shared = Math.max(common(order[k - 1]?.[0], h), common(order[k + 1]?.[0], h));
    out[i] = h.slice(0, Math.min(REF_MAX, Math.max(REF_MIN, shared + 1)));
  });
  return out;
}

export function label(name: string, ref: string): string {
  return `${name} [${ref}]`;
}

/** Parses `name [ref]`; undefined when `to` has no trailing ref. */
export function parseLabel(to: string): { name: string; ref: string } | undefined {
  if (!to.includes(']')) return undefined; // no ref: skips the backtracking pattern on every send by name
  const m = /^(.*?)\s*\[([0-9a-fA-F]{4,64})\]\s*$/.exec(to);
  if (m === null) return undefined;
  return { name: m[1] ?? '', ref: (m[2] ?? '').toLowerCase() };
}
