// Contention across real processes: no lost writes, exactly-once claims,
// stale-lock takeover after a SIGKILL.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { parseInbox } from '../../../core/teams/mailbox.js';
import { Mailbox, newEntry } from '../../../core/teams/mailbox.js';
import { TaskList } from '../../../core/tasks/task-list.js';
import { tempDirs } from '../../helpers/hub.js';
import { stopProcess } from '../../helpers/processes.js';
import { lockHolder, runWorker } from '../../helpers/worker.js';

describe('team storage under contention (separate processes)', () => {
  it('8 writers × 500 appends to one inbox lose nothing', { timeout: 300_000 }, async () => {
    const file = path.join(tempDirs().root, 'inboxes', 'lead.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => runWorker<{ written: number }>(['append', file, '500', `w${i}`])),
    );
    expect(results.map((r) => r.written)).toEqual(Array(8).fill(500));
    const { entries, invalid } = parseInbox(fs.readFileSync(file, 'utf8'));
    expect(invalid).toBe(0);
    expect(entries).toHaveLength(4000);
    for (let w = 0; w < 8; w++) {
      const mine = entries.filter((e) => e.from === `w${w}`).map((e) => e.text);
      expect(mine).toEqual(Array.from({ length: 500 }, (_, i) => `w${w}-${i}`));
    }
  });

  it("none of our entries is lost beside writers using Claude Code's lock options", { timeout: 300_000 }, async () => {
    const file = path.join(tempDirs().root, 'inbox.json');
    const ours = Array.from({ length: 3 }, (_, i) =>
      runWorker<{ written: number }>(['append', file, '200', `ours${i}`]),
    );
    const refs = Array.from({ length: 3 }, (_, i) =>
      runWorker<{ written: number; lost: number }>(['ref-append', file, '200', `ref${i}`]),
    );
    const [o, r] = await Promise.all([Promise.all(ours), Promise.all(refs)]);
    const { entries } = parseInbox(fs.readFileSync(file, 'utf8'));
    for (let i = 0; i < 3; i++) expect(entries.filter((e) => e.from === `ours${i}`)).toHaveLength(200);
    expect(o.map((x) => x.written)).toEqual([200, 200, 200]);
    const refWritten = r.reduce((n, x) => n + x.written, 0);
    expect(entries.filter((e) => e.from.startsWith('ref'))).toHaveLength(refWritten);
  });

  it('16 claimers racing over 200 tasks claim each exactly once', { timeout: 300_000 }, async () => {
    const root = path.join(tempDirs().root, 'tasks');
    const list = new TaskList(root, 'race', { deadlineMs: 60_000, staleMs: 10_000 });
    for (let i = 0; i < 200; i++) await list.create({ subject: `task ${i}`, description: 'd' });
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        runWorker<{ claimed: string[] }>(['claim', root, 'race', `agent-${i}`, '200']),
      ),
    );
    const all = results.flatMap((r) => r.claimed);
    expect(all).toHaveLength(200);
    expect(new Set(all).size).toBe(200);
    const tasks = await list.list();
    for (const [i, r] of results.entries())
      for (const id of r.claimed) expect(tasks.find((t) => t.id === id)?.owner).toBe(`agent-${i}`);
  });

  it('a lock left by a SIGKILLed holder is taken over after the stale time', { timeout: 60_000 }, async () => {
    const file = path.join(tempDirs().root, 'inbox.json');
    fs.writeFileSync(file, '[]');
    const holder = await lockHolder(file, 2000);
    await stopProcess(holder, 'SIGKILL');
    expect(fs.existsSync(`${file}.lock`)).toBe(true);
    const t0 = Date.now();
    await new Mailbox(file, { deadlineMs: 20_000, staleMs: 2000 }).append(
      newEntry({ from: 'me', text: 'after the crash' }),
    );
    const waited = Date.now() - t0;
    expect(waited).toBeGreaterThanOrEqual(1000);
    expect(waited).toBeLessThan(10_000);
    expect(parseInbox(fs.readFileSync(file, 'utf8')).entries.map((e) => e.text)).toEqual(['after the crash']);
  });

  it('fails loudly, never silently, when the deadline passes', async () => {
    const file = path.join(tempDirs().root, 'inbox.json');
    fs.writeFileSync(file, '[]');
    const holder = await lockHolder(file, 10_000);
    try {
      await expect(
        new Mailbox(file, { deadlineMs: 300, staleMs: 10_000 }).append(newEntry({ from: 'me', text: 'x' })),
      ).rejects.toMatchObject({ name: 'LockTimeoutError' });
    } finally {
      await stopProcess(holder, 'SIGKILL');
    }
  });
});
