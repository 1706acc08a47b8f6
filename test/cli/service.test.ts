// `switchboard service install|uninstall|status` (cli/commands/service.ts)
// run as the built CLI with an isolated HOME and XDG_CONFIG_HOME and a fake
// `systemctl` first on PATH that records its argv, so no real service
// manager is touched: what the unit says (checked by `systemd-analyze
// verify` where this machine has it), what it runs, that a file we did not
// write is never overwritten nor removed, that uninstall removes exactly our
// file. The launchd agent's text: test/cli/service-files.test.ts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli, serveCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/hub.js';
import { MARKER } from '../../cli/service/files.js';

const FAKE_SYSTEMCTL = `#!/bin/sh
printf '%s\\n' "$*" >> "$FAKE_LOG"
if [ "$FAKE_MODE" = nobus ]; then echo 'Failed to connect to bus: No medium found' >&2; exit 1; fi
case "$2" in
  is-active) echo active ;;
  is-enabled) echo enabled ;;
esac
exit 0
`;

interface Box {
  root: string;
  unit: string;
  log: string;
  env: NodeJS.ProcessEnv;
  calls(): string[];
}

function box(mode: 'ok' | 'nobus' = 'ok', xdg = true): Box {
  const dirs = tempDirs();
  const bin = path.join(dirs.root, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'systemctl'), FAKE_SYSTEMCTL, { mode: 0o755 });
  const log = path.join(dirs.root, 'systemctl.log');
  const config = xdg ? path.join(dirs.root, 'xdg') : path.join(dirs.root, '.config');
  return {
    root: dirs.root,
    unit: path.join(config, 'systemd', 'user', 'switchboard.service'),
    log,
    env: {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: dirs.root,
      SWITCHBOARD_RUNTIME_DIR: dirs.runtime,
      SWITCHBOARD_HOME: dirs.home,
      FAKE_LOG: log,
      FAKE_MODE: mode,
      ...(xdg ? { XDG_CONFIG_HOME: config } : {}),
    },
    calls: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) : []),
  };
}

/** Every file under `dir`, for "nothing else changed" (the fake's log and Node's compile cache left out). */
function tree(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory() && e.name !== 'systemctl.log' && !e.parentPath.includes(`${path.sep}.cache`))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

function hasSystemdAnalyze(): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v systemd-analyze'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(process.platform !== 'linux')('switchboard service on Linux (systemd --user, faked)', () => {
  it('install sets up a unit that runs this Node on the real CLI path', async () => {
    const b = box();
    const link = path.join(b.root, 'bin', 'switchboard'); // as npm's global bin link runs it
    fs.symlinkSync(CLI, link);
    const r = await runCli(['service', 'install', '--json'], b.env, 60_000, '', link);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { file: string; started: boolean; ran: string[][] };
    expect(out.file).toBe(b.unit);
    expect(out.started, 'install starts the service').toBe(true);
    const text = fs.readFileSync(b.unit, 'utf8');
    expect(text).toContain(MARKER);
    const execStart = /^ExecStart=(.*)$/m.exec(text)?.[1];
    expect(execStart, 'the unit runs this Node on the real CLI path').toBe(
      `"${process.execPath}" "${fs.realpathSync(CLI)}" serve --ui`,
    );
    expect(path.isAbsolute(process.execPath)).toBe(true);
    expect(text).toMatch(/^Restart=on-failure$/m);
    expect(text).toMatch(/^RestartSec=\d+$/m);
    expect(text).toMatch(/^StandardOutput=null$/m); // serve's stdout carries the UI token
    expect(text).toMatch(/^WantedBy=default\.target$/m);
    // Only these variables, none of them a secret.
    const envKeys = [...text.matchAll(/^Environment="([A-Z_]+)=/gm)].map((m) => m[1]);
    expect(envKeys).toEqual(['SWITCHBOARD_HOME', 'SWITCHBOARD_RUNTIME_DIR', 'PATH']);
    expect(text).not.toMatch(/TOKEN/);
    expect(b.calls(), 'install enables and starts the unit').toEqual([
      '--user daemon-reload',
      '--user enable --now switchboard.service',
    ]);

    if (!hasSystemdAnalyze()) {
      console.warn('systemd-analyze is not on this machine: the unit was not verified by systemd');
      return;
    }
    const rt = path.join(b.root, 'rt');
    fs.mkdirSync(rt, { mode: 0o700 });
    let verify: { code: number; stderr: string };
    try {
      execFileSync('systemd-analyze', ['--user', 'verify', b.unit], {
        env: { ...b.env, XDG_RUNTIME_DIR: rt },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 30_000,
      });
      verify = { code: 0, stderr: '' };
    } catch (err) {
      const e = err as { status: number; stderr: Buffer };
      verify = { code: e.status, stderr: e.stderr.toString() };
    }
    expect(verify, 'systemd-analyze --user verify').toEqual({ code: 0, stderr: '' });
  });

  it('install without XDG_CONFIG_HOME writes under ~/.config; a second install changes nothing', async () => {
    const b = box('ok', false);
    expect((await runCli(['service', 'install'], b.env)).code).toBe(0);
    const first = fs.readFileSync(b.unit, 'utf8');
    const again = await runCli(['service', 'install'], b.env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('left as it is');
    expect(fs.readFileSync(b.unit, 'utf8')).toBe(first);
    expect(b.calls().filter((c) => c.includes('try-restart'))).toEqual([]);
  });

  it('install over an older unit of ours replaces it and restarts the running service', async () => {
    const b = box();
    expect((await runCli(['service', 'install', '--no-start'], b.env)).code).toBe(0);
    const current = fs.readFileSync(b.unit, 'utf8');
    fs.writeFileSync(b.unit, current.replace('RestartSec=5', 'RestartSec=1'));
    const r = await runCli(['service', 'install'], b.env);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(b.unit, 'utf8')).toBe(current);
    expect(b.calls()).toEqual([
      '--user daemon-reload',
      '--user enable --now switchboard.service',
      '--user try-restart switchboard.service',
    ]);
  });

  it('a --dry-run install prints the unit and commands without writing or running anything', async () => {
    const b = box();
    const before = tree(b.root);
    const r = await runCli(['service', 'install', '--dry-run'], b.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Would write ${b.unit}`);
    expect(r.stdout).toContain('ExecStart=');
    expect(r.stdout).toContain('systemctl --user enable --now switchboard.service');
    expect(fs.existsSync(b.unit)).toBe(false);
    expect(tree(b.root)).toEqual(before);
    expect(b.calls()).toEqual([]);
  });

  it('a switchboard.service we did not write is neither overwritten nor removed', async () => {
    const b = box();
    fs.mkdirSync(path.dirname(b.unit), { recursive: true });
    const theirs = '[Service]\nExecStart=/usr/bin/true\n';
    fs.writeFileSync(b.unit, theirs);
    for (const args of [['install'], ['install', '--dry-run'], ['uninstall']]) {
      const r = await runCli(['service', ...args, '--json'], b.env);
      expect(r.code, args.join(' ')).toBe(1);
      expect((JSON.parse(r.stdout) as { error: { reason: string } }).error.reason).toBe('service_file_foreign');
      expect(r.stderr).toContain('not written by switchboard');
    }
    expect(fs.readFileSync(b.unit, 'utf8')).toBe(theirs);
    expect(b.calls()).toEqual([]);
    const s = await runCli(['service', 'status', '--json'], b.env);
    expect((JSON.parse(s.stdout) as { installed: string }).installed).toBe('foreign');
  });

  it('uninstall undoes exactly what install did', async () => {
    const b = box();
    fs.mkdirSync(path.dirname(b.unit), { recursive: true });
    fs.writeFileSync(path.join(path.dirname(b.unit), 'other.service'), '[Service]\nExecStart=/usr/bin/true\n');
    const before = tree(b.root);
    expect((await runCli(['service', 'install'], b.env)).code).toBe(0);
    expect(tree(b.root), 'install adds one file').toEqual([...before, b.unit].sort());
    const r = await runCli(['service', 'uninstall'], b.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Stopped, disabled and removed ${b.unit}`);
    expect(tree(b.root), 'uninstall removes exactly that file').toEqual(before);
    expect(b.calls().slice(2), 'uninstall stops and disables the service').toEqual([
      '--user disable --now switchboard.service',
      '--user daemon-reload',
    ]);
    const again = await runCli(['service', 'uninstall'], b.env);
    expect(again.code).toBe(0);
    expect(again.stdout, 'a second uninstall has nothing to do').toContain('nothing to remove');
  });

  it('status before install says not installed, with no hub answering', async () => {
    const b = box();
    const before = await runCli(['service', 'status'], b.env);
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toContain('not installed');
    expect(before.stdout).toContain('no hub answers on');
    expect(b.calls()).toEqual(['--user is-active switchboard.service', '--user is-enabled switchboard.service']);
  });

  it('status after install reports what systemd says', async () => {
    const b = box();
    expect((await runCli(['service', 'install', '--no-start'], b.env)).code).toBe(0);
    expect(b.calls(), 'install --no-start asks systemd nothing').toEqual([]);
    const after = await runCli(['service', 'status', '--json'], b.env);
    const s = JSON.parse(after.stdout) as {
      installed: string;
      manager: { reachable: boolean; state: string; enabled: string };
      hub: { running?: boolean };
    };
    expect(s.installed).toBe('yes');
    expect(s.manager).toEqual({ reachable: true, state: 'active', enabled: 'enabled' });
    expect(s.hub.running).toBe(false);
  });

  it('status and install see a hub that already answers on the socket', async () => {
    const b = box();
    const hub = await serveCli(b.env);
    try {
      const s = await runCli(['service', 'status'], b.env);
      expect(s.stdout).toContain(`answers on ${hub.ready.socket} (pid ${hub.ready.pid})`);
      const r = await runCli(['service', 'install', '--dry-run'], b.env);
      expect(r.stdout).toContain(`A hub already answers on ${hub.ready.socket} (pid ${hub.ready.pid})`);
    } finally {
      await hub.stop();
    }
  });

  it('without a user bus, install still writes the unit and says how to start it', async () => {
    const b = box('nobus');
    const r = await runCli(['service', 'install'], b.env);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(b.unit, 'utf8')).toContain(MARKER);
    expect(r.stdout).toContain('cannot be reached');
    expect(r.stdout).toContain('systemctl --user enable --now switchboard.service');
  });

  it('without a user bus, status says systemd is unreachable', async () => {
    const b = box('nobus');
    const s = await runCli(['service', 'status'], b.env);
    expect(s.stdout).toContain('systemd --user: unreachable (Failed to connect to bus');
  });

  it('refuses what it does not know', async () => {
    const b = box();
    for (const [args, says] of [
      [['service'], 'usage: switchboard service install'],
      [['service', 'restart'], 'usage: switchboard service install'],
      [['service', 'status', '--dry-run'], '--dry-run applies to install and uninstall'],
      [['service', 'uninstall', '--no-start'], '--no-start applies to install only'],
    ] as const) {
      const r = await runCli([...args], b.env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(says);
    }
  });
});
