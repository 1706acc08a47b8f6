// What an idle hub costs the laptop it lives on: CPU milliseconds
// per minute, wakeups per second and RSS of a hub process with 0, 10 and 100
// idle sessions, and with none left after 100 came and went (each in its own
// project folder, as agents are). Sessions register as the hooks do: bound
// to a live process (`liveness: "pid"`, a `sleep` each), the registering
// connection closed. Measured in the same run and the same way: a bare Node
// process listening on a Unix socket (the floor any hub pays), and with
// BENCH_BASE_HUB=<children.mjs of an older build> that hub too, row by row;
// each row's ratio is against that baseline hub's same row (else the floor).
// Linux only (/proc): CPU from utime+stime of /proc/<pid>/stat; a wakeup is
// a voluntary context switch of the hub's main thread (its event loop going
// back to sleep), from /proc/<pid>/status.

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { cpuSeconds, fmt, LineConn, rpc, rssMb, startChild, tempDir, voluntarySwitches, type Child } from './lib.js';

/** How long each row is measured (BENCH_IDLE_MS): a minute resolves 0.02 wakeups/s and 10 ms of CPU. */
const WINDOW_MS = Number(process.env.BENCH_IDLE_MS ?? 60_000);
/** Start-up and registration settle first: the journal's group commit, history's flush, and the hub's
 * one-second reclaim ticks that follow any activity for 15 s (core/host/sweep.ts). */
const SETTLE_MS = 20_000;
const BASE_HUB = process.env.BENCH_BASE_HUB;

interface Row {
  cpuMsPerMin: number;
  wakeupsPerS: number;
  rss: number;
}

async function measure(pid: number): Promise<Row> {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const cpu0 = cpuSeconds(pid);
  const sw0 = voluntarySwitches(pid);
  await new Promise((r) => setTimeout(r, WINDOW_MS));
  const cpu = cpuSeconds(pid) - cpu0;
  const sw = voluntarySwitches(pid) - sw0;
  return { cpuMsPerMin: (cpu * 1000 * 60_000) / WINDOW_MS, wakeupsPerS: (sw * 1000) / WINDOW_MS, rss: rssMb(pid) };
}

/** The floor: Node listening on a Unix socket, nothing else. */
async function bare(): Promise<Row> {
  const sock = path.join(tempDir(), 'bare.sock');
  const proc = spawn(
    process.execPath,
    ['-e', `require('node:net').createServer().listen(${JSON.stringify(sock)}, () => console.log('ready'))`],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((r) => proc.stdout.once('data', r));
  const row = await measure(proc.pid!);
  await stop(proc);
  return row;
}

function stop(proc: ChildProcess): Promise<void> {
  return new Promise((r) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return r();
    proc.once('exit', () => r());
    proc.kill('SIGTERM');
  });
}

/** A hub with `n` idle pid-bound sessions; `leave`: the sessions' processes exit before measuring. */
async function hubRow(n: number, script: string | undefined, leave = false): Promise<Row> {
  const hub: Child = await startChild(['hub', tempDir(), '{}'], script);
  const agents: ChildProcess[] = [];
  for (let i = 0; i < n; i++) {
    const agent = spawn('sleep', ['3600'], { stdio: 'ignore' });
    agents.push(agent);
    const conn = await LineConn.connect(hub.socket);
    await rpc(conn, 1, 'session.register', {
      cwd: `/bench/idle/project-${i}`,
      name: `agent-${i}`,
      pid: agent.pid,
      liveness: 'pid',
    });
    conn.close();
  }
  if (leave) {
    await Promise.all(agents.map(stop));
    // They leave at the hub's next liveness check, whatever its interval: wait until none is listed.
    const conn = await LineConn.connect(hub.socket);
    for (let id = 1; (await rpc(conn, id, 'hub.info', {})).sessions !== 0; id++)
      await new Promise((r) => setTimeout(r, 500));
    conn.close();
  }
  const row = await measure(hub.pid);
  await hub.stop();
  await Promise.all(agents.map(stop));
  return row;
}

function line(label: string, r: Row, floor: Row): string {
  if (floor.cpuMsPerMin === 0 && floor.wakeupsPerS === 0) floor = { ...floor, cpuMsPerMin: NaN, wakeupsPerS: NaN };
  const ratio = (a: number, b: number): string => (b > 0 ? `${fmt(a / b, 2)}×` : 'n/a');
  return (
    `  ${label.padEnd(34)} ${fmt(r.cpuMsPerMin, 0).padStart(5)} ms/min (${ratio(r.cpuMsPerMin, floor.cpuMsPerMin).padStart(6)})` +
    `  ${fmt(r.wakeupsPerS, 2).padStart(6)} wakeups/s (${ratio(r.wakeupsPerS, floor.wakeupsPerS).padStart(6)})` +
    `  ${fmt(r.rss).padStart(6)} MB`
  );
}

export async function run(): Promise<void> {
  const floor = await bare();
  console.log(
    `idle cost (${WINDOW_MS / 1000} s per row; ratios against ${BASE_HUB !== undefined ? 'the base hub' : 'the bare Node floor'})`,
  );
  console.log(line('bare node, a listening socket', floor, floor));
  const cases: Array<[string, number, boolean]> = [
    ['0 sessions', 0, false],
    ['10 idle sessions', 10, false],
    ['100 idle sessions', 100, false],
    ['0 sessions, after 100 ended', 100, true],
  ];
  for (const [label, n, leave] of cases) {
    const base = BASE_HUB !== undefined ? await hubRow(n, BASE_HUB, leave) : floor;
    if (BASE_HUB !== undefined) console.log(line(`base: ${label}`, base, floor));
    console.log(line(`hub:  ${label}`, await hubRow(n, undefined, leave), base));
  }
}
