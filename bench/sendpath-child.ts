// The send path in one process, without sockets: 100 sessions registered,
// then `total` message.send lines, 2000 in flight, each parsed, validated
// against METHODS, dispatched and answered as the hub socket does. Prints
// {"cpuUs":…,"wallUs":…,"queued":…} (per message). Used by the `hub` child
// entry point's `sendpath` mode (children.ts) so another build can run it too.

import fs from 'node:fs';
import path from 'node:path';
import { currentEndpointEnv } from '../core/transport/endpoint.js';
import { startHub } from '../core/index.js';
import { METHODS } from '../core/protocol/methods.js';

export async function sendPath(dir: string, total: number): Promise<{ cpuUs: number; wallUs: number; queued: number }> {
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
    const parsed = METHODS['message.send'].params.safeParse(req.params);
    if (!parsed.success) throw new Error('bench request did not validate');
    return (hub.dispatch('message.send', parsed.data, conn) as Promise<unknown>).then((result) => {
      bytes += JSON.stringify({ jsonrpc: '2.0', id: req.id, result }).length;
    });
  };
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < total; i += 2000) await Promise.all(lines.slice(i, i + 2000).map(one));
  const c = process.cpuUsage(c0);
  const wallUs = ((performance.now() - t0) * 1000) / total;
  const queued = hub.mailboxes.totalItems;
  await hub.close();
  if (bytes === 0) throw new Error('no answers');
  return { cpuUs: (c.user + c.system) / total, wallUs, queued };
}
