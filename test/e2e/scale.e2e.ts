/// <reference lib="dom" />
// Scale in the browser: 500 sessions and 100 held messages render, and
// approving one updates the list; the time is measured in the page and
// reported (docs/benchmarks.md), the assertion is only that it happens.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { stopAndRemove } from '../helpers/temp.js';
import { expect, test } from './fixtures.js';

const CLI = path.resolve('dist/cli/switchboard.mjs');

/** A minimal JSON-RPC line client for bulk setup. */
async function rpcClient(
  socket: string,
): Promise<(method: string, params: unknown) => Promise<Record<string, unknown>>> {
  const sock = net.connect(socket);
  await new Promise((r) => sock.once('connect', r));
  let buf = '';
  let id = 0;
  const waiting = new Map<number, (v: Record<string, unknown>) => void>();
  sock.on('data', (d: Buffer) => {
    buf += d.toString();
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const msg = JSON.parse(buf.slice(0, i)) as { id: number; result: Record<string, unknown> };
      buf = buf.slice(i + 1);
      waiting.get(msg.id)?.(msg.result);
    }
  });
  return (method, params) =>
    new Promise((resolve) => {
      waiting.set(++id, resolve);
      sock.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
}

test('with 500 sessions and 100 held messages, approving one updates the list', async ({ page }) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sbs-'));
  fs.mkdirSync(path.join(root, 'home'), { mode: 0o700 });
  fs.writeFileSync(
    path.join(root, 'home', 'settings.json'),
    JSON.stringify({ throttle: { bucketSize: 1000, queueFullAt: 1000 } }),
  );
  const env = {
    PATH: process.env.PATH,
    HOME: root,
    SWITCHBOARD_RUNTIME_DIR: path.join(root, 'run'),
    SWITCHBOARD_HOME: path.join(root, 'home'),
    CLAUDE_CONFIG_DIR: path.join(root, 'claude'),
  };
  const hub = spawn(process.execPath, [CLI, 'serve', '--ui', '--port', '0', '--json', '--quiet'], { env });
  try {
    const ready = await new Promise<{ ui: string; socket: string }>((resolve) => {
      let out = '';
      hub.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as { ui: string; socket: string });
      });
    });
    const call = await rpcClient(ready.socket);
    const regs = await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        call('session.register', {
          cwd: `/work/p${i}`,
          name: `s${i}`,
          pid: process.pid,
          liveness: 'pid',
          permissionMode: i === 0 ? 'bypassPermissions' : 'default',
        }),
      ),
    );
    const sender = regs[1]!;
    for (let i = 0; i < 100; i++)
      await call('message.send', {
        sessionId: sender.sessionId,
        token: sender.token,
        to: 's0',
        summary: 'bulk',
        message: `held message ${i}`,
      });

    await page.goto(ready.ui);
    await expect(page.getByTestId('sessions').getByRole('row'), 'all 500 sessions render').toHaveCount(501);
    await page.getByRole('button', { name: /^Approvals/ }).click();
    await expect(page.getByTestId('held-item'), 'all 100 held messages render').toHaveCount(100);
    const ms = await page.evaluate(async () => {
      const t0 = performance.now();
      const done = new Promise<number>((resolve) => {
        const obs = new MutationObserver(() => {
          if (document.querySelectorAll('[data-testid=held-item]').length === 99) {
            obs.disconnect();
            resolve(performance.now() - t0);
          }
        });
        obs.observe(document.body, { subtree: true, childList: true });
      });
      (document.querySelector('[data-testid=held-item] button.approve') as HTMLButtonElement).click();
      return done;
    });
    console.log(`scale: approve → list of 100 updated in ${ms.toFixed(1)} ms (measured in the page)`);
    await expect(page.getByTestId('held-item')).toHaveCount(99);
  } finally {
    await page.close(); // before the hub goes: its reconnect attempts would count as failed requests
    await stopAndRemove(root, [hub]);
  }
});
