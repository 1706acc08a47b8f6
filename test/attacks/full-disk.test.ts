// A real full disk: the hub's state directory on a small tmpfs (needs root
// to mount; skipped elsewhere, saying so). A send the journal could not
// store is answered `storage_full` naming the directory, and it is nowhere:
// not in the receiver's inbox now, and not after a restart (a batch that was
// written partly is cut back), and history records it as `failed`. Once
// there is room again, sends work. A restart with almost no room restores
// every session (restoring writes nothing); with no room at all the hub
// refuses to start, naming the directory, and leaves no lock behind.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HubClient, RpcError } from '../../core/client/client.js';
import type { HubError } from '../../core/protocol/errors.js';
import type { Registration } from '../../core/protocol/methods.js';
import { CLI, cliEnv, readyLine, runCli } from '../helpers/cli.js';
import { stopProcess } from '../helpers/processes.js';
import { startHub, tempDirs, until, type TestDirs, type TestHub } from '../helpers/hub.js';

const CAN_MOUNT = process.platform === 'linux' && process.getuid?.() === 0;
let th: TestHub | undefined;
let mounted: string | undefined;
let cleanupChild: ChildProcess | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
  if (cleanupChild !== undefined) await stopProcess(cleanupChild);
  cleanupChild = undefined;
  if (mounted !== undefined) spawnSync('umount', ['-l', mounted]);
  mounted = undefined;
});

/** The state directory on a tmpfs of `kib` KiB; false when this machine does not let us mount one (a container). */
function smallDisk(dirs: TestDirs, kib: number): boolean {
  fs.mkdirSync(dirs.home, { recursive: true, mode: 0o700 });
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k,mode=0700`, 'tmpfs', dirs.home]);
  if (r.status !== 0) return false;
  mounted = dirs.home;
  return true;
}

const auth = (r: Registration) => ({ sessionId: r.sessionId, token: r.token });

/** Fills the disk under `dir` with one file, written until ENOSPC in ever smaller pieces, then `leave` bytes freed. */
function fillDisk(dir: string, leave = 0): string {
  const file = path.join(dir, 'filler-full');
  const fd = fs.openSync(file, 'w');
  try {
    for (const size of [65536, 4096, 512, 1])
      for (;;)
        try {
          fs.writeSync(fd, Buffer.alloc(size));
        } catch {
          break;
        }
    if (leave > 0) fs.ftruncateSync(fd, Math.max(0, fs.fstatSync(fd).size - leave));
  } finally {
    fs.closeSync(fd);
  }
  return file;
}

describe.skipIf(!CAN_MOUNT)(
  'the state directory on a full disk (skipped: mounting a tmpfs needs root on Linux)',
  () => {
    it('answers storage_full with the directory, and a refused send is never delivered, not even after a restart', async () => {
      const dirs = tempDirs();
      smallDisk(dirs, 512);
      // No history reserve: history writes until the disk is full too, and must still agree with the answers.
      th = await startHub({ limits: { historyReserveBytes: 0 } }, dirs);
      const c = await th.client();
      const a = await th.register(c, { name: 'a' });
      const b = await th.register(c, { name: 'b' });
      // Most of the disk taken by another file, so the journal fills after a few messages.
      const filler = path.join(dirs.home, 'filler');
      const free = (): number => {
        const st = fs.statfsSync(dirs.home);
        return st.bavail * st.bsize;
      };
      fs.writeFileSync(filler, Buffer.alloc(Math.max(0, free() - 48 * 1024)));
      const body = (i: number) => `${i} `.padEnd(8 * 1024, 'x');
      const answered: string[] = [];
      let refused: RpcError | undefined;
      const refusedTexts: string[] = [];
      for (let i = 0; i < 40; i++) {
        // A burst: several sends in one batch, so a write can stop partway through it.
        const burst = await Promise.allSettled(
          [0, 1, 2].map((k) => c.call('message.send', { ...auth(a), to: 'b', summary: 's', message: body(i * 3 + k) })),
        );
        burst.forEach((r, k) => {
          if (r.status === 'fulfilled') answered.push(body(i * 3 + k));
          else {
            refused = r.reason as RpcError;
            refusedTexts.push(body(i * 3 + k));
          }
        });
        if (refused !== undefined) break;
      }
      expect(refused, 'the disk never filled').toBeDefined();
      expect(refused!.reason).toBe('storage_full');
      expect(refused!.data.directory).toBe(dirs.home);
      const texts = async (): Promise<string[]> =>
        (await c.call('inbox.fetch', { ...auth(b), limit: 1000 })).items.map((i) =>
          i.kind === 'message' ? i.text : '',
        );
      const inbox = await texts();
      for (const t of refusedTexts)
        expect(
          inbox.some((x) => x.includes(t.slice(0, 12))),
          'a refused send',
        ).toBe(false);
      expect(inbox).toHaveLength(answered.length);

      fs.rmSync(filler); // room again
      expect((await c.call('message.send', { ...auth(a), to: 'b', summary: 's', message: 'after' })).status).toBe(
        'queued',
      );
      // History tells the same story as the answers: a refused send is `failed` (or absent), never `queued`.
      const recorded = (await c.call('history.search', { uiToken: th.hub.uiToken, limit: 500 })).messages;
      const outcomeOf = (t: string) => recorded.find((m) => m.text.includes(t.slice(0, 12)))?.outcome;
      for (const t of refusedTexts) expect([undefined, 'failed']).toContain(outcomeOf(t));
      for (const t of answered) expect(outcomeOf(t)).toBe('queued');
      await th.close();
      th = await startHub({}, dirs);
      const c2 = await th.client();
      await c2.call('session.register', { cwd: dirs.root, resume: auth(b) });
      const after = (await c2.call('inbox.fetch', { ...auth(b), limit: 1000 })).items.map((i) =>
        i.kind === 'message' ? i.text : '',
      );
      expect(after).toHaveLength(answered.length + 1);
      for (const t of refusedTexts)
        expect(
          after.some((x) => x.includes(t.slice(0, 12))),
          'back after restart',
        ).toBe(false);
    });

    it('below its reserve for messages, history records only a counted gap', async () => {
      const dirs = tempDirs();
      smallDisk(dirs, 4096);
      th = await startHub({ limits: { historyReserveBytes: 2 * 1024 * 1024 } }, dirs);
      const c = await th.client();
      const a = await th.register(c, { name: 'a' });
      await th.register(c, { name: 'b' });
      const ui = th.hub.uiToken;
      const send = (message: string) => c.call('message.send', { ...auth(a), to: 'b', summary: 's', message });
      await send('before');
      expect((await c.call('history.status', { uiToken: ui })).paused).toBeNull();
      const filler = fillDisk(dirs.home, 1024 * 1024); // 1 MiB left: room for messages, less than the reserve
      await until(async () => (await c.call('history.status', { uiToken: ui })).paused !== null);
      for (let i = 0; i < 20; i++) expect((await send(`while short ${i}`)).status, 'messages still go').toBe('queued');
      const status = await c.call('history.status', { uiToken: ui });
      expect(status.paused, 'history.status says why').toContain(`the disk holding ${th.hub.paths.stateDir}`);
      expect(status.gap.records, 'the gap is counted').toBeGreaterThanOrEqual(20);
      fs.rmSync(filler);
      await until(async () => (await c.call('history.status', { uiToken: ui })).paused === null);
      await send('after');
      const kept = (await c.call('history.search', { uiToken: ui, limit: 100 })).messages.map((m) => m.text);
      expect(kept.some((t) => t.includes('before'))).toBe(true);
      expect(kept.some((t) => t.includes('after'))).toBe(true);
      expect(
        kept.some((t) => t.includes('while short')),
        'nothing was written while short',
      ).toBe(false);
    });

    it('the web UI says a full disk in words, with the directory', async () => {
      const dirs = tempDirs();
      smallDisk(dirs, 512);
      const child = spawn(process.execPath, [CLI, 'serve', '--ui', '--port', '0', '--json', '--quiet'], {
        env: cliEnv(dirs),
      });
      cleanupChild = child;
      const ready = await readyLine<{ socket: string; uiToken: string; ui: string; stateDir: string }>(child);
      const c = await HubClient.connect(ready.socket);
      await c.call('session.register', { cwd: dirs.root, name: 'b' });
      fillDisk(dirs.home);
      const res = await fetch(new URL('/api/user.send', ready.ui), {
        method: 'POST',
        headers: { Authorization: `Bearer ${ready.uiToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ to: 'b', message: 'from the person '.padEnd(16 * 1024, 'x') }), // past the journal's last page
      });
      const body = (await res.json()) as { error: { message: string; data: { reason: string } } };
      c.close();
      expect(res.status).toBe(422);
      expect(body.error.data.reason).toBe('storage_full');
      expect(body.error.message).toBe(
        `The disk holding the state directory ${ready.stateDir} is full: nothing was stored. Free some space and try again.`,
      );
    });

    it('a restart on a full disk restores every session: none is forgotten while its agent still runs', async () => {
      const dirs = tempDirs();
      smallDisk(dirs, 512);
      th = await startHub({}, dirs);
      const c = await th.client();
      const regs: Registration[] = [];
      for (let i = 0; i < 11; i++)
        regs.push(
          await c.call('session.register', { cwd: dirs.root, name: `s${i}`, pid: process.pid, liveness: 'pid' }),
        );
      await th.close();
      fillDisk(dirs.home, 8 * 1024); // room for the lock, not for 11 session records
      th = await startHub({}, dirs);
      const c2 = await th.client();
      for (const r of regs) expect((await c2.call('inbox.fetch', { ...auth(r), limit: 1 })).items).toEqual([]);
      const listed = await c2.call('agents.list', { ...auth(regs[0]!) });
      expect(listed.rows.filter((row) => /^s\d+$/.test(row.name))).toHaveLength(11);
    });

    it('a disk with no byte left: the hub refuses to start with storage_full naming the directory, leaving no lock', async () => {
      const dirs = tempDirs();
      smallDisk(dirs, 512);
      th = await startHub({}, dirs);
      const stateDir = th.hub.paths.stateDir;
      await th.close();
      th = undefined;
      fillDisk(dirs.home);
      const err = await startHub({}, dirs).then(
        () => undefined,
        (e: unknown) => e as HubError,
      );
      expect(err?.reason).toBe('storage_full');
      expect((err?.data as { directory: string }).directory).toBe(stateDir);
      expect(fs.readdirSync(stateDir).filter((f) => f.startsWith('hub.lock'))).toEqual([]);
      // `switchboard serve` says it in words, with the path, and exits non-zero.
      const served = await runCli(['serve'], cliEnv(dirs));
      expect(served.code).not.toBe(0);
      expect(served.stderr).toContain(
        `The disk holding the state directory ${stateDir} is full: the hub cannot start.`,
      );
      expect(fs.readdirSync(stateDir).filter((f) => f.startsWith('hub.lock'))).toEqual([]);
    });

    it('a read-only disk: the hub refuses to start with storage_readonly naming the directory', async () => {
      const dirs = tempDirs();
      smallDisk(dirs, 512);
      th = await startHub({}, dirs);
      const stateDir = th.hub.paths.stateDir;
      await th.close();
      th = undefined;
      expect(spawnSync('mount', ['-o', 'remount,ro', dirs.home]).status).toBe(0);
      const err = await startHub({}, dirs).then(
        () => undefined,
        (e: unknown) => e as HubError,
      );
      expect(err?.reason).toBe('storage_readonly');
      expect((err?.data as { directory: string }).directory).toBe(stateDir);
    });
  },
);
