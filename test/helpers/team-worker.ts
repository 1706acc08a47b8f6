// A separate process for the team-storage concurrency tests and benchmarks.
// Modes (argv): append FILE N TAG | ref-append FILE N TAG | claim ROOT LIST ME TOTAL | hold-lock FILE
// Prints one JSON line with what it did. `ref-append` is the reference
// writer: Claude Code's exact lock options (10 retries, 5–100 ms), and a
// write that could not get the lock is dropped, as Claude Code drops it.

import fs from 'node:fs';
import lockfile from 'proper-lockfile';
import { serialize, writeAtomic, createExclusive } from '../../core/teams/files.js';
import { Mailbox, newEntry, parseInbox } from '../../core/teams/mailbox.js';
import { TaskList, TaskError } from '../../core/tasks/task-list.js';

const [mode, a, b, c, d] = process.argv.slice(2);
const LOCK = { deadlineMs: 120_000, staleMs: 10_000 };

async function main(): Promise<unknown> {
  switch (mode) {
    case 'append': {
      const box = new Mailbox(a as string, LOCK);
      const t0 = Date.now();
      for (let i = 0; i < Number(b); i++) await box.append(newEntry({ from: c as string, text: `${c}-${i}` }));
      return { written: Number(b), lost: 0, ms: Date.now() - t0 };
    }
    case 'ref-append': {
      const file = a as string;
      let lost = 0;
      const t0 = Date.now();
      await createExclusive(file, '[]');
      for (let i = 0; i < Number(b); i++) {
        let release: (() => Promise<void>) | undefined;
        try {
          release = await lockfile.lock(file, {
            lockfilePath: `${file}.lock`,
            retries: { retries: 10, minTimeout: 5, maxTimeout: 100 },
            stale: 10_000,
          });
        } catch {
          lost++;
          continue;
        }
        try {
          const { entries } = parseInbox(fs.readFileSync(file, 'utf8'));
          entries.push(newEntry({ from: c as string, text: `${c}-${i}` }));
          await writeAtomic(file, serialize(entries));
        } finally {
          await release();
        }
      }
      return { written: Number(b) - lost, lost, ms: Date.now() - t0 };
    }
    case 'claim': {
      const list = new TaskList(a as string, b as string, LOCK);
      const claimed: string[] = [];
      const t0 = Date.now();
      for (let id = 1; id <= Number(d); id++) {
        try {
          const t = await list.claim(String(id), c as string);
          if (t.owner === c) claimed.push(String(id));
        } catch (err) {
          if (!(err instanceof TaskError)) throw err;
        }
      }
      return { claimed, ms: Date.now() - t0 };
    }
    case 'hold-lock': {
      await lockfile.lock(a as string, { lockfilePath: `${a}.lock`, realpath: false, stale: Number(b ?? 10_000) });
      process.stdout.write(JSON.stringify({ locked: true }) + '\n');
      setInterval(() => undefined, 60_000); // stay alive (and locked) until killed
      await new Promise(() => undefined);
      return null;
    }
    default:
      throw new Error(`unknown mode ${mode}`);
  }
}

main().then(
  (r) => {
    process.stdout.write(JSON.stringify(r) + '\n');
    process.exit(0);
  },
  (err: unknown) => {
    process.stderr.write(String(err instanceof Error ? err.stack : err) + '\n');
    process.exit(1);
  },
);
