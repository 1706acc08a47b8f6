// Runs one real agent process offline: in a private network namespace
// (`unshare -n`, loopback only) with an emptied environment and an isolated
// HOME, its model API reached through forward.mjs (127.0.0.1:<port> inside,
// the scripted server's Unix socket outside). The agent's pid is the child's
// pid (unshare and sh exec). Everything it started carries a marker variable
// and is stopped by pid; nothing is killed by name.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { stopPid, stopProcess } from '../../helpers/processes.js';

export const MODEL_PORT = 8765; // inside the namespace only: no clash between agents
const FORWARDER = new URL('./forward.mjs', import.meta.url).pathname;
const MARKER = 'SWITCHBOARD_AGENT_SUITE_RUN';
const STOP_GRACE_MS = 5000;
const OUTPUT_KEPT = 256 * 1024;

export function requireTools(): void {
  for (const tool of ['unshare', 'ip', 'tar', 'npm']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
      throw new Error(
        `the real-agent suite needs ${tool} (apt-get install util-linux iproute2); set SWITCHBOARD_SKIP_AGENTS=1 to opt out (docs/integrations.md)`,
      );
  }
  if (spawnSync('sh', ['-c', `${unshareCmd()} true`]).status !== 0)
    throw new Error(
      `cannot create a private network namespace with "${unshareCmd()}" here; set SWITCHBOARD_SKIP_AGENTS=1 to opt out`,
    );
}

function unshareCmd(): string {
  return process.getuid?.() === 0 ? 'unshare -n' : 'unshare -rn';
}

export interface LaunchOptions {
  /** A short label, unique within `root`. */
  name: string;
  root: string;
  cwd: string;
  /** argv: the binary (or node) first. */
  argv: string[];
  env: Record<string, string>;
  modelSocket: string;
  /** Keep the agent's stdin open for `input()` (e.g. Claude Code's stream-json turns); else it is /dev/null. */
  stdin?: boolean;
  /** A TCP port the agent listens on inside, reachable from outside through this Unix socket (e.g. `opencode serve`). */
  expose?: { port: number; socket: string };
}

export interface AgentProcess {
  name: string;
  pid: number;
  cwd: string;
  /** stdout and stderr so far (the tail). */
  output(): string;
  stdout(): string;
  exited: Promise<number | null>;
  /** Writes one line to the agent's stdin (launched with `stdin: true`). */
  input(line: string): void;
  /** Closes the agent's stdin. */
  endInput(): void;
  alive(): boolean;
  /** Waits for the agent to exit by itself; throws with its output after `ms`. */
  waitExit(ms: number): Promise<number | null>;
  stop(): Promise<void>;
}

const q = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

/**
 * Pids of every process whose environment carries this run's marker, or
 * this run's HOME (agents may strip the marker from what they start: Codex
 * passes its MCP servers only a short list of variables, HOME among them).
 */
/**
 * How long the suite waits for an agent to do what it waits for (start, a model request, exit): a bound
 * only a hang reaches. A loaded 2-core machine starts these agents slowly (over a minute was seen), so the
 * bound is generous; a real hang costs this once per test.
 */
export const AGENT_HANG_MS = 180_000;

export function markedPids(root: string, home: string): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const env = fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      if (env.includes(`${MARKER}=${root}`) || env.includes(`HOME=${home}`)) out.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/** Stops, by pid, whatever this run's agents left behind (MCP servers, helpers). */
export async function sweep(root: string, home: string): Promise<void> {
  await Promise.all(markedPids(root, home).map((pid) => stopPid(pid, 'SIGTERM', 2000)));
}

export function launch(o: LaunchOptions): AgentProcess {
  const run = path.join(o.root, 'run');
  fs.mkdirSync(run, { recursive: true, mode: 0o700 });
  fs.mkdirSync(o.cwd, { recursive: true });
  const pidfile = path.join(run, `forward-${o.name}.pid`);
  fs.rmSync(pidfile, { force: true });
  const env = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    [MARKER]: o.root,
    ...o.env,
  };
  const script = [
    '#!/bin/sh',
    'ip link set lo up || exit 96',
    `${q(process.execPath)} ${q(FORWARDER)} ${MODEL_PORT} ${q(o.modelSocket)} ${q(pidfile)} &`,
    `i=0; while [ ! -s ${q(pidfile)} ]; do i=$((i+1)); [ $i -gt 200 ] && exit 95; sleep 0.05; done`,
    ...(o.expose
      ? [
          `${q(process.execPath)} ${q(FORWARDER)} --reverse ${o.expose.port} ${q(o.expose.socket)} ${q(pidfile + '.r')} &`,
        ]
      : []),
    `cd ${q(o.cwd)} || exit 97`,
    `exec env -i ${Object.entries(env)
      .map(([k, v]) => q(`${k}=${v}`))
      .join(' ')} ${o.argv.map(q).join(' ')}`,
  ].join('\n');
  const launcher = path.join(o.root, `launch-${o.name}.sh`);
  fs.writeFileSync(launcher, script + '\n', { mode: 0o700 });
  const [cmd, ...args] = unshareCmd().split(' ');
  const child: ChildProcess = spawn(cmd!, [...args, launcher], {
    stdio: [o.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', [MARKER]: o.root },
  });
  let out = '';
  let stdout = '';
  const keep = (s: string): string => (s.length > OUTPUT_KEPT ? s.slice(-OUTPUT_KEPT) : s);
  child.stdout!.on('data', (d: Buffer) => {
    out = keep(out + d.toString());
    stdout = keep(stdout + d.toString());
  });
  child.stderr!.on('data', (d: Buffer) => (out = keep(out + d.toString())));
  let done = false;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => ((done = true), resolve(code))));
  const pid = child.pid!;
  const proc: AgentProcess = {
    name: o.name,
    pid,
    cwd: o.cwd,
    output: () => out,
    stdout: () => stdout,
    exited,
    input(line) {
      if (!child.stdin) throw new Error(`${o.name} was launched without stdin`);
      child.stdin.write(line + '\n');
    },
    endInput: () => child.stdin?.end(),
    alive: () => !done,
    async waitExit(ms) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>(
        (_, reject) =>
          (timer = setTimeout(
            () => reject(new Error(`${o.name} did not exit within ${ms} ms; output:\n${out.slice(-4000)}`)),
            ms,
          )),
      );
      try {
        return await Promise.race([exited, late]);
      } finally {
        clearTimeout(timer);
      }
    },
    async stop() {
      await stopProcess(child, 'SIGTERM', STOP_GRACE_MS);
      const forwarder = Number(fs.existsSync(pidfile) ? fs.readFileSync(pidfile, 'utf8') : NaN);
      if (Number.isInteger(forwarder) && forwarder > 0) await stopPid(forwarder);
      const reverse = Number(fs.existsSync(pidfile + '.r') ? fs.readFileSync(pidfile + '.r', 'utf8') : NaN);
      if (Number.isInteger(reverse) && reverse > 0) await stopPid(reverse);
    },
  };
  return proc;
}
