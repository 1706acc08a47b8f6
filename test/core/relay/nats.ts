// Relay test helpers: the real broker (test/helpers/nats.ts) and hubs acting as machines.
import fs from 'node:fs';
import path from 'node:path';
import { startHub, tempDirs, type TestHub } from '../../helpers/hub.js';
import type { Nats } from '../../helpers/nats.js';

export { startNats, type Nats } from '../../helpers/nats.js';

/** A hub acting as one machine: its own runtime and state directories, the relay pointed at `nats`. */
export async function machine(
  name: string,
  nats: Nats,
  extra: Record<string, unknown> = {},
  opts: Parameters<typeof startHub>[0] = {},
): Promise<TestHub> {
  const dirs = tempDirs();
  fs.mkdirSync(dirs.home, { recursive: true, mode: 0o700 });
  fs.writeFileSync(
    path.join(dirs.home, 'settings.json'),
    JSON.stringify({ relay: { servers: [nats.url], machine: name, presenceSeconds: 3 }, ...extra }),
  );
  return startHub(opts, dirs);
}
