// Journal compaction of ~100 MiB live data (plus as much dead): the worst
// event-loop stall while it runs, against the baseline measured in the same
// run, the synchronous rewrite it replaced (JSON.stringify of every live
// record, sync writes). Also the streaming replay of the journal before and
// after, and how long appends wait while a compaction runs.

import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { applyRecord, emptyState, Journal, type JournalRecord, type JournalState } from '../core/journal/journal.js';
import { fmt, tempDir } from './lib.js';

const LIVE = 50_000; // records kept
const BODY = 2048; // bytes of text per record: ~100 MiB live
const OPTS = { syncMs: 50, compactBytes: 64 * 1024 * 1024, lineBytes: 8 * 1024 * 1024 };

/** Runs `fn` while sampling the loop every millisecond; returns the largest gap between samples. */
async function worstStall<T>(fn: () => Promise<T> | T): Promise<{ result: T; stallMs: number; totalMs: number }> {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 1);
  await new Promise((r) => setTimeout(r, 5));
  last = performance.now();
  const t0 = performance.now();
  const result = await fn();
  const totalMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 5));
  clearInterval(timer);
  worst = Math.max(worst, performance.now() - last);
  return { result, stallMs: worst, totalMs };
}

/** The pre-issue-14 compaction: serialize the live state and write it in one synchronous pass. */
function syncRewrite(file: string, records: Iterable<JournalRecord>): number {
  const tmp = `${file}.baseline`;
  const fd = fs.openSync(tmp, 'w', 0o600);
  let size = 0;
  let chunk: string[] = [];
  const flush = (): void => {
    const buf = Buffer.from(chunk.join(''), 'utf8');
    let off = 0;
    while (off < buf.length) off += fs.writeSync(fd, buf, off);
    size += buf.length;
    chunk = [];
  };
  for (const r of records) {
    chunk.push(JSON.stringify(r) + '\n');
    if (chunk.length >= 1000) flush();
  }
  flush();
  fs.fdatasyncSync(fd);
  fs.closeSync(fd);
  fs.rmSync(tmp);
  return size;
}

function* liveRecords(state: JournalState): Iterable<JournalRecord> {
  for (const [id, items] of state.items) for (const item of items.values()) yield { t: 'i', id, item };
}

export async function run(): Promise<void> {
  const dir = path.join(tempDir(), 'state');
  const { journal } = await Journal.open(dir, OPTS);
  const state: JournalState = emptyState();
  const text = 'x'.repeat(BODY);
  const put = (rec: JournalRecord): Promise<void> => {
    applyRecord(state, rec);
    return journal.append(rec);
  };
  // Live and dead interleaved, as acknowledgements arrive in a real inbox.
  for (let i = 0; i < 2 * LIVE; i += 1000) {
    const batch: Promise<void>[] = [];
    for (let j = i; j < i + 1000; j++)
      batch.push(put({ t: 'i', id: `s${j % 100}`, item: { kind: 'notice', id: `k${j}`, text, at: j } }));
    for (let j = i; j < i + 1000; j += 2) batch.push(put({ t: 'a', id: `s${j % 100}`, ids: [`k${j}`] }));
    await Promise.all(batch);
  }
  const before = journal.size;
  const live = journal.liveBytes;
  const mib = (n: number): string => (n / 1024 / 1024).toFixed(1);

  const base = await worstStall(() => syncRewrite(journal.file, liveRecords(state)));

  // Appends keep arriving during the compaction: how long does one wait?
  let appendWorst = 0;
  let appends = 0;
  let appending = true;
  const appender = (async () => {
    for (let n = 0; appending; n++) {
      const t = performance.now();
      await put({ t: 'i', id: 'late', item: { kind: 'notice', id: `n${n}`, text: 'late', at: n } });
      appendWorst = Math.max(appendWorst, performance.now() - t);
      appends++;
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  const ours = await worstStall(() => journal.compact());
  appending = false;
  await appender;
  const after = journal.size;
  journal.close();

  const reopenTime = async (): Promise<number> => {
    const t = performance.now();
    const { journal: j } = await Journal.open(dir, OPTS);
    j.close();
    return performance.now() - t;
  };
  const replayMs = await reopenTime();
  // Baseline for replay: the old whole-file read (fails past 512 MiB; here it fits).
  const t = performance.now();
  const oldState: JournalState = emptyState();
  for (const line of fs.readFileSync(journal.file, 'utf8').split('\n'))
    if (line !== '') applyRecord(oldState, JSON.parse(line) as JournalRecord);
  const oldReplayMs = performance.now() - t;

  console.log(`journal compaction (${mib(before)} MiB file, ${mib(live)} MiB live, ${LIVE} live records of ${BODY} B)`);
  console.log(
    `  baseline sync rewrite      worst stall ${fmt(base.stallMs)} ms (total ${fmt(base.totalMs)} ms, ${mib(base.result)} MiB)`,
  );
  console.log(
    `  chunked live-byte copy     worst stall ${fmt(ours.stallMs)} ms (total ${fmt(ours.totalMs)} ms, ${mib(after)} MiB, ok=${String(ours.result)})`,
  );
  console.log(`  ratio worst stall ours/baseline: ${(ours.stallMs / base.stallMs).toFixed(3)}`);
  console.log(`  appends during compaction: ${appends}, slowest ${fmt(appendWorst)} ms`);
  console.log(
    `  replay of the compacted ${mib(after)} MiB: streaming ${fmt(replayMs)} ms, baseline readFileSync ${fmt(oldReplayMs)} ms (ratio ${(replayMs / oldReplayMs).toFixed(2)})`,
  );
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
}
