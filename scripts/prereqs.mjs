// The system programs `npm test` needs beyond npm packages, found or
// installed. Each tool is looked up where its suite looks for it; what is
// missing is installed with the platform's package manager where we may
// (Debian/Ubuntu apt-get as root or with password-less sudo, macOS
// Homebrew), saying so first. Where we may not, one message names exactly
// what to install; it never half-installs silently or prints stack traces.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** What each suite needs, how to find it, and its package per manager. */
export const TOOLS = [
  {
    name: 'chromium',
    why: 'the browser tests',
    env: 'CHROMIUM_PATH',
    paths: ['/usr/bin/chromium', '/Applications/Chromium.app/Contents/MacOS/Chromium'],
    command: 'chromium',
    apt: 'chromium',
    brew: '--cask chromium',
  },
  {
    name: 'nats-server',
    why: 'the relay tests',
    env: 'NATS_SERVER',
    paths: ['/usr/sbin/nats-server', '/usr/bin/nats-server'],
    command: 'nats-server',
    apt: 'nats-server',
    brew: 'nats-server',
  },
  {
    name: 'tmux',
    why: 'the real-agent and interop tests',
    paths: [],
    command: 'tmux',
    apt: 'tmux',
    brew: 'tmux',
    interop: true,
  },
  {
    name: 'ip',
    why: 'the real-agent tests (loopback inside the namespace)',
    paths: ['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip'],
    command: 'ip',
    apt: 'iproute2',
    brew: null,
    interop: true,
  },
  {
    name: 'unshare',
    why: 'the real-agent and interop tests (a private network namespace)',
    paths: [],
    command: 'unshare',
    apt: 'util-linux',
    brew: null,
    interop: true,
  },
];

function onPath(command, env) {
  return spawnSync('/bin/sh', ['-c', `command -v ${command}`], { env, stdio: 'ignore' }).status === 0;
}

/**
 * Whether a tool is there, the way its suite would find it: its variable,
 * its usual place, or PATH. (SWITCHBOARD_PREREQS_PATH_ONLY=1 skips the usual
 * places, so a test can take a tool away by taking it off PATH.)
 */
export function present(tool, env = process.env) {
  if (tool.env && env[tool.env]) return existsSync(env[tool.env]);
  const usual = env.SWITCHBOARD_PREREQS_PATH_ONLY === '1' ? [] : tool.paths;
  return usual.some((p) => existsSync(p)) || onPath(tool.command, env);
}

/** Which tools this run needs (the interop ones only where interop runs). */
export function needed(env = process.env) {
  const interop = env.SWITCHBOARD_SKIP_INTEROP !== '1';
  return TOOLS.filter((t) => interop || !t.interop);
}

/** The installer we may use here, or null with the reason. */
export function installer(env = process.env, platform = process.platform) {
  if (env.SWITCHBOARD_NO_INSTALL === '1') return { manager: null, why: 'SWITCHBOARD_NO_INSTALL=1 is set' };
  if (platform === 'linux' && onPath('apt-get', env)) {
    const root = typeof process.getuid === 'function' && process.getuid() === 0;
    if (root) return { manager: 'apt', sudo: [] };
    if (onPath('sudo', env) && spawnSync('sudo', ['-n', 'true'], { env, stdio: 'ignore' }).status === 0)
      return { manager: 'apt', sudo: ['sudo', '-n'] };
    return { manager: null, why: 'apt-get needs root and sudo asks for a password' };
  }
  if (platform === 'darwin' && onPath('brew', env)) return { manager: 'brew', sudo: [] };
  return { manager: null, why: `no package manager this script knows on ${platform} (apt-get or Homebrew)` };
}

function whyList(tools) {
  return [...new Set(tools.map((t) => t.why.replace(/ \(.*\)$/, '')))].join('; ');
}

function installHint(tools, platform) {
  const apt = tools.map((t) => t.apt).filter(Boolean);
  const brew = tools.map((t) => t.brew).filter(Boolean);
  const lines = [];
  if (platform === 'darwin') {
    if (brew.length) lines.push(`  brew install ${brew.join(' ')}`);
  } else {
    lines.push(`  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${apt.join(' ')}`);
  }
  return lines.join('\n');
}

/**
 * Makes sure every needed tool is there. Returns null when all are, else the
 * one message to print (and the caller exits 1 before running anything).
 */
export function ensureTools({
  env = process.env,
  platform = process.platform,
  log = console.error,
  run = spawnSync,
} = {}) {
  let missing = needed(env).filter((t) => !present(t, env));
  if (missing.length === 0) return null;
  // unshare has no macOS port: the real-agent suites are Linux-only.
  if (platform === 'darwin') {
    const linuxOnly = missing.filter((t) => t.brew === null);
    if (linuxOnly.length)
      return `npm test: the real-agent and interop tests need Linux (unshare -n); set SWITCHBOARD_SKIP_INTEROP=1 to run the rest here.`;
  }
  const how = installer(env, platform);
  const list = missing.map((t) => `${t.name} (${t.why})`).join(', ');
  if (how.manager === null) {
    return `npm test needs ${list}, and cannot install ${missing.length > 1 ? 'them' : 'it'} here (${how.why}). Install:\n${installHint(missing, platform)}\nthen run npm test again.${missing.some((t) => t.interop) ? ' (SWITCHBOARD_SKIP_INTEROP=1 skips the suites that need tmux and unshare.)' : ''} CHROMIUM_PATH and NATS_SERVER may point at binaries elsewhere.`;
  }
  const sh = (argv) =>
    run(argv[0], argv.slice(1), {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
    }).status === 0;
  if (how.manager === 'apt') {
    const pkgs = [...new Set(missing.map((t) => t.apt))];
    log(`npm test: installing ${pkgs.join(' ')} with apt-get (needed for ${whyList(missing)})…`);
    const ok =
      sh([...how.sudo, 'apt-get', 'update', '-qq']) &&
      sh([...how.sudo, 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...pkgs]);
    if (!ok)
      return `npm test: apt-get could not install ${pkgs.join(' ')}. Install them by hand:\n${installHint(missing, platform)}`;
  } else {
    const pkgs = missing.map((t) => t.brew);
    log(`npm test: installing ${pkgs.join(' ')} with Homebrew (needed for ${whyList(missing)})…`);
    for (const p of pkgs)
      if (!sh(['brew', 'install', ...p.split(' ')]))
        return `npm test: Homebrew could not install ${p}. Install it by hand:\n  brew install ${p}`;
  }
  missing = missing.filter((t) => !present(t, env));
  return missing.length === 0
    ? null
    : `npm test: after installing, still missing: ${missing.map((t) => t.name).join(', ')}.`;
}
