// Interactive Claude Code for the real-agent suite ("idle" exists
// only in the interactive UI): the pinned binary in a tmux pane, in a private
// network namespace like launch.ts (forwarder to the scripted model, emptied
// environment with the run's marker, the world's HOME and XDG_RUNTIME_DIR),
// Switchboard set up by the real `switchboard setup`. Stopped by its tmux
// server and then by pid (world.close sweeps the rest).

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startModelServer, type ModelServer, type Step } from '../model/server.js';
import { pidGone, stopPid } from '../../helpers/processes.js';
import { MODEL_PORT } from './launch.js';
import { PROFILES, type ModeName } from './profiles.js';
import type { World } from './world.js';

const FORWARDER = new URL('./forward.mjs', import.meta.url).pathname;
const MARKER = 'SWITCHBOARD_AGENT_SUITE_RUN';
const READY_MS = 60_000;
const q = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

export interface Pane {
  name: string;
  pid: number;
  cwd: string;
  model: ModelServer;
  screen(): string;
  keys(...keys: string[]): void;
  stop(): Promise<void>;
}

export async function startInteractiveClaude(
  w: World,
  o: {
    name: string;
    steps: Step[];
    mode?: ModeName;
    extraArgs?: string[];
    env?: Record<string, string>;
    /** Another Claude Code binary (default: the pinned one). */ bin?: string;
    /** More loopback ports inside the namespace, each piped to a Unix socket outside (e.g. the hub's MCP over HTTP). */
    forwards?: Array<{ port: number; socket: string }>;
  },
): Promise<Pane> {
  if (spawnSync('sh', ['-c', 'command -v tmux']).status !== 0)
    throw new Error(
      'interactive agent tests need tmux (apt-get install tmux); set SWITCHBOARD_SKIP_AGENTS=1 to opt out',
    );
  const model = await startModelServer('anthropic', path.join(w.root, `m-${o.name}.sock`), o.steps);
  const cwd = path.join(w.root, `w-${o.name}`);
  fs.mkdirSync(cwd, { recursive: true });
  PROFILES.claude.trust(w.home, cwd);
  const { argv, env: agentEnv } = PROFILES.claude.headless({ prompt: '', cwd, mode: o.mode ?? 'default' });
  const args = argv.filter((a, i) => !(a === '-p' || argv[i - 1] === '-p')).concat(o.extraArgs ?? []);
  if (o.bin !== undefined) args[0] = o.bin;
  const run = path.join(w.root, 'run');
  fs.mkdirSync(run, { recursive: true, mode: 0o700 });
  const pidfile = path.join(run, `forward-${o.name}.pid`);
  const env = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    [MARKER]: w.root,
    ...w.env,
    ...agentEnv,
    ...(o.env ?? {}),
  };
  const script = [
    '#!/bin/sh',
    'ip link set lo up || exit 96',
    `${q(process.execPath)} ${q(FORWARDER)} ${MODEL_PORT} ${q(model.socketPath)} ${q(pidfile)} &`,
    `i=0; while [ ! -s ${q(pidfile)} ]; do i=$((i+1)); [ $i -gt 200 ] && exit 95; sleep 0.05; done`,
    ...(o.forwards ?? []).flatMap((f, n) => [
      `${q(process.execPath)} ${q(FORWARDER)} ${f.port} ${q(f.socket)} ${q(`${pidfile}.${n}`)} &`,
      `i=0; while [ ! -s ${q(`${pidfile}.${n}`)} ]; do i=$((i+1)); [ $i -gt 200 ] && exit 95; sleep 0.05; done`,
    ]),
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
      const forwarders = (o.forwards ?? []).flatMap((_, n) => pidsIn(`${pidfile}.${n}`));
      for (const p of [pid, ...pidsIn(pidfile), ...forwarders])
        if (!(await pidGone(p, 3000))) await stopPid(p, 'SIGKILL');
      await model.close();
    },
  };
  const deadline = Date.now() + READY_MS;
  for (;;) {
    const screen = pane.screen();
    if (tmux('display-message', '-p', '-t', o.name, '#{pane_dead}').trim() === '1')
      throw new Error(`claude exited during start-up:\n${screen}`);
    if (screen.includes('Yes, I trust this folder'))
      pane.keys(...(/❯\s*No, exit/.test(screen) ? ['Down', 'Enter'] : ['Enter']));
    if (/Do you want to use this API key/.test(screen)) pane.keys('Up', 'Enter');
    // --allow-dangerously-skip-permissions (or a bypass start) asks once at start-up: "Yes, I accept".
    if (screen.includes('Yes, I accept') && screen.includes('Bypass Permissions mode'))
      pane.keys(...(/❯\s*No, exit/.test(screen) ? ['Down', 'Enter'] : ['Enter']));
    if (screen.includes('❯') && fs.existsSync(path.join(w.home, '.claude', 'sessions', `${pid}.json`))) return pane;
    if (Date.now() > deadline) {
      await pane.stop();
      throw new Error(`claude not ready in ${READY_MS} ms:\n${screen}`);
    }
    await new Promise((r) => setTimeout(r, 250));
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
