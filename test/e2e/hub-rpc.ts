// A real `switchboard serve --ui` in a temp directory and a minimal
// JSON-RPC line client on its socket, for browser tests that set up many
// sessions and messages quickly. Errors come back as `{ error }`, never thrown.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { tempDir } from '../helpers/temp.js';

const CLI = path.resolve('dist/cli/switchboard.mjs');

export type Rpc = (method: string, params: unknown) => Promise<Record<string, unknown>>;

export interface Served {
  root: string;
  hub: ChildProcess;
  /** The UI URL with its `#token=` fragment. */
  ui: string;
  uiToken: string;
  call: Rpc;
  close(): void;
}

export async function serve(settings: Record<string, unknown> = {}): Promise<Served> {
  const root = tempDir('sbp-');
  fs.mkdirSync(path.join(root, 'home'), { mode: 0o700 });
  fs.writeFileSync(path.join(root, 'home', 'settings.json'), JSON.stringify(settings));
  const env = {
    PATH: process.env.PATH,
    HOME: root,
    SWITCHBOARD_RUNTIME_DIR: path.join(root, 'run'),
    SWITCHBOARD_HOME: path.join(root, 'home'),
    CLAUDE_CONFIG_DIR: path.join(root, 'claude'),
  };
  const hub = spawn(process.execPath, [CLI, 'serve', '--ui', '--port', '0', '--json', '--quiet'], { env });
  const ready = await new Promise<{ ui: string; socket: string }>((resolve, reject) => {
    let out = '';
    hub.once('exit', (code) => reject(new Error(`serve exited (${code})`)));
    hub.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as { ui: string; socket: string });
    });
  });
  const rpc = await rpcClient(ready.socket);
  const uiToken = decodeURIComponent(new URL(ready.ui).hash.replace(/^#token=/, ''));
  return { root, hub, ui: ready.ui, uiToken, call: rpc.call, close: rpc.close };
}

/** A JSON-RPC line client on a hub socket, kept open: sessions registered on it live while it does. */
export async function rpcClient(socket: string): Promise<{ call: Rpc; close: () => void }> {
  const s = net.connect(socket);
  await new Promise((r) => s.once('connect', r));
  let buf = '';
  let id = 0;
  const waiting = new Map<number, (v: Record<string, unknown>) => void>();
  s.on('data', (d: Buffer) => {
    buf += d.toString();
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const msg = JSON.parse(buf.slice(0, i)) as { id: number; result?: Record<string, unknown>; error?: unknown };
      buf = buf.slice(i + 1);
      waiting.get(msg.id)?.(msg.result ?? { error: msg.error });
      waiting.delete(msg.id);
    }
  });
  s.on('error', () => undefined); // a hub that stops under it (a restart test) ends nothing here
  return {
    call: (method, params) =>
      new Promise((resolve) => {
        waiting.set(++id, resolve);
        s.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
      }),
    close: () => s.destroy(),
  };
}
