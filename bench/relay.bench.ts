// Cross-machine send → remote receiver notified, through two hubs and a real
// nats-server on loopback, against a bare NATS request/reply between two
// connections measured in the same run. Both hubs run in this process (as
// do the two bare clients), so the ratio is the hubs' own cost.

import fs from 'node:fs';
import path from 'node:path';
import { connect } from '@nats-io/transport-node';
import { HubClient } from '../core/client/client.js';
import { currentEndpointEnv } from '../core/transport/endpoint.js';
import { startHub, type Hub } from '../core/index.js';
import { startNats } from '../test/helpers/nats.js';
import { fmt, percentile, tempDir } from './lib.js';

const N = Number(process.env.BENCH_N ?? 2_000);
const WARMUP = 200;

async function hubOn(url: string, machine: string): Promise<Hub> {
  const root = tempDir();
  const home = path.join(root, 'home');
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  // Benchmarks measure the pipeline, not loop damping: lift the throttle (a user setting).
  fs.writeFileSync(
    path.join(home, 'settings.json'),
    JSON.stringify({
      relay: { servers: [url], machine },
      throttle: { bucketSize: 10_000, refillPerSecond: 10_000, queueFullAt: 100_000, duplicateWindowMs: 0 },
    }),
  );
  const base = currentEndpointEnv();
  return startHub({
    endpoint: { ...base, env: { SWITCHBOARD_RUNTIME_DIR: path.join(root, 'run'), SWITCHBOARD_HOME: home } },
    managedSettingsPath: path.join(root, 'managed.json'),
    claudeHome: path.join(root, 'claude'),
    limits: { inboxItems: 1_000_000 },
  });
}

async function bare(url: string): Promise<number[]> {
  const a = await connect({ servers: url });
  const b = await connect({ servers: url });
  b.subscribe('bench.echo', { callback: (_e, m) => void m.respond(m.data) });
  await b.flush();
  const samples: number[] = [];
  for (let i = 0; i < N + WARMUP; i++) {
    const t0 = process.hrtime.bigint();
    await a.request('bench.echo', new TextEncoder().encode(JSON.stringify({ i, text: `message ${i}` })), {
      timeout: 5000,
    });
    if (i >= WARMUP) samples.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  await a.close();
  await b.close();
  return samples;
}

async function hubs(url: string): Promise<number[]> {
  const ha = await hubOn(url, 'laptop');
  const hb = await hubOn(url, 'buildbox');
  const ca = await HubClient.connect(ha.paths.hubSocket);
  const cb = await HubClient.connect(hb.paths.hubSocket);
  const alice = await ca.call('session.register', { cwd: '/bench/a', name: 'alice' });
  const bob = await cb.call('session.register', { cwd: '/bench/b', name: 'bob' });
  let notified: (() => void) | undefined;
  cb.on('inbox.item', () => notified?.());
  await cb.call('inbox.subscribe', { sessionId: bob.sessionId, token: bob.token });
  while (!(await ca.call('agents.list', {})).rows.some((r) => r.name === 'bob'))
    await new Promise((r) => setTimeout(r, 50));
  const samples: number[] = [];
  for (let i = 0; i < N + WARMUP; i++) {
    const t0 = process.hrtime.bigint();
    const pushed = new Promise<void>((r) => (notified = r));
    const r = await ca.call('message.send', {
      sessionId: alice.sessionId,
      token: alice.token,
      to: 'bob',
      summary: 'bench',
      message: `message ${i}`,
    });
    if (r.status !== 'queued') throw new Error(`not queued: ${r.status}`);
    await pushed;
    if (i >= WARMUP) samples.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  ca.close();
  cb.close();
  await ha.close();
  await hb.close();
  return samples;
}

export async function run(): Promise<void> {
  const nats = await startNats();
  try {
    const raw = (await bare(nats.url)).sort((x, y) => x - y);
    const relayed = (await hubs(nats.url)).sort((x, y) => x - y);
    console.log(`relay (n=${N}, µs)                      p50      p99`);
    console.log(
      `  bare NATS request/reply          ${fmt(percentile(raw, 50)).padStart(7)}  ${fmt(percentile(raw, 99)).padStart(7)}`,
    );
    console.log(
      `  cross-hub send → remote notified ${fmt(percentile(relayed, 50)).padStart(7)}  ${fmt(percentile(relayed, 99)).padStart(7)}`,
    );
    console.log(`  ratio relayed/bare p50: ${fmt(percentile(relayed, 50) / percentile(raw, 50), 2)}×`);
  } finally {
    await nats.stop();
  }
}
