// Resolution of a send's `to` (docs/design.md#5-sessions-names-and-addresses), in order: reserved names are
// refused; addresses are used directly; a Claude Desktop session id (a
// Desktop frame's `from`) is the listed session Desktop runs under that id,
// else not found; `name [ref]` selects that row; an
// exact normalized name matching one row; a unique prefix of ≥ 3 characters.
// Anything else is an error naming what was typed (`to`) and up to 3
// candidates: the rows it matched, or (nothing matched) the closest names; a
// shorter prefix of some names is `to_too_short`. It never guesses.

import { HubError } from '../protocol/errors.js';
import { DESKTOP_SESSION_ID } from '../protocol/desktop-wire.js';
import { closestRows } from './closest.js';
import { label, normalizeName, parseLabel, RESERVED_NAMES } from './names.js';

export interface Row {
  name: string;
  nameNorm: string;
  ref: string;
  refHash: string;
  address: string;
}

/** The rows a `to` is resolved against, with the lookups resolution needs. */
export interface RowIndex<R extends Row> {
  listed(): readonly R[];
  named(nameNorm: string): readonly R[];
  byAddress(address: string): R | undefined;
}

/** An index over a plain array (tests, small listings). */
export function arrayIndex<R extends Row>(rows: readonly R[]): RowIndex<R> {
  return {
    listed: () => rows,
    named: (n) => rows.filter((r) => r.nameNorm === n),
    byAddress: (a) => rows.find((r) => r.address === a),
  };
}

/**
 * Whether a listed row other than the address `selfAddress` holds this name:
 * a rename to it is refused (name_taken), so two live sessions never swap or
 * share a name by renaming.
 */
export function nameHeldByOther(rows: RowIndex<Row>, name: string, selfAddress: string): boolean {
  return rows.named(normalizeName(name)).some((row) => row.address !== selfAddress);
}

export type Resolved<R extends Row> = { kind: 'row'; row: R; byName: boolean } | { kind: 'address'; address: string };

export const PREFIX_MIN = 3;
const CANDIDATES_SHOWN = 3;
/** What of `to` an error repeats: enough to recognize it, never a whole pasted message. */
const TO_SHOWN = 200;

/** An error's data: what was typed and up to 3 `name [ref]` candidates. */
function candidates(to: string, rows: readonly Row[]): { to: string; candidates: string[] } {
  return { to: to.slice(0, TO_SHOWN), candidates: rows.slice(0, CANDIDATES_SHOWN).map((r) => label(r.name, r.ref)) };
}

export function checkTo(to: string): void {
  const trimmed = to.trim();
  if (trimmed === '') throw new HubError('to_empty');
  if (trimmed === '*' || /^(all|everyone|\*|broadcast)$/i.test(trimmed)) throw new HubError('to_broadcast');
  if (trimmed.includes('@')) throw new HubError('to_has_at');
}

export function resolveTo<R extends Row>(to: string, index: RowIndex<R>): Resolved<R> {
  checkTo(to);
  const trimmed = to.trim();
  if (
    trimmed.startsWith('uds:') ||
    trimmed.startsWith('/') ||
    trimmed.startsWith('peer:') ||
    trimmed.startsWith('\\\\')
  ) {
    const byAddress = index.byAddress(trimmed);
    return byAddress ? { kind: 'row', row: byAddress, byName: false } : { kind: 'address', address: trimmed };
  }
  if (DESKTOP_SESSION_ID.test(trimmed)) {
    // Never an address to write to by itself: only the socket of the Claude Code session Desktop runs takes mail.
    const row = index.byAddress(trimmed);
    if (row === undefined) throw new HubError('target_not_found', candidates(trimmed, []));
    return { kind: 'row', row, byName: false };
  }
  const rows = index.listed();
  const labelled = parseLabel(trimmed);
  if (labelled !== undefined) {
    const want = normalizeName(labelled.name);
    const hits = rows.filter((r) => r.refHash.startsWith(labelled.ref) && labelled.ref.length >= r.ref.length);
    const row = hits.length === 1 ? hits[0] : undefined;
    if (row === undefined || (want !== '' && row.nameNorm !== want)) {
      const named = rows.filter((r) => r.nameNorm === want);
      throw new HubError('target_not_found', candidates(trimmed, named.length > 0 ? named : closestRows(want, rows)));
    }
    return { kind: 'row', row, byName: true };
  }
  const want = normalizeName(trimmed);
  if (RESERVED_NAMES.has(want)) throw new HubError('to_reserved');
  const exact = index.named(want);
  if (exact.length === 1) return { kind: 'row', row: exact[0] as R, byName: true };
  if (exact.length > 1) throw new HubError('target_ambiguous', candidates(trimmed, exact));
  const prefixed = rows.filter((r) => r.nameNorm.startsWith(want));
  if (want.length < PREFIX_MIN && prefixed.length > 0)
    throw new HubError('to_too_short', { ...candidates(trimmed, prefixed), minChars: PREFIX_MIN });
  if (prefixed.length === 1) return { kind: 'row', row: prefixed[0] as R, byName: true };
  if (prefixed.length > 1) throw new HubError('target_ambiguous', candidates(trimmed, prefixed));
  throw new HubError('target_not_found', candidates(trimmed, closestRows(want, rows)));
}

/**
 * Pins (docs/design.md#5-sessions-names-and-addresses): after a successful send by name, that name stays
 * bound to that session for the sender. A later send whose name resolves
 * elsewhere is refused until the sender names the new row with its ref.
 */
export class Pins {
  readonly #bySender = new Map<string, Map<string, string>>();

  check(sender: string, to: string, row: Row): void {
    if (parseLabel(to.trim()) !== undefined) return; // an explicit ref confirms
    const pinned = this.#bySender.get(sender)?.get(row.nameNorm);
    if (pinned !== undefined && pinned !== row.address) {
      throw new HubError('pin_mismatch', { to: to.trim().slice(0, TO_SHOWN), candidates: [label(row.name, row.ref)] });
    }
  }

  pin(sender: string, row: Row): void {
    let pins = this.#bySender.get(sender);
    if (pins === undefined) this.#bySender.set(sender, (pins = new Map<string, string>()));
    pins.set(row.nameNorm, row.address);
  }

  forget(sender: string): void {
    this.#bySender.delete(sender);
  }
}
