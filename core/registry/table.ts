// The hub's sessions: live ones (listed, reachable) and dormant ones (dead,
// kept with their token hash so a resume under the same id finds its inbox).
// It owns names, refs and listing rows; it knows nothing about sockets or
// inboxes. Refs are recomputed only when the set of live addresses changes.

import type { AgentRow } from '../protocol/methods.js';
import { HubError } from '../protocol/errors.js';
import { assignRefs, label, normalizeName } from './names.js';
import type { Row, RowIndex } from './resolve.js';
import { tokenMatches, type PersistedSession, type SessionRecord } from './session.js';

export interface ListedSession extends Row {
  session: SessionRecord;
}

export class SessionTable implements RowIndex<ListedSession> {
  readonly live = new Map<string, SessionRecord>();
  readonly dormant = new Map<string, { session: PersistedSession; diedAt: number }>();
  readonly #byAddress = new Map<string, string>();
  #refs: Map<string, string> | undefined;
  #listed: ListedSession[] | undefined;
  #byName: Map<string, ListedSession[]> | undefined;

  get size(): number {
    return this.live.size;
  }

  add(s: SessionRecord): void {
    this.dormant.delete(s.id);
    this.live.set(s.id, s);
    this.#byAddress.set(s.address, s.id);
    this.#changed(true);
  }

  /** Call after any change of the live set or a name; refs only when addresses change. */
  #changed(addresses: boolean): void {
    if (addresses) this.#refs = undefined;
    this.#listed = undefined;
    this.#byName = undefined;
  }

  rename(s: SessionRecord, name: string): void {
    s.name = name;
    s.nameNorm = normalizeName(name);
    this.#changed(false);
  }

  /** Moves a live session to the dormant set; returns it, or undefined. */
  retire(id: string, now: number): SessionRecord | undefined {
    const s = this.live.get(id);
    if (s === undefined) return undefined;
    this.live.delete(id);
    this.#byAddress.delete(s.address);
    this.dormant.set(id, { session: s, diedAt: now });
    this.#changed(true);
    return s;
  }

  byAddress(address: string): ListedSession | undefined {
    const id = this.#byAddress.get(address);
    return id === undefined ? undefined : this.listed().find((r) => r.session.id === id);
  }

  /** The live session these credentials belong to, or an `unauthorized` error. */
  auth(sessionId: string, token: string): SessionRecord {
    const s = this.live.get(sessionId);
    if (s === undefined || !tokenMatches(token, s)) throw new HubError('unauthorized');
    return s;
  }

  /** A live or dormant session these credentials belong to (for resume). */
  authAny(sessionId: string, token: string): PersistedSession {
    const s = this.live.get(sessionId) ?? this.dormant.get(sessionId)?.session;
    if (s === undefined || !tokenMatches(token, s)) throw new HubError('unauthorized');
    return s;
  }

  nameTaken(nameNorm: string): boolean {
    for (const s of this.live.values()) if (s.nameNorm === nameNorm) return true;
    return false;
  }

  refOf(id: string): string {
    return this.#refMap().get(id) ?? '';
  }

  #refMap(): Map<string, string> {
    if (this.#refs === undefined) {
      const all = [...this.live.values()];
      const refs = assignRefs(all.map((s) => s.refHash));
      this.#refs = new Map(all.map((s, i) => [s.id, refs[i] as string]));
    }
    return this.#refs;
  }

  /** Rows for resolution: every live session, with its current ref. Cached until the set changes. */
  listed(): readonly ListedSession[] {
    if (this.#listed === undefined) {
      const refs = this.#refMap();
      this.#listed = [...this.live.values()].map((s) => ({
        name: s.name, nameNorm: s.nameNorm, ref: refs.get(s.id) ?? '', refHash: s.refHash, address: s.address, session: s,
      }));
    }
    return this.#listed;
  }

  /** Rows whose normalized name is exactly `nameNorm`. */
  named(nameNorm: string): readonly ListedSession[] {
    if (this.#byName === undefined) {
      this.#byName = new Map();
      for (const row of this.listed()) {
        const list = this.#byName.get(row.nameNorm);
        if (list === undefined) this.#byName.set(row.nameNorm, [row]);
        else list.push(row);
      }
    }
    return this.#byName.get(nameNorm) ?? [];
  }

  agentRows(selfId: string | undefined, extra: (s: SessionRecord) => Pick<AgentRow, 'canReceive' | 'inboxDepth' | 'inbound'>): AgentRow[] {
    return this.listed().map(({ session: s, ref }) => ({
      name: s.name,
      ref,
      label: label(s.name, ref),
      address: s.address,
      machine: null,
      cwd: s.cwd,
      agent: s.agent,
      kind: 'switchboard',
      state: s.state,
      stateSince: s.stateSince,
      ...extra(s),
      self: s.id === selfId,
    }));
  }
}
