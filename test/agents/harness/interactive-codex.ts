// Interactive Codex for the real-agent suite (waking idle sessions): the pinned TUI in a
// tmux pane, in a private network namespace like launch.ts (forwarder to the
// scripted model, emptied environment with the run's marker and the world's
// HOME, XDG_RUNTIME_DIR and TMPDIR). The TUI starts Codex's shared
// app-server daemon, which runs its threads, MCP servers and hooks; that
// daemon carries the world's HOME, so world.close sweeps it by pid.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startModelServer, type Step } from '../model/server.js';
import { agentCommand } from './binaries.js';
import { pidGone, sendSignal, stopPid, stopProcess } from '../../helpers/processes.js';
import { markedPids, MODEL_PORT } from './launch.js';
import type { Pane } from './interactive.js';
import { PROFILES, FAKE_KEYS } from './profiles.js';
import type { World } from './world.js';

const FORWARDER = new URL('./forward.mjs', import.meta.url).pathname;
const MARKER = 'SWITCHBOARD_AGENT_SUITE_RUN';
const READY_MS = 60_000;
const q = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

const TRUST_MS = 30_000;
/** Where codex 0.171.0 puts its daemon's control socket (a symlink in CODEX_HOME points there), whatever TMPDIR says. */
const DAEMON_DIR = `/tmp/codex-daemon-${process.getuid?.() ?? 0}`;

/**
 * What a person does once in the TUI's /hooks: trusts the hooks `switchboard
 * setup codex` wrote. Codex keeps that as `[hooks.state."<key>"] trusted_hash`
 * in config.toml, the key and hash as its own app-server lists them
 * (`hooks/list`). (`--dangerously-bypass-hook-trust` would do it per run, but
 * it forces the TUI to run its thread in-process, without the daemon.)
 */
export async function trustCodexHooks(w: World, cwd: string): Promise<number> {
  const [bin] = agentCommand('codex');
  const unshare = process.getuid?.() === 0 ? ['unshare', '-n'] : ['unshare', '-rn'];
  const child = spawn(
    unshare[0]!,
    [
      ...unshare.slice(1),
      'env',
      '-i',
      `PATH=/usr/bin:/bin`,
      `HOME=${w.home}`,
      `TMPDIR=${w.env.TMPDIR}`,
      `${MARKER}=${w.root}`,
      bin!,
      'app-server',
      '--listen',
      'stdio://',
    ],
    { stdio: ['pipe', 'pipe', 'ignore'] },
  );
  let out = '';
  const hooks = await new Promise<Array<{ key: string; currentHash: string; trustStatus: string }>>(
    (resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`codex app-server did not list hooks in ${TRUST_MS} ms: ${out.slice(-2000)}`)),
        TRUST_MS,
      );
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        for (const line of out.split('\n')) {
          if (!line.startsWith('{"id":2,')) continue;
          clearTimeout(timer);
          const entries = (
            JSON.parse(line) as {
              result: { data: Array<{ hooks: Array<{ key: string; currentHash: string; trustStatus: string }> }> };
            }
          ).result.data;
          resolve(entries.flatMap((e) => e.hooks));
        }
      });
      const send = (m: unknown): boolean => child.stdin.write(JSON.stringify(m) + '\n');
      send({
        id: 1,
        method: 'initialize',
        params: {
          clientInfo: { name: 'switchboard-test', title: null, version: '0' },
          capabilities: { experimentalApi: false, requestAttestation: false },
        },
      });
      send({ method: 'initialized' });
      send({ id: 2, method: 'hooks/list', params: { cwds: [cwd] } });
    },
  ).finally(() => stopProcess(child));
  const file = path.join(w.home, '.codex', 'config.toml');
  const untrusted = hooks.filter((h) => h.trustStatus !== 'trusted' && h.trustStatus !== 'managed');
  fs.appendFileSync(
    file,
    untrusted
      .map((h) => `\n[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = ${JSON.stringify(h.currentHash)}\n`)
      .join(''),
  );
  return untrusted.length;
}

/** `extraArgs` after the pinned binary (e.g. `--no-daemon`); the mode is Codex's default (asks); its hooks trusted as by /hooks. */
export async function startInteractiveCodex(
  w: World,
  o: { name: string; steps: Step[]; extraArgs?: string[] },
): Promise<Pane> {
  if (spawnSync('sh', ['-c', 'command -v tmux']).status !== 0)
    throw new Error(
      'interactive agent tests need tmux (apt-get install tmux); set SWITCHBOARD_SKIP_AGENTS=1 to opt out',
    );
  const model = await startModelServer('openai', path.join(w.root, `m-${o.name}.sock`), o.steps);
  const cwd = path.join(w.root, `w-${o.name}`);
  fs.mkdirSync(cwd, { recursive: true });
  PROFILES.codex.seed(w.home);
  PROFILES.codex.trust(w.home, cwd);
  if (
    (await trustCodexHooks(w, cwd)) === 0 &&
    !fs.readFileSync(path.join(w.home, '.codex', 'config.toml'), 'utf8').includes('trusted_hash')
  )
    throw new Error('no Switchboard hooks to trust: run world.setup("codex") first');
  const args = [...agentCommand('codex'), ...(o.extraArgs ?? [])];
  const run = path.join(w.root, 'run');
  fs.mkdirSync(run, { recursive: true, mode: 0o700 });
  const pidfile = path.join(run, `forward-${o.name}.pid`);
  const env = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    [MARKER]: w.root,
    ...w.env,
    SCRIPTED_OPENAI_KEY: FAKE_KEYS.codex,
    CODEX_DISABLE_UPDATE_CHECK: '1',
  };
  const script = [
    '#!/bin/sh',
    'ip link set lo up || exit 96',
    `${q(process.execPath)} ${q(FORWARDER)} ${MODEL_PORT} ${q(model.socketPath)} ${q(pidfile)} &`,
    `i=0; while [ ! -s ${q(pidfile)} ]; do i=$((i+1)); [ $i -gt 200 ] && exit 95; sleep 0.05; done`,
    `cd ${q(cwd)} || exit 97`,
    `exec env -i ${Object.entries(env)
      .map(([k, v]) => q(`${k}=${v}`))
      .join(' ')} ${args.map(q).join(' ')}`,
  ].join('\n');
  const launcher = path.join(w.root, `launch-${o.name}.sh`);
  fs.writeFileSync(launcher, script + '\n', { mode: 0o700 });
  const tmuxSock = path.join(run, `tmux-${o.name}.sock`);
  const tmux = (...a: string[]): string =>
    execFileSync('tmux', ['-f', '/dev/null', '-S', tmuxSock, ...a], { encoding: 'utf8' });
  const unshare = process.getuid?.() === 0 ? 'unshare -n' : 'unshare -rn';
  tmux('new-session', '-d', '-s', o.name, '-x', '200', '-y', '50', `exec ${unshare} ${launcher}`);
  tmux('set-option', '-t', o.name, 'remain-on-exit', 'on');
  const pid = Number(tmux('list-panes', '-t', o.name, '-F', '#{pane_pid}').trim());
  const hadDaemonDir = fs.existsSync(DAEMON_DIR);
  const pane: Pane = {
    name: o.name,
    pid,
    cwd,
    model,
    screen: () => tmux('capture-pane', '-p', '-t', o.name),
    keys: (...keys) => void tmux('send-keys', '-t', o.name, ...keys),
    async stop() {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
      // The daemon this TUI started (it outlives the TUI): stopped by pid, so it removes its socket.
      const daemons = markedPids(w.root, w.home).filter((p) => readArgv(p).includes('app-server'));
      for (const p of daemons) sendSignal(p, 'SIGTERM');
      for (const p of [pid, ...pidsIn(pidfile), ...daemons]) if (!(await pidGone(p, 3000))) await stopPid(p, 'SIGKILL');
      if (!hadDaemonDir) removeIfEmpty(DAEMON_DIR); // only when this run made it
      await model.close();
    },
  };
  const deadline = Date.now() + READY_MS;
  for (;;) {
    const screen = pane.screen();
    if (tmux('display-message', '-p', '-t', o.name, '#{pane_dead}').trim() === '1')
      throw new Error(`codex exited during start-up:\n${screen}`);
    if (screen.includes('Ask Codex to do anything')) return pane;
    if (Date.now() > deadline) {
      await pane.stop();
      throw new Error(`codex not ready in ${READY_MS} ms:\n${screen}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

function removeIfEmpty(dir: string): void {
  try {
    fs.rmdirSync(dir);
  } catch {
    // gone, or another daemon's socket is in it
  }
}

function readArgv(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

function pidsIn(file: string): number[] {
  try {
    const n = Number(fs.readFileSync(file, 'utf8'));
    return Number.isInteger(n) && n > 0 ? [n] : [];
  } catch {
    return [];
  }
}
