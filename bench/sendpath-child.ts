// The send path in one process, without sockets: 100 sessions registered,
// then `total` message.send lines, 2000 in flight, each parsed, validated
// against METHODS, dispatched and answered as the hub socket does. Prints
// {"cpuUs":…,"wallUs":…,"queued":…} (per message). Used by the `hub` child
// entry point's `sendpath` mode (children.ts) so another build can run it too.
// `historyBlocks` runs the same path with history switched on and off in
// alternating blocks (ABBA) inside one hub, so a shared machine's slow drifts
// hit both alike: CPU per message of each block, history on and off.

import fs from 'node:fs';
import path from 'node:path';
import { currentEndpointEnv } from '../core/transport/endpoint.js';
import { startHub, type Hub } from '../core/index.js';
import { METHODS } from '../core/protocol/methods.js';

const IN_FLIGHT = 2000;

interface Bench {
  hub: Hub;
  /** Sends lines [from, to) in batches of IN_FLIGHT; resolves when all are answered. */
  send(from: number, to: number): Promise<void>;
  answered(): number;
}

async function open(dir: string, total: number): Promise<Bench> {
  fs.mkdirSync(path.join(dir, 'home'), { recursive: true, mode: 0o700 });
  fs.writeFileSync(
    path.join(dir, 'home', 'settings.json'),
    JSON.stringify({
      throttle: { bucketSize: 10_000, refillPerSecond: 10_000, queueFullAt: 100_000, duplicateWindowMs: 0 },
    }),
  );
  const base = currentEndpointEnv();
  const hub = await startHub({
    endpoint: {
      ...base,
      env: { SWITCHBOARD_RUNTIME_DIR: path.join(dir, 'run'), SWITCHBOARD_HOME: path.join(dir, 'home') },
    },
    limits: { inboxItems: total },
    claudeHome: path.join(dir, 'claude'),
    history: process.env.BENCH_HISTORY !== 'off',
  });
  const conn = { id: 1, notify: () => undefined, closed: false };
  const sessions: Array<{ sessionId: string; token: string }> = [];
  for (let i = 0; i < 100; i++)
    sessions.push(
      (await hub.dispatch(
        'session.register',
        METHODS['session.register'].params.parse({ cwd: '/bench', name: `s-${i}` }),
        conn,
      )) as { sessionId: string; token: string },
    );
  const lines: string[] = [];
  for (let sent = 0; sent < total; sent++) {
    const s = sessions[sent % 100]!;
    let to = ((sent % 4) + sent * 7) % 100;
    if (to === sent % 100) to = (to + 1) % 100;
    lines.push(
      `{"jsonrpc":"2.0","id":${sent + 1000},"method":"message.send","params":{"sessionId":"${s.sessionId}","token":"${s.token}","to":"s-${to}","summary":"bench","message":"message ${sent % 4}-${sent}"}}`,
    );
  }
  let bytes = 0;
  const one = (line: string): Promise<void> => {
    const req = JSON.parse(line) as { id: number; params: unknown };
    const spec = METHODS['message.send'];
    const params = spec.accept?.(req.params) ?? spec.params.parse(req.params); // as the hub socket does
    return (hub.dispatch('message.send', params, conn) as Promise<unknown>).then((result) => {
      bytes += JSON.stringify({ jsonrpc: '2.0', id: req.id, result }).length;
    });
  };
  return {
    hub,
    async send(from, to) {
      for (let i = from; i < to; i += IN_FLIGHT)
        await Promise.all(lines.slice(i, Math.min(to, i + IN_FLIGHT)).map(one));
    },
    answered: () => bytes,
  };
}

export async function sendPath(dir: string, total: number): Promise<{ cpuUs: number; wallUs: number; queued: number }> {
  const b = await open(dir, total);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await b.send(0, total);
  const c = process.cpuUsage(c0);
  const wallUs = ((performance.now() - t0) * 1000) / total;
  const queued = b.hub.mailboxes.totalItems;
  await b.hub.close();
  if (b.answered() === 0) throw new Error('no answers');
  return { cpuUs: (c.user + c.system) / total, wallUs, queued };
}

/** History's four send-path entry points, switchable: off, they record nothing (as a hub with history off). */
function switchable(hub: Hub): (on: boolean) => void {
  const h = hub.history;
  const proto = Object.getPrototypeOf(h) as typeof h;
  let on = true;
  Object.assign(h, {
    message: (...a: Parameters<typeof h.message>) => on && proto.message.apply(h, a),
    outcome: (...a: Parameters<typeof h.outcome>) => (on ? proto.outcome.apply(h, a) : undefined),
    item: (...a: Parameters<typeof h.item>) => (on ? proto.item.apply(h, a) : undefined),
    activity: (...a: Parameters<typeof h.activity>) => (on ? proto.activity.apply(h, a) : undefined),
  });
  return (v) => (on = v);
}

/** `pairs` × 2 blocks of `block` messages, history on/off in ABBA order; CPU µs per message of each block. */
export async function historyBlocks(
  dir: string,
  pairs: number,
  block: number,
): Promise<{ on: number[]; off: number[]; queued: number }> {
  const warm = 2 * block; // compiled and warmed before any block counts
  const b = await open(dir, warm + pairs * 2 * block);
  if (!b.hub.history.enabled) throw new Error('history is off in this runtime');
  const setOn = switchable(b.hub);
  await b.send(0, warm);
  const on: number[] = [];
  const off: number[] = [];
  for (let k = 0; k < pairs * 2; k++) {
    const historyOn = k % 4 === 0 || k % 4 === 3; // on off off on | on off off on …
    setOn(historyOn);
    const c0 = process.cpuUsage();
    await b.send(warm + k * block, warm + (k + 1) * block);
    const c = process.cpuUsage(c0);
    (historyOn ? on : off).push((c.user + c.system) / block);
  }
  const queued = b.hub.mailboxes.totalItems;
  await b.hub.close();
  return { on, off, queued };
}
