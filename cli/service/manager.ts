// The service managers as `switchboard service` drives them: systemctl
// --user on Linux, launchctl's gui/<uid> domain on macOS. Every command runs
// with execFile (no shell), an argv array and a timeout; its outcome is
// returned, never thrown. "Unreachable" means the manager cannot be asked at
// all (no such program, or systemd has no user bus, as in a container).

import { execFile } from 'node:child_process';
import { LAUNCHD_LABEL, SYSTEMD_UNIT, type Platform } from './files.js';

const TIMEOUT_MS = 20_000;

export interface Ran {
  argv: string[];
  ok: boolean;
  stdout: string;
  stderr: string;
  /** The program is not on PATH. */
  missing: boolean;
}

export function runCommand(argv: string[], timeoutMs = TIMEOUT_MS): Promise<Ran> {
  const [file, ...args] = argv as [string, ...string[]];
  return new Promise((resolve) => {
    execFile(file, args, { timeout: timeoutMs, killSignal: 'SIGKILL', encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = (err as NodeJS.ErrnoException | null)?.code;
      const timedOut = err !== null && (err as { killed?: boolean }).killed === true;
      resolve({
        argv,
        ok: err === null,
        stdout,
        stderr: timedOut ? `${stderr}(no answer within ${timeoutMs / 1000} s)` : stderr,
        missing: code === 'ENOENT',
      });
    });
  });
}

/** What systemctl says when there is no user manager to talk to. */
const NO_USER_BUS =
  /Failed to connect to bus|No medium found|DBUS_SESSION_BUS_ADDRESS|XDG_RUNTIME_DIR|not been booted with systemd|Failed to connect to user scope bus/i;

export function unreachable(r: Ran): boolean {
  return r.missing || (!r.ok && NO_USER_BUS.test(r.stderr));
}

/** One line of a failed command's output, for a message. */
export function why(r: Ran): string {
  if (r.missing) return `${r.argv[0]} is not on PATH`;
  const text = (r.stderr.trim() || r.stdout.trim()).split('\n').slice(-2).join(' ');
  return text || 'it failed without saying why';
}

const uid = (): number => process.getuid?.() ?? 0;
const systemctl = (...args: string[]): string[] => ['systemctl', '--user', ...args];
const launchDomain = (): string => `gui/${uid()}`;
const launchTarget = (): string => `${launchDomain()}/${LAUNCHD_LABEL}`;

/** The commands that load and start the service whose file is at `file`; `replaced`: an older file of ours was there. */
export function startCommands(platform: Platform, file: string, replaced: boolean): string[][] {
  if (platform === 'systemd')
    return [
      systemctl('daemon-reload'),
      systemctl('enable', '--now', SYSTEMD_UNIT),
      ...(replaced ? [systemctl('try-restart', SYSTEMD_UNIT)] : []),
    ];
  // bootstrap refuses a label already loaded: an older agent of ours is unloaded first.
  return [
    ...(replaced ? [['launchctl', 'bootout', launchTarget()]] : []),
    ['launchctl', 'enable', launchTarget()],
    ['launchctl', 'bootstrap', launchDomain(), file],
  ];
}

/** Commands whose failure is expected and harmless (unloading what is not loaded). */
export function mayFail(argv: string[]): boolean {
  return argv[0] === 'launchctl' && argv[1] === 'bootout';
}

/** The commands that stop and disable the service before its file goes. */
export function stopCommands(platform: Platform): string[][] {
  if (platform === 'systemd') return [systemctl('disable', '--now', SYSTEMD_UNIT)];
  return [['launchctl', 'bootout', launchTarget()]];
}

/** After the file is gone (systemd forgets the unit). */
export function afterRemoveCommands(platform: Platform): string[][] {
  return platform === 'systemd' ? [systemctl('daemon-reload')] : [];
}

/** The command a person runs to start it by hand. */
export function startHint(platform: Platform, file: string): string {
  return platform === 'systemd'
    ? `systemctl --user daemon-reload && systemctl --user enable --now ${SYSTEMD_UNIT}`
    : `launchctl bootstrap ${launchDomain()} ${JSON.stringify(file)}`;
}

export interface ManagerState {
  reachable: boolean;
  /** systemd: active, inactive, failed, activating …; launchd: running, not loaded, or launchd's state word. */
  state?: string;
  /** systemd only: enabled, disabled … */
  enabled?: string;
  detail?: string;
}

/** What the service manager says about our service. */
export async function managerState(platform: Platform): Promise<ManagerState> {
  if (platform === 'systemd') {
    const active = await runCommand(systemctl('is-active', SYSTEMD_UNIT));
    if (unreachable(active) || active.stdout.trim() === '') return { reachable: false, detail: why(active) };
    const enabled = await runCommand(systemctl('is-enabled', SYSTEMD_UNIT));
    return { reachable: true, state: active.stdout.trim(), enabled: enabled.stdout.trim() || 'unknown' };
  }
  const printed = await runCommand(['launchctl', 'print', launchTarget()]);
  if (printed.missing) return { reachable: false, detail: why(printed) };
  if (!printed.ok) return { reachable: true, state: 'not loaded' };
  const state = /^\s*state = (.+)$/m.exec(printed.stdout)?.[1]?.trim();
  return { reachable: true, state: state ?? 'loaded' };
}
