// Discovers stock Claude Code sessions: watches the registry directory (no
// polling storm: a change event rescans, debounced; the hub's liveness
// sweep rechecks pids so a crashed session with a left-over file vanishes).
// A socket is probed once per (file version, socket) and again every
// REPROBE_MS (a socket that closed while its process lives, or that began
// listening after its file was written), not on every sweep; a
// file is parsed only when it changed (EntryReader), and at most
// FILES_PER_TURN are read per event-loop turn.
// An entry counts only when its socket, links resolved, is a socket this
// user owns and not one of this hub's (its hub socket, session and reply
// sockets: an entry naming hub.sock was listed and written into); two
// entries naming one socket list it once (the newest file). Publishes the
// live set through onChange only when it changed.

import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { udsAddress } from '../protocol/cc-wire.js';
import { refHash } from '../registry/names.js';
import { RootWatcher } from '../teams/watch.js';
import { probeSocket } from '../transport/endpoint.js';
import type { StockSession } from '../registry/table.js';
import type { StockEntry } from '../protocol/cc-sessions.js';
import { EntryReader, isRegistryFileName, PROBE_TIMEOUT_MS, processMatches, SWITCHBOARD_ENTRYPOINT } from './entry.js';
import { drop } from '../kit/drop.js';

const MAX_FILES = 4096; // a registry directory bigger than this is not Claude Code's
/** A socket's probe answer is trusted this long; then it is probed again (a socket closed or opened late). */
export const REPROBE_MS = 10_000;
/** Registry files read per event-loop turn: a directory of large files never stalls the hub's loop. */
const FILES_PER_TURN = 16;

/** One live stock session as the hub lists it. */
export type { StockSession };

export interface DiscoveryOptions {
  sessionsDir: string;
  /** Sockets that belong to this hub (our sessions, our reply sockets): never listed as Claude Code's. */
  isOurs(socketPath: string): boolean;
  onChange(sessions: readonly StockSession[]): void;
  probe?: (socketPath: string) => Promise<boolean>;
  startTimeOf?: (pid: number) => string | undefined;
  /** Monotonic milliseconds (tests). */
  now?: () => number;
  log?: (message: string, fields: Record<string, unknown>) => void;
}

export class StockDiscovery {
  readonly #opts: DiscoveryOptions;
  #watcher: RootWatcher | undefined;
  /** file → the version we probed and whether its socket answered. */
  readonly #probed = new Map<string, { key: string; answered: boolean; at: number }>();
  /** Each registry file's last reading: an unchanged file is not parsed again. */
  readonly #entries = new EntryReader();
  #live: StockSession[] = [];
  #scanning: Promise<void> | undefined;
  #again = false;
  #closed = false;

  constructor(opts: DiscoveryOptions) {
    this.#opts = opts;
  }

  /** Starts watching the registry directory (and scans). */
  start(): void {
    if (this.#closed || this.#watcher !== undefined) return;
    this.#watcher = new RootWatcher([this.#opts.sessionsDir], () => this.#scanSoon());
    this.#scanSoon();
  }

  get sessions(): readonly StockSession[] {
    return this.#live;
  }

  /** Whether the hub's long tick should rescan: a listed session may crash (its file stays), a socket may open late. */
  get wantsRecheck(): boolean {
    if (this.#live.length > 0) return true;
    for (const p of this.#probed.values()) if (!p.answered) return true;
    return false;
  }

  /** A scan nobody waits for (it never rejects: scan() logs its own failure). */
  #scanSoon(): void {
    drop(this.scan(), 'Claude Code registry scan', (m, f) => this.#opts.log?.(m, f));
  }

  /** Rescans now (coalesced: a scan requested during a scan runs once after it). */
  scan(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#scanning !== undefined) {
      this.#again = true;
      return this.#scanning;
    }
    this.#scanning = this.#scanOnce()
      .catch((err: unknown) => {
        this.#opts.log?.('Claude Code registry scan failed', { why: String(err) });
      })
      .finally(() => {
        this.#scanning = undefined;
        if (this.#again) {
          this.#again = false;
          this.#scanSoon();
        }
      });
    return this.#scanning;
  }

  /** The hub's long tick: pick up a directory that appeared, drop dead pids, probe unanswered sockets again. */
  sweep(): Promise<void> {
    if (this.#watcher === undefined) return Promise.resolve();
    this.#watcher.refresh();
    return this.scan();
  }

  close(): void {
    this.#closed = true;
    this.#watcher?.close();
  }

  async #scanOnce(): Promise<void> {
    const dir = this.#opts.sessionsDir;
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter(isRegistryFileName).slice(0, MAX_FILES);
    } catch {
      names = [];
    }
    const files = new Set(names.map((name) => path.join(dir, name)));
    this.#entries.keepOnly(files);
    const candidates: Array<{ file: string; entry: StockEntry; mtimeMs: number; real: string }> = [];
    let read = 0;
    for (const file of files) {
      if (++read % FILES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
      if (this.#closed) return;
      const candidate = this.#candidate(file);
      if (candidate !== undefined) candidates.push(candidate);
    }
    /** One listing per real socket: the newest registry file that names it. */
    const byReal = new Map<string, { mtimeMs: number; session: StockSession }>();
    await Promise.all(
      candidates.map(async ({ file, entry: e, mtimeMs, real }) => {
        if (!(await this.#answers(file, e, mtimeMs))) return;
        const socketPath = path.resolve(e.messagingSocketPath);
        const session = {
          entry: e,
          socketPath,
          address: udsAddress(socketPath),
          refHash: refHash(socketPath),
          status: e.status,
        };
        const other = byReal.get(real);
        if (
          other === undefined ||
          mtimeMs > other.mtimeMs ||
          (mtimeMs === other.mtimeMs && e.pid < other.session.entry.pid)
        )
          byReal.set(real, { mtimeMs, session });
      }),
    );
    const listed = new Set(candidates.map((c) => c.file));
    for (const file of this.#probed.keys()) if (!listed.has(file)) this.#probed.delete(file);
    const found = [...byReal.values()].map((v) => v.session);
    found.sort((a, b) => a.entry.pid - b.entry.pid);
    if (this.#closed || sameSessions(found, this.#live)) return;
    this.#live = found;
    this.#opts.onChange(found);
  }

  /** The file's entry when it may be a live Claude Code session of this user; a file's problem is logged once. */
  #candidate(file: string): { file: string; entry: StockEntry; mtimeMs: number; real: string } | undefined {
    const { result: r, changed } = this.#entries.read(file);
    if (!r.ok) {
      if (changed) this.#opts.log?.('Claude Code registry file ignored', { file, why: r.why });
      return undefined;
    }
    const e = r.entry;
    if (e.entrypoint === SWITCHBOARD_ENTRYPOINT || this.#opts.isOurs(e.messagingSocketPath)) return undefined;
    if (!processMatches(e, this.#opts.startTimeOf)) return undefined;
    const real = ownSocket(e.messagingSocketPath);
    if (real === undefined || this.#opts.isOurs(real)) {
      if (changed)
        this.#opts.log?.('Claude Code registry file ignored', { file, why: 'its socket is not a socket of this user' });
      return undefined;
    }
    return { file, entry: e, mtimeMs: r.mtimeMs, real };
  }

  /** Whether the entry's socket answered: probed per (file version, socket, start time), and again after REPROBE_MS. */
  async #answers(file: string, e: StockEntry, mtimeMs: number): Promise<boolean> {
    const key = `${mtimeMs}:${e.messagingSocketPath}:${e.procStart ?? ''}`;
    const now = this.#opts.now?.() ?? performance.now();
    let probed = this.#probed.get(file);
    if (probed?.key !== key || now - probed.at >= REPROBE_MS) {
      const probe = this.#opts.probe ?? ((p: string) => probeSocket(p, PROBE_TIMEOUT_MS));
      probed = { key, answered: await probe(e.messagingSocketPath), at: now };
      this.#probed.set(file, probed);
    }
    return probed.answered;
  }
}

/** The socket's real path when it is a socket this user owns; undefined otherwise (missing, a file, another user's). */
function ownSocket(socketPath: string): string | undefined {
  try {
    const real = fs.realpathSync(socketPath);
    const st = fs.statSync(real);
    const uid = process.getuid?.() ?? -1;
    return st.isSocket() && (uid < 0 || st.uid === uid) ? real : undefined;
  } catch {
    return undefined;
  }
}

function sameSessions(a: readonly StockSession[], b: readonly StockSession[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((s, i) => {
    const t = b[i];
    return (
      t !== undefined &&
      s.entry.pid === t.entry.pid &&
      s.socketPath === t.socketPath &&
      s.entry.name === t.entry.name &&
      s.status === t.status &&
      s.entry.sessionId === t.entry.sessionId
    );
  });
}
