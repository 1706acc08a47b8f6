// Publishing (setting `publishToClaudeCode`, off by default): each live
// Switchboard session with a known pid gets an entry in Claude Code's
// registry format, so Claude Code's ListAgents lists it and its
// SendMessage reaches the session's socket. Entries carry
// `entrypoint: "switchboard"` and this hub's socket; a pid that already has
// a Claude Code entry is never overwritten. Entries go when their session
// ends, when the setting turns off, on close, and — for crashes — at start
// (ours, or any Switchboard entry whose pid is dead).

import { replaceFileSync } from '../storage/atomic-write.js';
import fs from 'node:fs';
import path from 'node:path';
import type { SessionRecord } from '../registry/session.js';
import { readEntry, SWITCHBOARD_ENTRYPOINT } from './entry.js';
import { pidAlive } from '../registry/proc.js';

export interface PublisherOptions {
  sessionsDir: string;
  hubSocket: string;
  version: string;
  now(): number;
  log(message: string, fields: Record<string, unknown>): void;
}

export class Publisher {
  readonly #opts: PublisherOptions;
  /** pid → the JSON we wrote (rewritten only when it changes). */
  readonly #written = new Map<number, string>();

  constructor(opts: PublisherOptions) {
    this.#opts = opts;
  }

  /** Removes ghosts: our entries from an earlier run, and Switchboard entries whose process is gone. */
  sweepGhosts(): void {
    let names: string[];
    try {
      names = fs.readdirSync(this.#opts.sessionsDir);
    } catch {
      return;
    }
    for (const name of names) {
      const file = path.join(this.#opts.sessionsDir, name);
      const r = readEntry(file);
      if (!r.ok || r.entry.entrypoint !== SWITCHBOARD_ENTRYPOINT) continue;
      if (r.entry.switchboardHub === this.#opts.hubSocket || !pidAlive(r.entry.pid)) {
        if (this.#written.has(r.entry.pid)) continue;
        fs.rmSync(file, { force: true });
      }
    }
  }

  /** Makes the directory hold exactly the given sessions' entries (empty list: none). */
  sync(sessions: readonly SessionRecord[]): void {
    const want = new Map<number, SessionRecord>();
    for (const s of sessions) if (s.pid !== null && !want.has(s.pid)) want.set(s.pid, s);
    for (const pid of [...this.#written.keys()]) if (!want.has(pid)) this.#remove(pid);
    if (want.size === 0) return;
    fs.mkdirSync(this.#opts.sessionsDir, { recursive: true, mode: 0o700 });
    for (const [pid, s] of want) this.#write(pid, s);
  }

  #write(pid: number, s: SessionRecord): void {
    const file = path.join(this.#opts.sessionsDir, `${pid}.json`);
    if (!this.#written.has(pid) && fs.existsSync(file)) {
      const r = readEntry(file);
      if (!r.ok || r.entry.entrypoint !== SWITCHBOARD_ENTRYPOINT) return; // Claude Code's own entry for this pid
    }
    const json = JSON.stringify({
      pid,
      sessionId: s.id,
      cwd: s.cwd,
      startedAt: s.stateSince,
      ...(s.procStart ? { procStart: s.procStart } : {}),
      version: this.#opts.version,
      peerProtocol: 1,
      kind: 'interactive',
      entrypoint: SWITCHBOARD_ENTRYPOINT,
      messagingSocketPath: s.socketPath,
      name: s.name,
      status: s.state,
      statusUpdatedAt: s.stateSince,
      updatedAt: this.#opts.now(),
      switchboardHub: this.#opts.hubSocket,
    });
    const previous = this.#written.get(pid);
    if (previous !== undefined && withoutUpdatedAt(previous) === withoutUpdatedAt(json)) return;
    try {
      replaceFileSync(file, json, 0o600);
      this.#written.set(pid, json);
    } catch (err) {
      this.#opts.log('publishing to Claude Code failed', { file, error: String(err) });
    }
  }

  #remove(pid: number): void {
    this.#written.delete(pid);
    const file = path.join(this.#opts.sessionsDir, `${pid}.json`);
    const r = readEntry(file);
    if (r.ok && r.entry.entrypoint === SWITCHBOARD_ENTRYPOINT) fs.rmSync(file, { force: true });
  }

  close(): void {
    for (const pid of [...this.#written.keys()]) this.#remove(pid);
  }
}

function withoutUpdatedAt(json: string): string {
  return json.replace(/"updatedAt":\d+,/, '');
}
