// A real nats-server on a loopback port, for the relay tests, the browser
// test and the benchmark (Debian's nats-server package; .ci/run installs
// it). Fails clearly when the binary is missing. No core/ imports, so the
// Playwright and benchmark bundles can use it as is.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { stopProcess } from './processes.js';

export function natsServerPath(): string {
  for (const p of [process.env.NATS_SERVER, '/usr/sbin/nats-server', '/usr/bin/nats-server'])
    if (p && fs.existsSync(p)) return p;
  const which = spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' });
  if (which.status === 0) return which.stdout.trim();
  throw new Error('this needs nats-server (apt-get install nats-server, or NATS_SERVER=/path)');
}

export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

export interface Nats {
  port: number;
  url: string;
  /** http://127.0.0.1:port of the monitoring endpoint, when asked for. */
  monitorUrl?: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

export interface NatsOptions {
  /** JetStream on (`-js`), its files in this directory (the same one across restarts keeps the stored mail). */
  jetstreamDir?: string;
  /**
   * How often the broker pings a silent client; after 2 unanswered pings it drops the connection (a laptop asleep).
   * Written to a config file next to jetstreamDir (or in the temp directory).
   */
  pingSeconds?: number;
  /** The monitoring endpoint on (`-m`, a free port): `monitorUrl` answers /connz. */
  monitor?: boolean;
}

/** Starts nats-server on 127.0.0.1 (a free port unless given) and waits until it accepts connections. */
export async function startNats(port?: number, opts: NatsOptions = {}): Promise<Nats> {
  const p = port ?? (await freePort());
  const args = ['-a', '127.0.0.1', '-p', String(p)];
  if (opts.jetstreamDir !== undefined) args.push('-js', '-sd', opts.jetstreamDir);
  if (opts.pingSeconds !== undefined) {
    const conf = path.join(opts.jetstreamDir ?? os.tmpdir(), `nats-${p}.conf`);
    fs.mkdirSync(path.dirname(conf), { recursive: true });
    fs.writeFileSync(conf, `ping_interval: "${opts.pingSeconds}s"\nping_max: 2\n`);
    args.push('-c', conf);
  }
  const monitorPort = opts.monitor === true ? await freePort() : undefined;
  if (monitorPort !== undefined) args.push('-m', String(monitorPort));
  const proc = spawn(natsServerPath(), args, { stdio: 'ignore' });
  const deadline = Date.now() + 60_000; // only a hang reaches it
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(p, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) break;
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`nats-server did not start on port ${p}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port: p,
    url: `nats://127.0.0.1:${p}`,
    ...(monitorPort !== undefined ? { monitorUrl: `http://127.0.0.1:${monitorPort}` } : {}),
    proc,
    stop: async () => {
      await stopProcess(proc, 'SIGKILL');
    },
  };
}

/** The names of the clients connected to the broker now (its monitoring endpoint). */
export async function connectedNames(nats: Nats): Promise<string[]> {
  if (nats.monitorUrl === undefined) throw new Error('start the broker with { monitor: true }');
  const r = (await (await fetch(`${nats.monitorUrl}/connz`)).json()) as { connections?: Array<{ name?: string }> };
  return (r.connections ?? []).map((c) => c.name ?? '');
}
