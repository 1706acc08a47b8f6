// The hub's sessions: live ones (listed, reachable) and dormant ones (dead,
// kept with their token hash so a resume under the same id finds its inbox),
// plus the stock Claude Code and Qwen Code sessions discovery found (listed and
// resolvable, never hosted). It owns names, refs and listing rows, with refs
// assigned over ours and theirs together; it knows nothing about sockets or
// inboxes. Refs are recomputed only when the set of addresses changes. One
// agent process is one row: a stock entry of the same process as one of our
// sessions (same pid and start time) is folded into that session's row, and
// its address resolves to that row.

import type { AgentRow } from '../protocol/methods.js';
import { HubError } from '../protocol/errors.js';
import { assignRefs, label, normalizeName, validName } from './names.js';
import type { Row, RowIndex } from './resolution.js';
import { modeClass, tokenMatches, type PersistedSession, type SessionRecord } from './session.js';
import { sameProcessStart } from './proc.js';
import { remoteRow, stockRow, type RemoteSession, type StockSession } from './foreign-rows.js';

export type { RemoteSession, StockSession };

/** A row of ours (hosted), a stock Claude Code session's, or another machine's. */
export type ListedSession = Row &
  (
    | { session: SessionRecord; stock?: undefined; remote?: undefined }
    | { session?: undefined; stock: StockSession; remote?: undefined }
    | { session?: undefined; stock?: undefined; remote: RemoteSession }
  );

/** The name a stock session is listed under: its own, else the one Claude Code would derive. */
export function stockName(s: StockSession): string {
  const own = validName(s.entry.name ?? '');
  return own ?? `${s.qwen !== undefined ? 'qwen' : 'claude'}-${s.entry.pid}`;
}

export class SessionTable implements RowIndex<ListedSession> {
  readonly live = new Map<string, SessionRecord>();
  readonly dormant = new Map<string, { session: PersistedSession; diedAt: number }>();
  readonly #byAddress = new Map<string, string>();
  /** A taken-over session's id → the live session its credentials act as (PersistedSession.aliases). */
  readonly #alias = new Map<string, string>();
  #stock: readonly StockSession[] = [];
  #qwen: readonly StockSession[] = [];
  #remote: readonly RemoteSession[] = [];
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
    for (const a of s.aliases ?? []) this.#alias.set(a, s.id);
    this.#changed(true);
  }

  /** Call after any change of the live set or a name; refs only when addresses change. */
  #changed(addresses: boolean): void {
    if (addresses) this.#refs = undefined;
    this.#listed = undefined;
    this.#byName = undefined;
  }

  /** Replaces the stock sessions (from discovery). */
  setStock(sessions: readonly StockSession[]): void {
    this.#stock = sessions;
    this.#changed(true);
  }

  get stock(): readonly StockSession[] {
    return this.#stock;
  }

  /** Replaces the Qwen Code sessions (from its discovery); listed and resolved like stock Claude Code ones. */
  setQwen(sessions: readonly StockSession[]): void {
    this.#qwen = sessions;
    this.#changed(true);
  }

  /** Other agents' own sessions: Claude Code's, then Qwen Code's. */
  #foreign(): readonly StockSession[] {
    return this.#qwen.length === 0 ? this.#stock : this.#stock.concat(this.#qwen);
  }

  /** Replaces the sessions of other machines (from relay presence). */
  setRemote(sessions: readonly RemoteSession[]): void {
    this.#remote = sessions;
    this.#changed(true);
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
    for (const a of s.aliases ?? []) this.#alias.delete(a);
    this.dormant.set(id, { session: s, diedAt: now });
    this.#changed(true);
    return s;
  }

  /** Whether `address` is one of this hub's own sessions' (live or dormant): only the hub may send as one. */
  hosts(address: string): boolean {
    if (this.#byAddress.has(address)) return true;
    for (const d of this.dormant.values()) if (d.session.address === address) return true;
    return false;
  }

  /** The row of an address; a Claude Desktop session id (`local_…`) is the row of the Claude Code session it runs. */
  byAddress(address: string): ListedSession | undefined {
    if (address.startsWith('local_')) {
      const run = this.#foreign().find((s) => s.entry.hostSessionId === address);
      if (run === undefined) return undefined;
      address = run.address;
    }
    const id = this.#byAddress.get(address) ?? this.#stockOwners().get(address);
    if (id !== undefined) return this.listed().find((r) => r.session?.id === id);
    return this.listed().find((r) => r.session === undefined && r.address === address);
  }

  /** Stock addresses whose process is one of our live sessions' agent process → that session's id. */
  #stockOwners(): Map<string, string> {
    const owners = new Map<string, string>();
    const foreign = this.#foreign();
    if (foreign.length === 0) return owners;
    const byPid = new Map<number, SessionRecord>();
    for (const s of this.live.values()) if (s.pid !== null) byPid.set(s.pid, s);
    for (const st of foreign) {
      const s = byPid.get(st.entry.pid);
      if (s !== undefined && sameProcessStart(s.procStart, st.entry.procStart)) owners.set(st.address, s.id);
    }
    return owners;
  }

  /** The Claude Code registry entry of this session's own agent process (folded into its row), if it has one. */
  stockOf(s: SessionRecord): StockSession | undefined {
    if (s.pid === null) return undefined;
    const owners = this.#stockOwners();
    return this.#stock.find((st) => owners.get(st.address) === s.id);
  }

  /** The live session these credentials belong to, or an `unauthorized` error. */
  auth(sessionId: string, token: string): SessionRecord {
    const s = this.live.get(this.#alias.get(sessionId) ?? sessionId);
    if (s === undefined || !tokenMatches(token, s)) throw new HubError('unauthorized');
    return s;
  }

  /** A live or dormant session these credentials belong to (for resume). */
  authAny(sessionId: string, token: string): PersistedSession {
    const s =
      this.live.get(this.#alias.get(sessionId) ?? sessionId) ??
      this.dormant.get(sessionId)?.session ??
      [...this.dormant.values()].find((d) => d.session.aliases?.includes(sessionId))?.session;
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

  /** Refs keyed by session id (ours) or `stock:<address>` (theirs), assigned over both together. */
  #refMap(): Map<string, string> {
    if (this.#refs === undefined) {
      const keyed: Array<[string, string]> = [...this.live.values()].map((s) => [s.id, s.refHash]);
      const owned = this.#stockOwners();
      for (const s of this.#foreign()) if (!owned.has(s.address)) keyed.push([`stock:${s.address}`, s.refHash]);
      for (const s of this.#remote) keyed.push([`remote:${s.address}`, s.refHash]);
      const refs = assignRefs(keyed.map(([, h]) => h));
      this.#refs = new Map(keyed.map(([k], i) => [k, refs[i] as string]));
    }
    return this.#refs;
  }

  /** Rows for resolution: every live session, with its current ref. Cached until the set changes. */
  listed(): readonly ListedSession[] {
    if (this.#listed === undefined) {
      const refs = this.#refMap();
      const ours: ListedSession[] = [...this.live.values()].map((s) => ({
        name: s.name,
        nameNorm: s.nameNorm,
        ref: refs.get(s.id) ?? '',
        refHash: s.refHash,
        address: s.address,
        session: s,
      }));
      const owned = this.#stockOwners();
      const theirs: ListedSession[] = this.#foreign()
        .filter((s) => !this.#byAddress.has(s.address) && !owned.has(s.address))
        .map((s) => {
          const name = stockName(s);
          return {
            name,
            nameNorm: normalizeName(name),
            ref: refs.get(`stock:${s.address}`) ?? '',
            refHash: s.refHash,
            address: s.address,
            stock: s,
          };
        });
      const remote: ListedSession[] = this.#remote.map((r) => ({
        name: r.session.name,
        nameNorm: normalizeName(r.session.name),
        ref: refs.get(`remote:${r.address}`) ?? '',
        refHash: r.refHash,
        address: r.address,
        remote: r,
      }));
      this.#listed = ours.concat(theirs, remote);
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

  agentRows(
    selfId: string | undefined,
    extra: (s: SessionRecord) => Pick<AgentRow, 'canReceive' | 'inboxDepth' | 'inbound' | 'waiting'>,
  ): AgentRow[] {
    return this.listed().map((row): AgentRow => {
      if (row.stock !== undefined) return stockRow(row.name, row.ref, row.stock);
      if (row.remote !== undefined) return remoteRow(row.ref, row.remote);
      const { session: s, ref } = row;
      return {
        name: s.name,
        ref,
        label: label(s.name, ref),
        address: s.address,
        machine: null,
        cwd: s.cwd,
        agent: s.agent,
        kind: 'switchboard',
        mode: s.modeKnown === false ? 'unknown' : s.permissionMode,
        hooks: s.agent === 'other' ? null : s.hooksSeenAt !== null ? 'reported' : 'never',
        state: s.state,
        stateSince: s.stateSince,
        modeClass: modeClass(s),
        modeSource: s.modeSource ?? (s.modeKnown === false ? null : 'declared'),
        team: s.team,
        ...extra(s),
        self: s.id === selfId,
      };
    });
  }
}
