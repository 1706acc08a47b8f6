// Test helpers: a hub on real sockets in a fresh temp directory, and clients.

import path from 'node:path';
import { HubClient } from '../../core/client/client.js';
import { currentEndpointEnv, type EndpointEnv } from '../../core/transport/endpoint.js';
import { startHub as startCoreHub, type Hub, type HubOptions } from '../../core/index.js';
import type { MethodInput, Registration } from '../../core/protocol/methods.js';
import { tempDir } from './temp.js';

export interface TestDirs {
  root: string;
  runtime: string;
  home: string;
  env: EndpointEnv;
}

/** Short temp directories (socket paths must stay under 100 bytes), removed after the test file (temp.ts). */
export function tempDirs(): TestDirs {
  const root = tempDir('sbt-');
  const runtime = path.join(root, 'run');
  const home = path.join(root, 'home');
  const base = currentEndpointEnv();
  return { root, runtime, home, env: { ...base, env: { SWITCHBOARD_RUNTIME_DIR: runtime, SWITCHBOARD_HOME: home } } };
}

export interface TestHub {
  hub: Hub;
  dirs: TestDirs;
  client(): Promise<HubClient>;
  register(client: HubClient, params?: Partial<MethodInput<'session.register'>>): Promise<Registration>;
  close(): Promise<void>;
}

export async function startHub(opts: Omit<HubOptions, 'endpoint'> = {}, dirs = tempDirs()): Promise<TestHub> {
  const hub = await startCoreHub({
    managedSettingsPath: `${dirs.root}/managed-settings.json`,
    claudeHome: `${dirs.root}/claude`,
    qwenHome: `${dirs.root}/qwen`,
    ...opts,
    endpoint: dirs.env,
  });
  const clients: HubClient[] = [];
  return {
    hub,
    dirs,
    async client() {
      const c = await HubClient.connect(hub.paths.hubSocket);
      clients.push(c);
      return c;
    },
    register(client, params = {}) {
      return client.call('session.register', { cwd: dirs.root, ...params });
    },
    async close() {
      for (const c of clients) c.close();
      await hub.close();
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Polls `check` every 20 ms until it returns true. The bound only ends a
 * real hang (a loaded 2-core machine must never reach it): tests wait for
 * what they wait for, and leave speed claims to bench/.
 */
export async function until(check: () => boolean | Promise<boolean>, hangMs = UNTIL_HANG_MS): Promise<void> {
  const deadline = Date.now() + hangMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`condition still not met after ${hangMs} ms (a hang, not a slow machine)`);
    await sleep(20);
  }
}

/**
 * Every wake that what happened so far started has ended (core/wake: Waker.settled), and two turns of the event
 * loop have passed, so what it wrote to a socket in this process has been read there. The event a test waits on
 * to say "nothing was woken" or "written once", instead of a span of time.
 */
export async function wakesSettled(hub: Hub): Promise<void> {
  await hub.wake.settled();
  for (let turn = 0; turn < 2; turn++) await new Promise((r) => setImmediate(r));
}

/** How long until() waits before it calls a wait a hang. */
export const UNTIL_HANG_MS = 30_000;

/** A raw NDJSON connection for attack tests: write anything, read lines. */
export interface RawConn {
  write(data: string | Buffer): void;
  next(timeoutMs?: number): Promise<Record<string, unknown>>;
  closed: Promise<void>;
  destroy(): void;
}

export async function rawConnect(socketPath: string): Promise<RawConn> {
  const net = await import('node:net');
  const sock = net.connect(socketPath);
  await new Promise<void>((resolve, reject) => {
    sock.once('connect', resolve);
    sock.once('error', reject);
  });
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  let buf = '';
  sock.on('data', (chunk: Buffer) => {
    buf += chunk.toString('utf8');
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      lines.push(buf.slice(0, i));
      buf = buf.slice(i + 1);
      waiters.shift()?.();
    }
  });
  sock.on('error', () => undefined);
  const closed = new Promise<void>((r) => sock.once('close', () => r()));
  return {
    write: (data) => void sock.write(data),
    async next(timeoutMs = UNTIL_HANG_MS) {
      if (lines.length === 0) {
        await new Promise<void>((resolve, reject) => {
          const t = setTimeout(() => reject(new Error(`no line within ${timeoutMs} ms`)), timeoutMs);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
      return JSON.parse(lines.shift()!) as Record<string, unknown>;
    },
    closed,
    destroy: () => sock.destroy(),
  };
}

/** A controllable clock for the hub: wall and monotonic time advance together. */
export function fakeClock(start = 1_700_000_000_000) {
  let offset = 0;
  const listeners = new Set<() => void>();
  return {
    now: () => start + offset,
    monotonic: () => offset,
    /** Timers the hub set for a moment (kit/alarm.ts) follow the jump. */
    onAdvance(listener: () => void): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    advance(ms: number) {
      offset += ms;
      for (const l of [...listeners]) l();
    },
  };
}

/** A logger that keeps what it was told, for assertions. */
export function memoryLogger() {
  const lines: Array<{ level: string; msg: string; fields?: Record<string, unknown> }> = [];
  const at = (level: string) => (msg: string, fields?: Record<string, unknown>) =>
    void lines.push({ level, msg, ...(fields ? { fields } : {}) });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}
