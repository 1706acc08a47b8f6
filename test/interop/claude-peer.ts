// The interop harness: runs the real Claude Code (the native linux-x64
// build from npm, fetched once into a cache) as a messaging peer inside
// tmux, in a private network namespace (`unshare -n`, loopback only), with
// an isolated config pre-seeded so no first-run dialog needs the network.
// What it takes to run Claude Code as a headless messaging peer:
// CLAUDE_CODE_HARBOR_KITE=1 turns messaging on; the seed below skips
// onboarding, the API-key and the trust dialogs. Every process it starts is
// stopped by pid. Missing tmux or unshare is a clear failure.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pidGone, stopPid } from '../helpers/processes.js';

export const VERSIONS = ['2.1.231', '2.1.332'] as const;
export type Version = (typeof VERSIONS)[number];
const FAKE_KEY = 'sk-ant-test-000';
const CACHE = process.env.SWITCHBOARD_INTEROP_CACHE ?? path.join(os.homedir(), '.cache', 'switchboard-interop');

export function requireTools(): void {
  for (const tool of ['tmux', 'unshare', 'tar', 'npm']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
      throw new Error(
        `interop tests need ${tool} (apt-get install tmux util-linux); set SWITCHBOARD_SKIP_INTEROP=1 to opt out (README)`,
      );
  }
}

/**
 * The claude binary for a version: npm pack into a private temporary folder
 * of the cache, unpack, then rename into place — so a binary is never run
 * while it is still being written (ETXTBSY) or half-unpacked, even when two
 * suites fetch the same version at once.
 */
export function claudeBinary(version: Version): string {
  const dir = path.join(CACHE, version);
  const bin = path.join(dir, 'package', 'claude');
  if (fs.existsSync(bin)) return bin;
  fs.mkdirSync(CACHE, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(CACHE, `.${version}-`));
  try {
    const tgz = execFileSync('npm', ['pack', '--silent', `@anthropic-ai/claude-code-linux-x64@${version}`], {
      cwd: tmp,
      encoding: 'utf8',
      timeout: 300_000,
    })
      .trim()
      .split('\n')
      .pop()!;
    execFileSync('tar', ['-xzf', path.join(tmp, tgz), '-C', tmp]);
    fs.rmSync(path.join(tmp, tgz), { force: true });
    fs.chmodSync(path.join(tmp, 'package', 'claude'), 0o755);
    try {
      fs.renameSync(tmp, dir);
    } catch (e) {
      if (!fs.existsSync(bin)) throw e; // another fetch won the race
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return bin;
}

export interface Peer {
  name: string;
  pid: number;
  socketPath: string;
  registry: string;
  configDir: string;
  cwd: string;
  /** The pane's text now. */
  screen(): string;
  keys(...keys: string[]): void;
  /** Every transcript line of this session (projects/<cwd-slug>/<sessionId>.jsonl). */
  transcript(): string;
  stop(): Promise<void>;
}

export interface PeerOptions {
  version: Version;
  name: string;
  root: string;
  settings?: Record<string, unknown>;
  /** More environment for the agent (e.g. what Claude Desktop sets for the sessions it runs). */
  env?: Record<string, string>;
}

/**
 * Seeds the shared config so no dialog needs the network: onboarding done,
 * the fake key approved, every peer's folder trusted. Call it before the
 * first peer starts (a running claude rewrites this file from memory).
 */
export function seedRoot(root: string, version: Version, names: readonly string[]): void {
  const configDir = path.join(root, 'home', '.claude');
  fs.mkdirSync(configDir, { recursive: true });
  const projects = Object.fromEntries(
    names.map((n) => [path.join(root, `work-${n}`), { hasTrustDialogAccepted: true }]),
  );
  const state = {
    hasCompletedOnboarding: true,
    lastOnboardingVersion: version,
    customApiKeyResponses: { approved: [FAKE_KEY.slice(-20)], rejected: [] },
    projects,
  };
  fs.writeFileSync(path.join(configDir, '.claude.json'), JSON.stringify(state, null, 2), { mode: 0o600 });
  if (!fs.existsSync(path.join(configDir, 'settings.json')))
    fs.writeFileSync(path.join(configDir, 'settings.json'), '{ "theme": "dark" }');
}

const q = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

export async function startPeer(opts: PeerOptions): Promise<Peer> {
  const bin = claudeBinary(opts.version);
  const home = path.join(opts.root, 'home');
  const configDir = path.join(home, '.claude');
  const run = path.join(opts.root, 'run');
  const tmp = path.join(opts.root, 'tmp');
  const cwd = path.join(opts.root, `work-${opts.name}`);
  for (const d of [run, tmp, cwd]) fs.mkdirSync(d, { recursive: true, mode: 0o700 });
  if (!fs.existsSync(path.join(configDir, '.claude.json'))) seedRoot(opts.root, opts.version, [opts.name]);
  const launch = path.join(opts.root, `launch-${opts.name}.sh`);
  const env = [
    'PATH=/usr/local/bin:/usr/bin:/bin',
    'TERM=xterm-256color',
    'LANG=C.UTF-8',
    `HOME=${home}`,
    `CLAUDE_CONFIG_DIR=${configDir}`,
    `XDG_RUNTIME_DIR=${run}`,
    `CLAUDE_CODE_TMPDIR=${tmp}`,
    `TMPDIR=${tmp}`,
    'CLAUDE_CODE_HARBOR_KITE=1',
    'DISABLE_AUTOUPDATER=1',
    'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1',
    'DISABLE_TELEMETRY=1',
    'DISABLE_ERROR_REPORTING=1',
    'CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1',
    'CLAUDE_CODE_DISABLE_BG_EXIT_HANDOFF=1',
    `ANTHROPIC_API_KEY=${FAKE_KEY}`,
    'ANTHROPIC_BASE_URL=http://127.0.0.1:9',
    'CLAUDE_CODE_MAX_RETRIES=0',
    ...Object.entries(opts.env ?? {}).map(([k, v]) => `${k}=${v}`),
  ].map(q);
  const args = [q(bin), ...(opts.settings ? ['--settings', q(JSON.stringify(opts.settings))] : [])];
  fs.writeFileSync(
    launch,
    `#!/bin/sh\nip link set lo up 2>/dev/null || true\ncd ${q(cwd)} || exit 97\nexec env -i TMUX="$TMUX" TMUX_PANE="$TMUX_PANE" ${env.join(' ')} ${args.join(' ')}\n`,
    { mode: 0o700 },
  );
  const tmuxSock = path.join(run, `tmux-${opts.name}.sock`);
  const tmux = (...a: string[]): string =>
    execFileSync('tmux', ['-f', '/dev/null', '-S', tmuxSock, ...a], { encoding: 'utf8' });
  const unshare = process.getuid?.() === 0 ? 'unshare -n' : 'unshare -rn';
  if (spawnSync('sh', ['-c', `${unshare} true`]).status !== 0)
    throw new Error(`cannot create a private network namespace with "${unshare}" here`);
  tmux('new-session', '-d', '-s', opts.name, '-x', '200', '-y', '50', `exec ${unshare} ${launch}`);
  tmux('set-option', '-t', opts.name, 'remain-on-exit', 'on');
  const pid = Number(tmux('list-panes', '-t', opts.name, '-F', '#{pane_pid}').trim());
  const registry = path.join(configDir, 'sessions', `${pid}.json`);
  const peer: Peer = {
    name: opts.name,
    pid,
    registry,
    configDir,
    cwd,
    socketPath: '',
    screen: () => tmux('capture-pane', '-p', '-t', opts.name),
    keys: (...keys) => void tmux('send-keys', '-t', opts.name, ...keys),
    transcript() {
      const sessionId = (JSON.parse(fs.readFileSync(registry, 'utf8')) as { sessionId: string }).sessionId;
      const dir = path.join(configDir, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
      try {
        return fs.readFileSync(path.join(dir, `${sessionId}.jsonl`), 'utf8');
      } catch {
        return '';
      }
    },
    stop: () => stopPane(tmux, pid),
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (tmux('display-message', '-p', '-t', opts.name, '#{pane_dead}').trim() === '1')
      throw new Error(`claude ${opts.version} exited during start-up:\n${peer.screen()}`);
    const screen = peer.screen();
    if (/Unable to connect to Anthropic services|Do you want to use this API key/.test(screen))
      throw new Error(`a first-run dialog showed (the seed did not apply):\n${screen}`);
    // Should the trust dialog still show, answer it (the cursor may start on "No, exit").
    if (screen.includes('Yes, I trust this folder'))
      peer.keys(...(/❯\s*No, exit/.test(screen) ? ['Down', 'Enter'] : ['Enter']));
    if (fs.existsSync(registry)) {
      try {
        peer.socketPath =
          (JSON.parse(fs.readFileSync(registry, 'utf8')) as { messagingSocketPath?: string }).messagingSocketPath ?? '';
      } catch {
        // being written
      }
      if (peer.socketPath !== '' && screen.includes('❯') && (await answers(peer.socketPath))) return peer;
    }
    if (Date.now() > deadline) {
      await peer.stop();
      throw new Error(`claude ${opts.version} not ready in 60 s:\n${screen}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(socketPath);
    const done = (ok: boolean): void => {
      s.destroy();
      resolve(ok);
    };
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
    setTimeout(() => done(false), 500);
  });
}

/** Stops the pane (SIGHUP: claude removes its registry file and socket), then its pid if it lingers. */
async function stopPane(tmux: (...a: string[]) => string, pid: number): Promise<void> {
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
  if (!(await pidGone(pid, 5000))) await stopPid(pid, 'SIGKILL');
}

/** After every peer of a config directory stopped: kills, by pid, any claude process still using it (background helpers), and waits until they are gone. */
export async function sweepLeftovers(version: Version, configDir: string): Promise<void> {
  const binReal = fs.realpathSync(claudeBinary(version));
  const left: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (fs.readlinkSync(`/proc/${entry}/exe`) !== binReal) continue;
      if (!fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`CLAUDE_CONFIG_DIR=${configDir}`))
        continue;
      left.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  await Promise.all(left.map((pid) => stopPid(pid, 'SIGKILL')));
}
