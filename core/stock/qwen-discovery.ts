// Discovers Qwen Code's interactive sessions (docs/integrations.md#qwen-code):
// watches `$QWEN_HOME/sessions` (a change rescans, debounced; the hub's long
// tick rechecks pids), lists records of kind `tui` only (its `--acp`
// sessions refuse inbound messages; `external` ones are other programs'),
// from our pid namespace, whose process lives and is the writer, whose
// socket is this user's, not one of ours, and answers a connect probe (once
// per file version, again after REPROBE_MS). A bad, oversized or foreign
// file is skipped and logged once per version; nothing here throws into the
// hub. Each session is listed like a stock Claude Code one (a StockSession
// whose `qwen` part carries its token), so resolution and refs treat both alike.

import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { udsAddress } from '../protocol/cc-wire.js';
import { qwenRecordPid, splitProcStart, type QwenRecord } from '../protocol/qwen-wire.js';
import { refHash } from '../registry/names.js';
import type { StockSession } from '../registry/table.js';
import { RootWatcher } from '../teams/watch.js';
import { probeSocket } from '../transport/endpoint.js';
import { drop } from '../kit/drop.js';
import { PROBE_TIMEOUT_MS } from './entry.js';
import { REPROBE_MS } from './discovery.js';
import { hostIdentity, qwenProcessMatches, QwenRecordReader, type HostIdentity } from './qwen-record.js';

const MAX_FILES = 4096;
const FILES_PER_TURN = 16;

export interface QwenDiscoveryOptions {
  sessionsDir: string;
  isOurs(socketPath: string): boolean;
  onChange(sessions: readonly StockSession[]): void;
  probe?: (socketPath: string) => Promise<boolean>;
  startTimeOf?: (pid: number) => string | undefined;
  host?: HostIdentity;
  now?: () => number;
  log?: (message: string, fields: Record<string, unknown>) => void;
}

interface Candidate {
  file: string;
  record: QwenRecord & { ipcPath: string };
  real: string;
  version: string;
}

export class QwenDiscovery {
  readonly #opts: QwenDiscoveryOptions;
  readonly #host: HostIdentity;
  readonly #records = new QwenRecordReader();
  readonly #probed = new Map<string, { key: string; answered: boolean; at: number }>();
  #watcher: RootWatcher | undefined;
  #live: StockSession[] = [];
  #scanning: Promise<void> | undefined;
  #again = false;
  #closed = false;

  constructor(opts: QwenDiscoveryOptions) {
    this.#opts = opts;
    this.#host = opts.host ?? hostIdentity();
  }

  start(): void {
    if (this.#closed || this.#watcher !== undefined) return;
    this.#watcher = new RootWatcher([this.#opts.sessionsDir], () => this.#scanSoon());
    this.#scanSoon();
  }

  get sessions(): readonly StockSession[] {
    return this.#live;
  }

  /** A listed session may crash (its file stays), a socket may begin to answer late. */
  get wantsRecheck(): boolean {
    if (this.#live.length > 0) return true;
    for (const p of this.#probed.values()) if (!p.answered) return true;
    return false;
  }

  #scanSoon(): void {
    drop(this.scan(), 'Qwen Code registry scan', (m, f) => this.#opts.log?.(m, f));
  }

  /** Rescans now (coalesced). Never rejects. */
  scan(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#scanning !== undefined) {
      this.#again = true;
      return this.#scanning;
    }
    this.#scanning = this.#scanOnce()
      .catch((err: unknown) => this.#opts.log?.('Qwen Code registry scan failed', { why: String(err) }))
      .finally(() => {
        this.#scanning = undefined;
        if (this.#again) {
          this.#again = false;
          this.#scanSoon();
        }
      });
    return this.#scanning;
  }

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
        .filter((n) => qwenRecordPid(n) !== undefined)
        .slice(0, MAX_FILES);
    } catch {
      names = [];
    }
    const files = new Set(names.map((n) => path.join(dir, n)));
    this.#records.keepOnly(files);
    const candidates: Candidate[] = [];
    let read = 0;
    for (const file of files) {
      if (++read % FILES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
      if (this.#closed) return;
      const c = this.#candidate(file);
      if (c !== undefined) candidates.push(c);
    }
    const byReal = new Map<string, { startedAt: number; session: StockSession }>();
    await Promise.all(
      candidates.map(async (c) => {
        if (!(await this.#answers(c))) return;
        const session = toSession(c.record);
        const startedAt = c.record.startedAt ?? 0;
        const other = byReal.get(c.real);
        if (other === undefined || startedAt > other.startedAt) byReal.set(c.real, { startedAt, session });
      }),
    );
    const listed = new Set(candidates.map((c) => c.file));
    for (const file of this.#probed.keys()) if (!listed.has(file)) this.#probed.delete(file);
    const found = [...byReal.values()].map((v) => v.session).sort((a, b) => a.entry.pid - b.entry.pid);
    if (this.#closed || same(found, this.#live)) return;
    this.#live = found;
    this.#opts.onChange(found);
  }

  #candidate(file: string): Candidate | undefined {
    const { result: r, changed } = this.#records.read(file);
    const skip = (why: string): undefined => {
      if (changed) this.#opts.log?.('Qwen Code registry file ignored', { file, why });
      return undefined;
    };
    if (!r.ok) return skip(r.why);
    const rec = r.record;
    if (rec.kind !== 'tui') return undefined; // headless/serve refuse inbound; external is another program (or ours)
    if (rec.ipcPath === undefined) return undefined; // written before its socket is bound: a later write adds it
    if (!qwenProcessMatches(rec, this.#host, this.#opts.startTimeOf)) return undefined;
    if (this.#opts.isOurs(rec.ipcPath)) return undefined;
    const real = ownSocket(rec.ipcPath);
    if (real === undefined || this.#opts.isOurs(real)) return skip('its socket is not a socket of this user');
    const version = `${rec.ipcPath}:${rec.procStart ?? ''}:${rec.sessionId}:${rec.ipcToken ?? ''}`;
    return { file, record: { ...rec, ipcPath: rec.ipcPath }, real, version };
  }

  async #answers(c: Candidate): Promise<boolean> {
    const now = this.#opts.now?.() ?? performance.now();
    let probed = this.#probed.get(c.file);
    if (probed?.key !== c.version || now - probed.at >= REPROBE_MS) {
      const probe = this.#opts.probe ?? ((p: string) => probeSocket(p, PROBE_TIMEOUT_MS));
      probed = { key: c.version, answered: await probe(c.record.ipcPath), at: now };
      this.#probed.set(c.file, probed);
    }
    return probed.answered;
  }
}

/** A record as a listed row: its start ticks as our process start (so our own session's row folds it in). */
function toSession(rec: QwenRecord & { ipcPath: string }): StockSession {
  const socketPath = path.resolve(rec.ipcPath);
  const ticks = splitProcStart(rec.procStart)?.ticks;
  return {
    entry: {
      pid: rec.pid,
      sessionId: rec.sessionId,
      cwd: rec.cwd,
      messagingSocketPath: socketPath,
      kind: rec.kind,
      ...(rec.name !== undefined ? { name: rec.name } : {}),
      ...(rec.startedAt !== undefined ? { startedAt: rec.startedAt } : {}),
      ...(ticks !== undefined ? { procStart: ticks } : {}),
      ...(rec.qwenVersion !== undefined ? { version: rec.qwenVersion } : {}),
    },
    socketPath,
    address: udsAddress(socketPath),
    refHash: refHash(socketPath),
    status: undefined,
    qwen: { token: rec.ipcToken },
  };
}

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

function same(a: readonly StockSession[], b: readonly StockSession[]): boolean {
  return (
    a.length === b.length &&
    a.every((s, i) => {
      const t = b[i];
      return (
        t !== undefined &&
        s.entry.pid === t.entry.pid &&
        s.socketPath === t.socketPath &&
        s.entry.name === t.entry.name &&
        s.entry.sessionId === t.entry.sessionId &&
        s.qwen?.token === t.qwen?.token
      );
    })
  );
}
