// A hub in this process under its own temp root, for the benchmarks that
// count truth rather than speed (faults, away, full-disk): its user settings
// are written first, with the throttle lifted (loop damping is not what they
// measure), and a client is connected to its socket.

import fs from 'node:fs';
import path from 'node:path';
import { HubClient } from '../core/client/client.js';
import { startHub, type Hub } from '../core/index.js';
import type { Limits } from '../core/protocol/limits.js';
import { currentEndpointEnv } from '../core/transport/endpoint.js';

/** The throttle lifted: every send is admitted, none folded or dropped as a duplicate. */
export const NO_THROTTLE = { bucketSize: 10_000, refillPerSecond: 10_000, queueFullAt: 100_000, duplicateWindowMs: 0 };

export interface InProcessHub {
  root: string;
  hub: Hub;
  client: HubClient;
}

/** Starts a hub under `root` (state in `root/home`, which may already be a mount) with these user settings. */
export async function inProcessHub(
  root: string,
  settings: Record<string, unknown>,
  limits?: Partial<Limits>,
): Promise<InProcessHub> {
  const home = path.join(root, 'home');
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ throttle: NO_THROTTLE, ...settings }));
  const base = currentEndpointEnv();
  const hub = await startHub({
    endpoint: { ...base, env: { SWITCHBOARD_RUNTIME_DIR: path.join(root, 'run'), SWITCHBOARD_HOME: home } },
    managedSettingsPath: path.join(root, 'managed.json'),
    claudeHome: path.join(root, 'claude'),
    ...(limits !== undefined ? { limits } : {}),
  });
  return { root, hub, client: await HubClient.connect(hub.paths.hubSocket) };
}

export async function stopInProcess(m: InProcessHub): Promise<void> {
  m.client.close();
  await m.hub.close();
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits for `f` (polled every 20 ms); past `boundMs` it throws naming `what` — a hang, not a slow machine. */
export async function until(what: string, f: () => Promise<boolean> | boolean, boundMs = 120_000): Promise<void> {
  const end = Date.now() + boundMs;
  while (!(await f())) {
    if (Date.now() > end) throw new Error(`${what} did not happen within ${boundMs} ms`);
    await sleep(20);
  }
}
