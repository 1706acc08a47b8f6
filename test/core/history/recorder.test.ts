import { tempDir } from '../../helpers/temp.js';
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import {
  HistoryOffError,
  HistoryRecorder,
  HISTORY_FILE,
  type RecorderOptions,
} from '../../../core/history/recorder.js';
import { LIMITS } from '../../../core/protocol/limits.js';
import { admitRecorded } from '../../../core/messaging/history-hook.js';
import type { RouteResult } from '../../../core/delivery/ports.js';
import type { Envelope } from '../../../core/delivery/envelope.js';
import type { SessionRecord } from '../../../core/registry/session.js';
import type { SessionTable } from '../../../core/registry/table.js';

let recorders: HistoryRecorder[] = [];
afterEach(() => {
  for (const r of recorders) r.close();
  recorders = [];
});

function dir(): string {
  return tempDir('sbh-');
}

function recorder(opts: Partial<RecorderOptions> & { stateDir: string }): HistoryRecorder {
  const errors: string[] = [];
  const r = new HistoryRecorder({
    limits: LIMITS,
    now: () => 1000,
    policy: () => ({ maxAgeMs: 30 * 86_400_000, maxBytes: 1e9 }),
    onError: (w) => errors.push(w),
    ...opts,
  });
  recorders.push(r);
  r.open();
  return r;
}

const env = (i: number, body = `hello ${i}`) => ({
  msgId: `m${i}`,
  at: 1000 + i,
  fromSessionId: 'sa',
  fromName: 'alice',
  fromAddress: 'uds:/a',
  summary: null,
  body,
});
const bob = { id: 'sb', name: 'bob', team: null };

describe('history recorder', () => {
  it('creates history.sqlite 0600 and makes an existing 0644 file 0600', () => {
    const d = dir();
    const r = recorder({ stateDir: d });
    expect(r.enabled).toBe(true);
    expect(fs.statSync(path.join(d, HISTORY_FILE)).mode & 0o777).toBe(0o600);
    r.message(env(1), bob, null);
    r.flush(true);
    for (const f of fs.readdirSync(d)) expect(fs.statSync(path.join(d, f)).mode & 0o777, f).toBe(0o600);
    r.close();
    fs.chmodSync(path.join(d, HISTORY_FILE), 0o644);
    const again = recorder({ stateDir: d });
    expect(again.enabled).toBe(true);
    expect(fs.statSync(path.join(d, HISTORY_FILE)).mode & 0o777).toBe(0o600);
    expect(again.query({ text: 'hello', limit: 5, order: 'newest' })).toHaveLength(1);
  });

  it('refuses a history file that is a symlink: off with the reason, nothing followed', () => {
    const d = dir();
    const target = path.join(d, 'elsewhere');
    fs.writeFileSync(target, ''); // empty: SQLite would happily make it a database
    fs.symlinkSync(target, path.join(d, HISTORY_FILE));
    const r = recorder({ stateDir: d });
    expect(r.enabled).toBe(false);
    expect(r.status().reason).toMatch(/cannot be used/);
    expect(fs.statSync(target).size).toBe(0);
    r.message(env(1), bob, null); // never throws on the send path
    expect(() => r.query({ limit: 1, order: 'newest' })).toThrow(HistoryOffError);
  });

  it('leaves a history file it cannot read as a database untouched, and is off with the reason', () => {
    const d = dir();
    const file = path.join(d, HISTORY_FILE);
    const junk = 'this is not a database '.repeat(400);
    fs.writeFileSync(file, junk, { mode: 0o600 });
    const r = recorder({ stateDir: d });
    expect(r.status()).toMatchObject({ enabled: false, reason: expect.stringMatching(/cannot be used/) });
    expect(fs.readFileSync(file, 'utf8')).toBe(junk);
  });

  it('is off with a clear status where the runtime has no node:sqlite', () => {
    const r = recorder({ stateDir: dir(), sqlite: null });
    expect(r.status()).toMatchObject({ enabled: false, reason: expect.stringMatching(/no node:sqlite/) });
    r.message(env(1), bob, null);
    r.activity({
      at: 1,
      kind: 'decision',
      status: 'deliver',
      msgId: 'm1',
      sender: 'alice',
      receiver: 'bob',
      reason: 'accept',
    });
    expect(r.status().queued).toBe(0);
    expect(() => r.query({ limit: 1, order: 'newest' })).toThrow(HistoryOffError);
  });

  it('never waits when the queue is full: it counts the gap and keeps the rest', () => {
    const limits = { ...LIMITS, historyQueueRecords: 10 };
    const r = recorder({ stateDir: dir(), limits });
    for (let i = 0; i < 25; i++) r.message(env(i), bob, null);
    expect(r.status()).toMatchObject({ queued: 10, gap: { records: 15, since: 1000 } });
    r.flush(true);
    expect(r.query({ limit: 100, order: 'oldest' }).map((m) => m.msgId)).toEqual(
      Array.from({ length: 10 }, (_, i) => `m${i}`),
    );
  });

  it('a message counted as a gap leaves no orphan outcome once the queue has room again', async () => {
    // One entry: m1 with its outcome folded in (queue.ts); m2 finds no room.
    const r = recorder({ stateDir: dir(), limits: { ...LIMITS, historyQueueRecords: 1 } });
    const hub = { history: r, table: { live: new Map() } as unknown as SessionTable };
    const asEnv = (i: number) => env(i) as unknown as Envelope;
    const receiver = bob as unknown as SessionRecord;
    await admitRecorded(hub, asEnv(1), receiver, () => Promise.resolve({ status: 'queued' } as RouteResult));
    let finish: (r: RouteResult) => void = () => undefined;
    const second = admitRecorded(hub, asEnv(2), receiver, () => new Promise<RouteResult>((res) => (finish = res)));
    expect(r.status()).toMatchObject({ queued: 1, gap: { records: 1 } }); // m2 found no room
    r.flush(true);
    finish({ status: 'queued' });
    await second;
    expect(r.status()).toMatchObject({ queued: 0, written: 2, gap: { records: 1 } });
  });

  it('bounds queued text too', () => {
    const r = recorder({ stateDir: dir(), limits: { ...LIMITS, historyQueueChars: 100 } });
    r.message(env(1, 'x'.repeat(80)), bob, null);
    r.message(env(2, 'y'.repeat(80)), bob, null);
    expect(r.status()).toMatchObject({ queued: 1, gap: { records: 1 } });
  });

  it('writes a bounded batch per flush (the timer), everything on close', () => {
    const d = dir();
    const r = recorder({ stateDir: d, limits: { ...LIMITS, historyBatchRecords: 4 } });
    for (let i = 0; i < 10; i++) r.message(env(i), bob, null);
    r.flush();
    expect(r.status()).toMatchObject({ queued: 6, written: 4 });
    r.close();
    const again = recorder({ stateDir: d });
    expect(again.query({ limit: 100, order: 'oldest' })).toHaveLength(10);
  });
});
