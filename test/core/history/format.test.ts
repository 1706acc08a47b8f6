// The history database says which format it is in and who wrote it; a
// database of a newer format is never written to: history stays off and
// history.status names the format and the writer.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { HISTORY_FILE, HistoryRecorder } from '../../../core/history/recorder.js';
import { LIMITS } from '../../../core/protocol/limits.js';
import { tempDir } from '../../helpers/temp.js';

const recorders: HistoryRecorder[] = [];
afterEach(() => {
  for (const r of recorders.splice(0)) r.close();
});

function recorder(stateDir: string): HistoryRecorder {
  const r = new HistoryRecorder({
    stateDir,
    limits: LIMITS,
    now: () => 1000,
    policy: () => ({ maxAgeMs: 30 * 86_400_000, maxBytes: 1e9 }),
    onError: () => undefined,
    writer: 'switchboard 1.2.3',
  });
  recorders.push(r);
  r.open();
  return r;
}

const digest = (file: string): string => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('the history format', () => {
  it('a new database is stamped with format 1 and its writer', () => {
    const dir = tempDir('sbh-');
    const r = recorder(dir);
    expect(r.status().enabled).toBe(true);
    r.close();
    const db = new DatabaseSync(path.join(dir, HISTORY_FILE));
    expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: 1 });
    expect(db.prepare("SELECT value FROM meta WHERE key = 'writer'").get()).toEqual({ value: 'switchboard 1.2.3' });
    db.close();
  });

  it('a database of a newer format is left byte-identical; history is off, saying which version wrote it', () => {
    const dir = tempDir('sbh-');
    const file = path.join(dir, HISTORY_FILE);
    const db = new DatabaseSync(file);
    db.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE messages2 (x);');
    db.exec("INSERT INTO meta VALUES ('writer', 'switchboard 9.0.0'); PRAGMA user_version = 2;");
    db.close();
    fs.chmodSync(file, 0o600);
    const before = digest(file);
    const r = recorder(dir);
    const status = r.status();
    expect(status.enabled).toBe(false);
    expect(status.reason).toContain('history format 2, written by switchboard 9.0.0');
    r.close();
    expect(digest(file)).toBe(before);
    expect(fs.readdirSync(dir).sort()).toEqual([HISTORY_FILE]);
  });
});
