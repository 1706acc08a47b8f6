// The pinned Qwen Code for the real-agent suite: `@qwen-code/qwen-code` from
// npm (`npm pack` into the suite's cache, like the other agents; its bundle
// needs none of its optional native dependencies), its interactive UI in a
// tmux pane inside a private network namespace (forwarder to the scripted
// OpenAI Chat Completions server, emptied environment with the run's marker,
// the world's HOME and XDG_RUNTIME_DIR). First-run state that keeps it
// offline and quiet: auth type openai with a fake key, no usage statistics,
// no update check, no memory-extraction or follow-up-suggestion requests
// (they would consume the model script). Stopped by its tmux server, then by pid.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startModelServer, type ModelServer, type Step } from '../model/server.js';
import { pidGone, stopPid } from '../../helpers/processes.js';
import { unpacked } from './binaries.js';
import { MODEL_PORT } from './launch.js';
import type { World } from './world.js';

export const QWEN_PIN = '0.24.4';
const FORWARDER = new URL('./forward.mjs', import.meta.url).pathname;
const MARKER = 'SWITCHBOARD_AGENT_SUITE_RUN';
const READY_MS = 120_000;
const q = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

/** The command that runs the pinned Qwen Code (fetched into the cache first when missing). */
export function qwenCommand(): string[] {
  const file = unpacked({
    spec: `@qwen-code/qwen-code@${QWEN_PIN}`,
    dir: `qwen-${QWEN_PIN}`,
    file: 'cli-entry.js',
    node: true,
  });
  return [process.execPath, file];
}

/** ~/.qwen/settings.json for an offline run (merged into what is there). */
export function seedQwen(home: string): void {
  const dir = path.join(home, '.qwen');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'settings.json');
  const had = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  const settings = {
    ...had,
    privacy: { usageStatisticsEnabled: false },
    memory: { enableManagedAutoMemory: false },
    security: { auth: { selectedType: 'openai' } },
    model: { name: 'fake-model' },
    general: { enableAutoUpdate: false },
    ui: { enableFollowupSuggestions: false },
  };
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
}

export interface QwenPane {
  name: string;
  /** The tmux pane's process (the launcher); Qwen Code's own agent process is its descendant. */
  pid: number;
  cwd: string;
  model: ModelServer;
  screen(): string;
  keys(...keys: string[]): void;
  /** Whether the pane's process exited. */
  dead(): boolean;
  stop(): Promise<void>;
}

/** Starts Qwen Code's interactive UI; `approvalMode` undefined starts it with no flag (its default, `auto`). */
export async function startQwenTui(
  w: World,
  o: { name: string; steps: Step[]; approvalMode?: 'default' | 'plan' | 'auto-edit' | 'auto' | 'yolo' },
): Promise<QwenPane> {
  if (spawnSync('sh', ['-c', 'command -v tmux']).status !== 0)
    throw new Error(
      'interactive agent tests need tmux (apt-get install tmux); set SWITCHBOARD_SKIP_AGENTS=1 to opt out',
    );
  const argv = qwenCommand();
  seedQwen(w.home);
  const model = await startModelServer('openai-chat', path.join(w.root, `m-${o.name}.sock`), o.steps);
  const cwd = path.join(w.root, `w-${o.name}`);
  fs.mkdirSync(cwd, { recursive: true });
  const run = path.join(w.root, 'run');
  fs.mkdirSync(run, { recursive: true, mode: 0o700 });
  const pidfile = path.join(run, `forward-${o.name}.pid`);
  const env = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    [MARKER]: w.root,
    ...w.env,
    OPENAI_BASE_URL: `http://127.0.0.1:${MODEL_PORT}/v1`,
    OPENAI_API_KEY: 'sk-fake-qwen-000',
    OPENAI_MODEL: 'fake-model',
    QWEN_USAGE_STATISTICS_ENABLED: '0',
  };
  const args = [...argv, ...(o.approvalMode !== undefined ? ['--approval-mode', o.approvalMode] : [])];
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
  tmux('new-session', '-d', '-s', o.name, '-x', '160', '-y', '50', `exec ${unshare} ${launcher}`);
  tmux('set-option', '-t', o.name, 'remain-on-exit', 'on');
  const pid = Number(tmux('list-panes', '-t', o.name, '-F', '#{pane_pid}').trim());
  const dead = (): boolean => {
    try {
      return tmux('display-message', '-p', '-t', o.name, '#{pane_dead}').trim() === '1';
    } catch {
      return true;
    }
  };
  const pane: QwenPane = {
    name: o.name,
    pid,
    cwd,
    model,
    screen: () => tmux('capture-pane', '-p', '-t', o.name),
    keys: (...keys) => void tmux('send-keys', '-t', o.name, ...keys),
    dead,
    async stop() {
      const inside = descendants(pid);
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
      for (const p of [pid, ...inside, ...pidsIn(pidfile)]) if (!(await pidGone(p, 3000))) await stopPid(p, 'SIGKILL');
      await model.close();
    },
  };
  const deadline = Date.now() + READY_MS;
  for (;;) {
    const screen = pane.screen();
    if (dead()) {
      await pane.stop();
      throw new Error(`qwen exited during start-up:\n${screen}`);
    }
    // Its input box is up and its registry record is written (by its agent process, a descendant of the pane).
    if (/Type your message/i.test(screen) && recordOf(w.home, pid) !== undefined) return pane;
    if (Date.now() > deadline) {
      await pane.stop();
      throw new Error(`qwen not ready in ${READY_MS} ms:\n${screen}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The registry file of the Qwen Code process under `panePid`, if it wrote one. */
export function recordOf(home: string, panePid: number): string | undefined {
  const dir = path.join(home, '.qwen', 'sessions');
  const mine = new Set(descendants(panePid));
  try {
    return fs
      .readdirSync(dir)
      .filter((n) => /^\d+(-[0-9a-f]{8})?\.json$/.test(n) && mine.has(Number(/^\d+/.exec(n)![0])))
      .map((n) => path.join(dir, n))[0];
  } catch {
    return undefined;
  }
}

/** Every process below `pid` (by /proc/<p>/stat's parent field). */
function descendants(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      parent.set(Number(e), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone
    }
  }
  const out: number[] = [];
  const walk = (p: number): void => {
    for (const [child, par] of parent)
      if (par === p && !out.includes(child)) {
        out.push(child);
        walk(child);
      }
  };
  walk(pid);
  return out;
}

function pidsIn(file: string): number[] {
  try {
    const n = Number(fs.readFileSync(file, 'utf8'));
    return Number.isInteger(n) && n > 0 ? [n] : [];
  } catch {
    return [];
  }
}
