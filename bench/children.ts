// Child processes for the benchmarks, one entry point selected by argv[2]:
//   hub  <dir> <limits-json> [off] — a Hub with the given limits, journal on (history off with `off` or BENCH_HISTORY=off)
//   echo <socket>             — raw NDJSON echo: JSON.parse each line, write one JSON line back
//   sink <socket>             — raw NDJSON sink: JSON.parse each line, report the count on "end"
//   sendpath <dir> <total>    — the send path in this process, no sockets (sendpath-child.ts): prints its result
//   historyblocks <dir> <pairs> <block> — the same, history on and off in alternating blocks of one hub
//   flood <socket> <conns> <frames> — storm: <conns> connections write <frames> malformed
//                               frames in total at once, read every answer, then print {"done":ms}
// Each prints one JSON line {"ready":…} on stdout when listening.

import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { currentEndpointEnv } from '../core/transport/endpoint.js';
import { startHub } from '../core/index.js';
import type { Limits } from '../core/protocol/limits.js';
import { LineSplitter } from '../core/protocol/ndjson.js';
import { historyBlocks, sendPath } from './sendpath-child.js';
import { breakdown } from './breakdown.js';
import { withFewMallocArenas } from '../cli/malloc-arenas.js';

const [mode, target, extra, historyArg] = process.argv.slice(2);
// As `switchboard serve` does (cli/malloc-arenas.ts): the benchmark hub is the product's hub process.
if (mode === 'hub') withFewMallocArenas();
let reports = 0;

async function main(): Promise<void> {
  if (mode === 'hub') {
    const dir = target as string;
    const limits = JSON.parse(extra ?? '{}') as Partial<Limits>;
    // Benchmarks measure the pipeline, not loop damping: lift the throttle (a user setting).
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
      limits,
      claudeHome: path.join(dir, 'claude'),
      history: historyArg !== 'off' && process.env.BENCH_HISTORY !== 'off',
    });
    process.stdout.write(JSON.stringify({ ready: hub.paths.hubSocket, pid: process.pid, uiToken: hub.uiToken }) + '\n');
    process.on('SIGTERM', () => void hub.close().then(() => process.exit(0)));
    // Memory breakdown on demand, for the memory benchmark's report.
    process.on('SIGUSR2', () => {
      const gc = (globalThis as { gc?: (o?: unknown) => void }).gc;
      if (process.env.BENCH_GC === 'last-resort') gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
      else gc?.();
      if (!process.env.BENCH_BREAKDOWN) process.stderr.write(JSON.stringify({ memory: process.memoryUsage() }) + '\n');
      // V8 gives the freed pages back from a helper thread: read the breakdown a moment later.
      else setTimeout(() => process.stderr.write(JSON.stringify(breakdown(`r${++reports}`)) + '\n'), 1000);
    });
    return;
  }
  if (mode === 'sendpath') {
    process.stdout.write(
      JSON.stringify({ ready: '', pid: process.pid, ...(await sendPath(target as string, Number(extra))) }) + '\n',
    );
    process.exit(0);
  }
  if (mode === 'historyblocks') {
    const r = await historyBlocks(target as string, Number(extra), Number(historyArg));
    process.stdout.write(JSON.stringify({ ready: '', pid: process.pid, ...r }) + '\n');
    process.exit(0);
  }
  if (mode === 'flood') return flood(target as string, Number(extra), Number(process.argv[5]));
  const socket = target as string;
  fs.rmSync(socket, { force: true });
  const server = net.createServer((sock) => {
    const splitter = new LineSplitter(1 << 20);
    let count = 0;
    sock.on('data', (chunk: Buffer) => {
      let out = '';
      splitter.push(chunk, (line) => {
        const msg = JSON.parse(line) as { id?: number; end?: boolean };
        count++;
        if (mode === 'echo') out += JSON.stringify({ id: msg.id, ok: true }) + '\n';
        else if (msg.end) out += JSON.stringify({ count }) + '\n';
      });
      if (out) sock.write(out);
    });
  });
  server.listen(socket, () => process.stdout.write(JSON.stringify({ ready: socket, pid: process.pid }) + '\n'));
}

const MALFORMED = [
  'not json',
  '[1,2,3]',
  '{"jsonrpc":"1.0","id":1,"method":"hub.info"}',
  '{"jsonrpc":"2.0","id":2,"method":"no.such.method"}',
  '{"jsonrpc":"2.0","id":3,"method":"session.register","params":{"cwd":5}}',
];

async function flood(socket: string, conns: number, frames: number): Promise<void> {
  const per = Math.ceil(frames / conns);
  const payload = Array.from({ length: per }, (_, i) => MALFORMED[i % MALFORMED.length]).join('\n') + '\n';
  const socks = await Promise.all(
    Array.from(
      { length: conns },
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const s = net.connect(socket, () => resolve(s));
          s.once('error', reject);
        }),
    ),
  );
  process.stdout.write(JSON.stringify({ ready: socket, pid: process.pid }) + '\n');
  const t0 = process.hrtime.bigint();
  let open = conns;
  for (const s of socks) {
    let answers = 0;
    s.on('data', (chunk: Buffer) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) answers++;
      if (answers < per) return;
      s.removeAllListeners('data');
      s.destroy();
      if (--open === 0)
        process.stdout.write(JSON.stringify({ done: Number(process.hrtime.bigint() - t0) / 1e6 }) + '\n');
    });
    s.write(payload);
  }
}

void main();
