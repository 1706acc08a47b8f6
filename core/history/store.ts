// The history database: one SQLite file (WAL) with an FTS5 index over the
// messages' text, summary and names. It owns the schema, the batched writes
// (one transaction per batch), retention (age, then size, oldest first) and
// the queries. It never sends anything anywhere and never opens a file it
// did not create 0600. The sqlite module is passed in (so a test can hand
// it another); the query's WHERE clause and the rows' shapes are rows.ts. It
// runs on the hub's thread: the recorder calls it from a timer, a batch
// sized to a time budget.

import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type {
  HistoryEdge,
  HistoryEvent,
  HistoryMessage,
  HistoryQuery,
  HistoryRecord,
  HistoryStats,
  RetentionPolicy,
} from '../protocol/history.js';
import { checkHistoryFormat, stampHistoryFormat } from './format.js';
import { edgeOf, eventOf, messageFilter, messageOf, type Row } from './rows.js';

type SqliteModule = typeof import('node:sqlite');

export class HistoryStore {
  static readonly SCHEMA = `
    CREATE TABLE IF NOT EXISTS messages (
      seq INTEGER PRIMARY KEY, msg_id TEXT NOT NULL UNIQUE, at INTEGER NOT NULL,
      sender_session TEXT, sender_name TEXT, sender_address TEXT NOT NULL, sender_team TEXT,
      receiver_session TEXT NOT NULL, receiver_name TEXT NOT NULL, receiver_team TEXT,
      summary TEXT, text TEXT NOT NULL, outcome TEXT NOT NULL, reason TEXT NOT NULL, outcome_at INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS messages_at ON messages(at);
    CREATE INDEX IF NOT EXISTS messages_sender ON messages(sender_session);
    CREATE INDEX IF NOT EXISTS messages_receiver ON messages(receiver_session);
    CREATE TABLE IF NOT EXISTS events (
      seq INTEGER PRIMARY KEY, at INTEGER NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL,
      msg_id TEXT NOT NULL, sender TEXT NOT NULL, receiver TEXT NOT NULL, reason TEXT NOT NULL);
    CREATE INDEX IF NOT EXISTS events_msg ON events(msg_id);
    CREATE INDEX IF NOT EXISTS events_at ON events(at);
    CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts USING fts5(text, summary, sender_name, receiver_name, content='messages', content_rowid='seq');
    CREATE TRIGGER IF NOT EXISTS messages_ad AFTER DELETE ON messages BEGIN
      INSERT INTO messages_fts(messages_fts, rowid, text, summary, sender_name, receiver_name) VALUES ('delete', old.seq, old.text, old.summary, old.sender_name, old.receiver_name); END;
    CREATE TRIGGER IF NOT EXISTS messages_au AFTER UPDATE OF text ON messages BEGIN
      INSERT INTO messages_fts(messages_fts, rowid, text, summary, sender_name, receiver_name) VALUES ('delete', old.seq, old.text, old.summary, old.sender_name, old.receiver_name);
      INSERT INTO messages_fts(rowid, text, summary, sender_name, receiver_name) VALUES (new.seq, new.text, new.summary, new.sender_name, new.receiver_name); END;`;
  /** Receipts that change where a message stands (decisions only record; `held` moves a message that left this hub, e.g. `sent` → held by a stock Claude Code session's user). */
  // New rows are indexed by write() itself (three times faster than an insert trigger); deletes and text updates by triggers.
  static readonly MOVES = ['held', 'delivered', 'approved', 'denied', 'expired', 'refused', 'dropped'];
  static readonly PRUNE_ROUNDS = 64; // bounds one size-cap pass
  // No busy wait: the hub's event loop must not sleep on another connection's lock (a write is retried on the next flush).

  readonly #db: DatabaseSync;
  readonly #insertMessage: StatementSync;
  readonly #insertEvent: StatementSync;
  readonly #index: StatementSync;
  readonly #setText: StatementSync;
  readonly #setOutcome: StatementSync;
  readonly #setRouted: StatementSync;

  /**
   * Opens (creating) the database; `file` must already exist with mode 0600 (or be ':memory:'). A database of a
   * newer format throws NewerHistoryError before anything is written (format.ts).
   */
  constructor(sqlite: SqliteModule, file: string, writer = 'switchboard') {
    this.#db = new sqlite.DatabaseSync(file);
    try {
      checkHistoryFormat(this.#db, file);
    } catch (err) {
      this.#db.close();
      throw err;
    }
    this.#db.exec(
      // journal_size_limit: the WAL file is cut back to 1 MiB after each checkpoint (it kept its largest size).
      'PRAGMA auto_vacuum = INCREMENTAL; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 0; PRAGMA journal_size_limit = 1048576;',
    );
    this.#db.exec(HistoryStore.SCHEMA);
    stampHistoryFormat(this.#db, writer);
    this.#insertMessage = this.#db
      .prepare(`INSERT OR IGNORE INTO messages (msg_id, at, sender_session, sender_name, sender_address, sender_team,
      receiver_session, receiver_name, receiver_team, summary, text, outcome, reason, outcome_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`);
    this.#index = this.#db.prepare(
      'INSERT INTO messages_fts (rowid, text, summary, sender_name, receiver_name) VALUES (?,?,?,?,?)',
    );
    this.#insertEvent = this.#db.prepare(
      'INSERT INTO events (at, kind, status, msg_id, sender, receiver, reason) VALUES (?,?,?,?,?,?,?)',
    );
    this.#setText = this.#db.prepare('UPDATE messages SET text = ? WHERE msg_id = ?');
    this.#setOutcome = this.#db.prepare('UPDATE messages SET outcome = ?, reason = ?, outcome_at = ? WHERE msg_id = ?');
    // The admission result never overrides a receipt that overtook it (an ack can beat the journal write).
    this.#setRouted = this.#db.prepare(
      "UPDATE messages SET outcome = ?, reason = ?, outcome_at = ? WHERE msg_id = ? AND outcome = 'queued'",
    );
  }

  /** Applies a batch in one transaction; records of one message in the same batch become one insert. */
  write(records: readonly HistoryRecord[]): void {
    const fresh = new Map<
      string,
      { m: Extract<HistoryRecord, { t: 'm' }>; text: string; status: string; reason: string; at: number }
    >();
    this.#tx(() => {
      for (const r of records) {
        if (r.t === 'm') {
          fresh.set(r.msgId, { m: r, text: r.text, status: 'queued', reason: '', at: r.at });
        } else if (r.t === 'x') {
          const f = fresh.get(r.msgId);
          if (f !== undefined) f.text = r.text;
          else this.#setText.run(r.text, r.msgId);
        } else if (r.t === 'o' || (r.t === 'e' && r.kind === 'receipt' && HistoryStore.MOVES.includes(r.status))) {
          if (r.t === 'e') this.#insertEvent.run(r.at, r.kind, r.status, r.msgId, r.sender, r.receiver, r.reason);
          const f = fresh.get(r.msgId);
          if (f === undefined)
            (r.t === 'o' ? this.#setRouted : this.#setOutcome).run(r.status, r.reason, r.at, r.msgId);
          else if (r.t === 'e' || f.status === 'queued')
            Object.assign(f, { status: r.status, reason: r.reason, at: r.at });
        } else {
          this.#insertEvent.run(r.at, r.kind, r.status, r.msgId, r.sender, r.receiver, r.reason);
        }
      }
      for (const { m, text, status, reason, at } of fresh.values()) {
        const r = this.#insertMessage.run(
          m.msgId,
          m.at,
          m.senderSession,
          m.senderName,
          m.senderAddress,
          m.senderTeam,
          m.receiverSession,
          m.receiverName,
          m.receiverTeam,
          m.summary,
          text,
          status,
          reason,
          at,
        );
        if (r.changes > 0) this.#index.run(r.lastInsertRowid, text, m.summary, m.senderName, m.receiverName);
      }
    });
  }

  /** Removes what is older than the retention, then the oldest messages while over the size cap. */
  prune(now: number, policy: RetentionPolicy): { removed: number } {
    const cutoff = now - policy.maxAgeMs;
    let removed = this.#tx(() => {
      this.#db.prepare('DELETE FROM events WHERE at < ?').run(cutoff);
      return Number(this.#db.prepare('DELETE FROM messages WHERE at < ?').run(cutoff).changes);
    });
    for (let round = 0; round < HistoryStore.PRUNE_ROUNDS && this.#liveBytes() > policy.maxBytes; round++) {
      const count = Number((this.#db.prepare('SELECT count(*) AS n FROM messages').get() as Row).n);
      const evCount = Number((this.#db.prepare('SELECT count(*) AS n FROM events').get() as Row).n);
      if (count === 0 && evCount === 0) break;
      removed += this.#tx(() => {
        const oldest =
          count === 0
            ? undefined
            : (this.#db
                .prepare('SELECT seq, at FROM messages ORDER BY seq LIMIT 1 OFFSET ?')
                .get(Math.min(Math.max(16, Math.ceil(count / 10)), count) - 1) as Row | undefined);
        const seq = oldest === undefined ? -1 : Number(oldest.seq);
        const upTo = oldest === undefined ? Number.MAX_SAFE_INTEGER : Number(oldest.at);
        this.#db.prepare('DELETE FROM events WHERE msg_id IN (SELECT msg_id FROM messages WHERE seq <= ?)').run(seq);
        const n = Number(this.#db.prepare('DELETE FROM messages WHERE seq <= ?').run(seq).changes);
        this.#db
          .prepare('DELETE FROM events WHERE seq IN (SELECT seq FROM events WHERE at <= ? ORDER BY seq LIMIT ?)')
          .run(upTo, Math.max(16, Math.ceil(evCount / 10)));
        return n;
      });
      this.#db.exec("INSERT INTO messages_fts(messages_fts) VALUES ('optimize'); PRAGMA incremental_vacuum;");
    }
    if (removed > 0) this.#db.exec('PRAGMA incremental_vacuum');
    return { removed };
  }

  query(q: HistoryQuery): HistoryMessage[] {
    const filter = messageFilter(q);
    if (filter === null) return [];
    const { where, args } = filter;
    const sql = `SELECT * FROM messages m ${where.length > 0 ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY m.seq ${q.order === 'newest' ? 'DESC' : 'ASC'} LIMIT ?`;
    args.push(q.limit);
    const rows = this.#db.prepare(sql).all(...args) as Row[];
    return this.#withTrails(rows);
  }

  /**
   * Messages since `since` counted per (sender, receiver, outcome), newest first — by time, then by record order, so
   * messages of one millisecond keep the order they were sent in — at most `limit` rows (uses the `at` index).
   */
  edges(since: number, limit: number): HistoryEdge[] {
    const rows = this.#db
      .prepare(
        `SELECT sender_session, max(sender_name) AS sender_name, sender_address, max(sender_team) AS sender_team,
      receiver_session, max(receiver_name) AS receiver_name, max(receiver_team) AS receiver_team, outcome, count(*) AS n, max(at) AS last
      FROM messages WHERE at >= ? GROUP BY sender_session, sender_address, receiver_session, outcome ORDER BY last DESC, max(seq) DESC LIMIT ?`,
      )
      .all(since, limit) as Row[];
    return rows.map(edgeOf);
  }

  /** Deletes everything, or the messages between two sessions (either direction) and their events. */
  delete(what: { all: true } | { between: readonly [string, string] }): { deleted: number } {
    const deleted = this.#tx((): number => {
      if ('all' in what) {
        this.#db.exec('DELETE FROM events');
        return Number(this.#db.prepare('DELETE FROM messages').run().changes);
      }
      const [a, b] = what.between;
      const pair = `((sender_session = ? OR sender_name = ?) AND (receiver_session = ? OR receiver_name = ?))
        OR ((sender_session = ? OR sender_name = ?) AND (receiver_session = ? OR receiver_name = ?))`;
      const args = [a, a, b, b, b, b, a, a];
      this.#db.prepare(`DELETE FROM events WHERE msg_id IN (SELECT msg_id FROM messages WHERE ${pair})`).run(...args);
      return Number(this.#db.prepare(`DELETE FROM messages WHERE ${pair}`).run(...args).changes);
    });
    this.#db.exec(
      "INSERT INTO messages_fts(messages_fts) VALUES ('optimize'); PRAGMA incremental_vacuum; PRAGMA wal_checkpoint(TRUNCATE);",
    );
    return { deleted };
  }

  stats(): HistoryStats {
    const n = (sql: string): number => Number((this.#db.prepare(sql).get() as Row).n);
    return {
      messages: n('SELECT count(*) AS n FROM messages'),
      events: n('SELECT count(*) AS n FROM events'),
      bytes: this.#liveBytes(),
    };
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  /** One write transaction; SQLITE_BUSY (another connection's lock) throws at once, nothing half-done. */
  #tx<T>(fn: () => T): T {
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const out = fn();
      this.#db.exec('COMMIT');
      return out;
    } catch (err) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw err;
    }
  }

  /** A failure another connection's lock caused (retry later), not a bad record. */
  static isBusy(err: unknown): boolean {
    const code = (err as { errcode?: unknown } | null)?.errcode;
    return code === 5 || code === 6; // SQLITE_BUSY, SQLITE_LOCKED
  }

  #liveBytes(): number {
    const v = (p: string): number => Number(Object.values(this.#db.prepare(`PRAGMA ${p}`).get() as Row)[0]);
    return (v('page_count') - v('freelist_count')) * v('page_size');
  }

  #withTrails(rows: Row[]): HistoryMessage[] {
    if (rows.length === 0) return [];
    const trails = new Map<string, HistoryEvent[]>();
    const ids = rows.map((r) => String(r.msg_id));
    const events = this.#db
      .prepare(
        `SELECT at, kind, status, reason, msg_id FROM events WHERE msg_id IN (${ids.map(() => '?').join(',')}) ORDER BY seq`,
      )
      .all(...ids) as Row[];
    for (const e of events) {
      const list = trails.get(String(e.msg_id)) ?? [];
      list.push(eventOf(e));
      trails.set(String(e.msg_id), list);
    }
    return rows.map((r) => messageOf(r, trails.get(String(r.msg_id)) ?? []));
  }
}
