// One scanner for the session registries of stock agents (Claude Code's
// `<claude home>/sessions`, Qwen Code's `$QWEN_HOME/sessions`): watches the
// registry directory (a change event rescans, debounced; the hub's long tick
// rechecks pids, so a crashed session with a left-over file vanishes), reads
// at most MAX_FILES names and FILES_PER_TURN files per event-loop turn, and
// hands each file to its agent's parse function (bounded reads, liveness:
// pid namespace, dead pid, oversize, are the parser's). An entry counts only
// when its socket, links resolved, is a socket this user owns and not one of
// this hub's, and answers a connect probe: once per (file version, socket)
// and again every REPROBE_MS (a socket that closed while its process lives,
// or began listening after its file was written). Two files naming one
// socket list it once (the higher rank). Publishes the live set through
// onChange only when it changed. A file's problem is logged once per
// version; nothing here throws into the hub.

import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { drop } from '../kit/drop.js';
import type { StockSession } from '../registry/table.js';
import { RootWatcher } from '../teams/watch.js';
import { probeSocket } from '../transport/endpoint.js';
import { PROBE_TIMEOUT_MS } from './entry.js';

const MAX_FILES = 4096; // a registry directory bigger than this is not the agent's
/** A socket's probe answer is trusted this long; then it is probed again (a socket closed or opened late). */
export const REPROBE_MS = 10_000;
/** Registry files read per event-loop turn: a directory of large files never stalls the hub's loop. */
const FILES_PER_TURN = 16;

/** A registry file that names a live session of the agent (before the socket checks and the probe). */
export interface ScanCandidate {
  /** The socket as the file names it: checked against ours, resolved, probed. */
  socket: string;
  /** The probe's key: a file whose key changed is probed again at once. */
  probeKey: string;
  /** Of two files naming one real socket the higher rank is listed (element by element; a tie keeps the first). */
  rank: readonly number[];
  session: StockSession;
}

/** One file's reading: a candidate, or why it is skipped (no `why`: skipped without a log line). */
export type ScanParse = { ok: true; candidate: ScanCandidate } | { ok: false; why?: string };

/** What differs between agents: the file names, and the parse function. */
export interface RegistrySource {
  /** Names the log lines ('Claude Code'). */
  readonly label: string;
  isFileName(name: string): boolean;
  /** Reads one file; `changed` is false when it is the version read last time (its problem is logged once). */
  parse(file: string): { parsed: ScanParse; changed: boolean };
  /** Forgets files no longer in the directory. */
  keepOnly(files: ReadonlySet<string>): void;
}

export interface ScannerOptions {
  sessionsDir: string;
  /** Sockets that belong to this hub (our sessions, our reply sockets): never listed as the agent's. */
  isOurs(socketPath: string): boolean;
  onChange(sessions: readonly StockSession[]): void;
  probe?: (socketPath: string) => Promise<boolean>;
  /** Monotonic milliseconds (tests). */
  now?: () => number;
  log?: (message: string, fields: Record<string, unknown>) => void;
}

type Found = ScanCandidate & { file: string; real: string };

export class RegistryScanner {
  readonly #opts: ScannerOptions;
  readonly #source: RegistrySource;
  #watcher: RootWatcher | undefined;
  /** file → the key we probed and whether its socket answered. */
  readonly #probed = new Map<string, { key: string; answered: boolean; at: number }>();
  #live: StockSession[] = [];
  #scanning: Promise<void> | undefined;
  #again = false;
  #closed = false;

  constructor(opts: ScannerOptions, source: RegistrySource) {
    this.#opts = opts;
    this.#source = source;
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
    drop(this.scan(), `${this.#source.label} registry scan`, (m, f) => this.#opts.log?.(m, f));
  }

  /** Rescans now (coalesced: a scan requested during a scan runs once after it). Never rejects. */
  scan(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#scanning !== undefined) {
      this.#again = true;
      return this.#scanning;
    }
    this.#scanning = this.#scanOnce()
      .catch((err: unknown) => {
        this.#opts.log?.(`${this.#source.label} registry scan failed`, { why: String(err) });
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
      names = fs
        .readdirSync(dir)
        .filter((n) => this.#source.isFileName(n))
        .slice(0, MAX_FILES);
    } catch {
      names = [];
    }
    const files = new Set(names.map((name) => path.join(dir, name)));
    this.#source.keepOnly(files);
    const candidates: Found[] = [];
    let read = 0;
    for (const file of files) {
      if (++read % FILES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
      if (this.#closed) return;
      const c = this.#candidate(file);
      if (c !== undefined) candidates.push(c);
    }
    /** One listing per real socket: the highest-ranked file that names it. */
    const byReal = new Map<string, Found>();
    await Promise.all(
      candidates.map(async (c) => {
        if (!(await this.#answers(c))) return;
        const other = byReal.get(c.real);
        if (other === undefined || outranks(c.rank, other.rank)) byReal.set(c.real, c);
      }),
    );
    const listed = new Set(candidates.map((c) => c.file));
    for (const file of this.#probed.keys()) if (!listed.has(file)) this.#probed.delete(file);
    const found = [...byReal.values()].map((c) => c.session).sort((a, b) => a.entry.pid - b.entry.pid);
    if (this.#closed || sameSessions(found, this.#live)) return;
    this.#live = found;
    this.#opts.onChange(found);
  }

  /** The file's candidate when it may be a live session of this user; a file's problem is logged once. */
  #candidate(file: string): Found | undefined {
    const { parsed, changed } = this.#source.parse(file);
    const skip = (why: string | undefined): undefined => {
      if (why !== undefined && changed) this.#opts.log?.(`${this.#source.label} registry file ignored`, { file, why });
      return undefined;
    };
    if (!parsed.ok) return skip(parsed.why);
    const c = parsed.candidate;
    if (this.#opts.isOurs(c.socket)) return undefined;
    const real = ownSocket(c.socket);
    if (real === undefined || this.#opts.isOurs(real)) return skip('its socket is not a socket of this user');
    return { ...c, file, real };
  }

  /** Whether the candidate's socket answered: probed per key, and again after REPROBE_MS. */
  async #answers(c: Found): Promise<boolean> {
    const now = this.#opts.now?.() ?? performance.now();
    let probed = this.#probed.get(c.file);
    if (probed?.key !== c.probeKey || now - probed.at >= REPROBE_MS) {
      const probe = this.#opts.probe ?? ((p: string) => probeSocket(p, PROBE_TIMEOUT_MS));
      probed = { key: c.probeKey, answered: await probe(c.socket), at: now };
      this.#probed.set(c.file, probed);
    }
    return probed.answered;
  }
}

function outranks(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return false;
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

/** The fields a listing shows (Claude Code's status, Qwen Code's token: each is undefined in the other's rows). */
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
      s.entry.sessionId === t.entry.sessionId &&
      s.qwen?.token === t.qwen?.token
    );
  });
}
