// A real full disk: the hub's state directory on a small tmpfs (needs root
// to mount; skipped elsewhere, saying so). A send the journal could not
// store is answered `storage_full` naming the directory, and it is nowhere:
// not in the receiver's inbox now, and not after a restart (a batch that was
// written partly is cut back). Once there is room again, sends work.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RpcError } from '../../core/client/client.js';
import type { Registration } from '../../core/protocol/methods.js';
import { startHub, tempDirs, type TestDirs, type TestHub } from '../helpers/hub.js';

const CAN_MOUNT = process.platform === 'linux' && process.getuid?.() === 0;
let th: TestHub | undefined;
let mounted: string | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
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

describe.skipIf(!CAN_MOUNT)(
  'the state directory on a full disk (skipped: mounting a tmpfs needs root on Linux)',
  () => {
    it('answers storage_full with the directory, and a refused send is never delivered, not even after a restart', async () => {
      const dirs = tempDirs();
      smallDisk(dirs, 512);
      th = await startHub({}, dirs);
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
  },
);
