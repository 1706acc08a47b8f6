// Which format the history database is in, and who wrote it: SQLite's
// `user_version` holds the format, a one-row `meta` table the writer. A
// database of a newer format than HISTORY_FORMAT is refused before anything
// is written to it (history then stays off, history.status saying why and
// naming the writer); a new one, or one from before formats (user_version
// 0), is stamped with ours.

import type { DatabaseSync } from 'node:sqlite';
import { CodedError } from '../protocol/coded-error.js';

/** The history format this hub writes and reads; a change older hubs would misread raises it. */
export const HISTORY_FORMAT = 1;

export class NewerHistoryError extends CodedError<'newer_format'> {
  override readonly name = 'NewerHistoryError';
}

/** Throws NewerHistoryError for a newer database; reads only. */
export function checkHistoryFormat(db: DatabaseSync, file: string): void {
  const format = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  if (format <= HISTORY_FORMAT) return;
  let by = 'an unknown version';
  try {
    const row = db.prepare("SELECT value FROM meta WHERE key = 'writer'").get() as { value?: unknown } | undefined;
    if (typeof row?.value === 'string') by = row.value.slice(0, 200);
  } catch {
    // no meta table: the writer stays unknown
  }
  throw new NewerHistoryError(
    'newer_format',
    `${file} is history format ${format}, written by ${by}; this hub reads format ${HISTORY_FORMAT} (left as it is: run that version or a newer one)`,
  );
}

/** Stamps a new (or pre-format) database with our format and writer; once the schema exists. */
export function stampHistoryFormat(db: DatabaseSync, writer: string): void {
  db.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  const format = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  if (format === HISTORY_FORMAT) return;
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('writer', ?)").run(writer);
  db.exec(`PRAGMA user_version = ${HISTORY_FORMAT}`);
}
