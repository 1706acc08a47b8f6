// Stock discovery survives what another program's registry makes it do: a
// probe that fails in any way ends one scan (logged), never the hub.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { StockDiscovery } from '../../../core/stock/discovery.js';
import { tempDir } from '../../helpers/temp.js';

function registryWith(dir: string): void {
  const entry = JSON.parse(
    fs.readFileSync(new URL('../../fixtures/claude-code/sessions/48213.json', import.meta.url), 'utf8'),
  ) as Record<string, unknown>;
  delete entry.procStart;
  entry.pid = process.pid; // alive
  entry.messagingSocketPath = path.join(dir, 'peer.sock');
  fs.writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(entry));
}

describe('stock discovery', () => {
  it('a probe that rejects ends the scan with a log line; the scan resolves and lists nothing', async () => {
    const dir = tempDir('sbdisc-');
    registryWith(dir);
    // A real socket of this user: only such an entry gets as far as the probe.
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(path.join(dir, 'peer.sock'), r));
    const logged: string[] = [];
    const changes: number[] = [];
    const d = new StockDiscovery({
      sessionsDir: dir,
      isOurs: () => false,
      onChange: (s) => changes.push(s.length),
      probe: () => Promise.reject(new Error('probe exploded')),
      log: (m, f) => logged.push(`${m}: ${String(f.why)}`),
    });
    await expect(d.scan()).resolves.toBeUndefined();
    expect(d.sessions).toEqual([]);
    expect(logged.some((l) => l.includes('scan failed') && l.includes('probe exploded'))).toBe(true);
    d.close();
    await new Promise<void>((r) => server.close(() => r()));
  });
});
