// What `switchboard service install` writes, as pure functions of a spec:
// the systemd user unit (Linux) and the launchd agent (macOS) that run
// `<node> <cli> serve --ui` at login, restart it after a failure with a
// pause between tries, and keep its stdout (where serve prints the UI token
// and the URL that carries it) out of every log: only stderr is logged, to
// the journal or to a file under ~/Library/Logs. Each file carries MARKER,
// and a file without it is never overwritten nor removed. No secret is
// written: the environment holds only SWITCHBOARD_HOME, SWITCHBOARD_RUNTIME_DIR
// and PATH when the installing shell has them.

import os from 'node:os';
import path from 'node:path';

/** In every file we write, and what tells ours from one that somebody else wrote. */
export const MARKER = 'switchboard-service: written by `switchboard service install`';
export const SYSTEMD_UNIT = 'switchboard.service';
export const LAUNCHD_LABEL = 'dev.switchboard.hub';
/** The environment variables a service copies from the shell that installs it (none of them a secret). */
export const SERVICE_ENV = ['SWITCHBOARD_HOME', 'SWITCHBOARD_RUNTIME_DIR', 'PATH'] as const;
/** systemd: wait this long before a restart; launchd: at least this long between two starts. */
export const RESTART_DELAY_S = 5;
/** systemd gives up after this many starts within START_LIMIT_INTERVAL_S (`systemctl --user reset-failed` clears it). */
export const START_LIMIT_BURST = 5;
export const START_LIMIT_INTERVAL_S = 120;

export interface ServiceSpec {
  /** Absolute path of the Node that runs the hub. */
  node: string;
  /** Absolute path of the CLI entry (symlinks resolved). */
  cli: string;
  /** Environment for the hub, in order. */
  env: Array<[string, string]>;
}

export type Platform = 'systemd' | 'launchd';

export function platformOf(p: NodeJS.Platform): Platform | undefined {
  return p === 'linux' ? 'systemd' : p === 'darwin' ? 'launchd' : undefined;
}

/** Where the file goes: XDG_CONFIG_HOME (when absolute) or ~/.config on Linux, ~/Library/LaunchAgents on macOS. */
export function serviceFile(platform: Platform, env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  if (platform === 'launchd') return path.join(home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
  const xdg = env.XDG_CONFIG_HOME;
  const config = xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.config');
  return path.join(config, 'systemd', 'user', SYSTEMD_UNIT);
}

/** The launchd agent's log (its stderr): the hub's own log lines. */
export function launchdLog(home = os.homedir()): string {
  return path.join(home, 'Library', 'Logs', 'switchboard-hub.log');
}

/** The spec for this process: its Node, its CLI entry with symlinks resolved (npm's bin link), the env to carry. */
export function currentSpec(node: string, cliEntry: string, env: NodeJS.ProcessEnv): ServiceSpec {
  return {
    node: path.resolve(node),
    cli: path.resolve(cliEntry),
    env: SERVICE_ENV.flatMap((k): Array<[string, string]> => {
      const v = env[k];
      return v ? [[k, v]] : [];
    }),
  };
}

/** Refuses what no service file can hold safely: a relative path, or a line break or NUL anywhere. */
export function checkSpec(spec: ServiceSpec): string | undefined {
  for (const [what, p] of [
    ['Node', spec.node],
    ['CLI', spec.cli],
  ] as const)
    if (!path.isAbsolute(p)) return `the ${what} path ${JSON.stringify(p)} is not absolute`;
  for (const v of [spec.node, spec.cli, ...spec.env.flat()])
    if (/[\n\r\0]/.test(v)) return `${JSON.stringify(v)} holds a line break or NUL, which a service file cannot carry`;
  return undefined;
}

/** One systemd word, quoted: `\` and `"` escaped, `%` (specifiers) and `$` (variable expansion) doubled. */
function systemdQuote(s: string): string {
  return `"${s
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/%/g, '%%')
    .replace(/\$/g, '$$$$')}"`;
}

export function systemdUnitText(spec: ServiceSpec): string {
  const env = spec.env.map(([k, v]) => `Environment=${systemdQuote(`${k}=${v}`)}`);
  return [
    `# ${MARKER}; \`switchboard service uninstall\` removes it.`,
    '# The hub with its web UI. Its stdout (the UI token and the URL that carries it) is discarded;',
    '# its log (stderr) goes to the journal: journalctl --user -u switchboard. `switchboard ui` prints the URL.',
    '[Unit]',
    'Description=Switchboard hub with its web UI (switchboard serve --ui)',
    `StartLimitIntervalSec=${START_LIMIT_INTERVAL_S}`,
    `StartLimitBurst=${START_LIMIT_BURST}`,
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${[spec.node, spec.cli].map(systemdQuote).join(' ')} serve --ui`,
    ...env,
    'Restart=on-failure',
    `RestartSec=${RESTART_DELAY_S}`,
    'StandardOutput=null',
    'StandardError=journal',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

function xml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

export function launchdPlistText(spec: ServiceSpec, log: string): string {
  const str = (v: string): string => `<string>${xml(v)}</string>`;
  const args = [spec.node, spec.cli, 'serve', '--ui'].map((a) => `    ${str(a)}`);
  const env = spec.env.flatMap(([k, v]) => [`    <key>${xml(k)}</key>`, `    ${str(v)}`]);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    `<!-- ${xml(MARKER)}; \`switchboard service uninstall\` removes it. -->`,
    '<!-- The hub with its web UI; stdout (the UI token) is discarded, the log is StandardErrorPath. -->',
    '<plist version="1.0">',
    '<dict>',
    '  <key>Label</key>',
    `  ${str(LAUNCHD_LABEL)}`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...args,
    '  </array>',
    ...(env.length > 0 ? ['  <key>EnvironmentVariables</key>', '  <dict>', ...env, '  </dict>'] : []),
    '  <key>RunAtLoad</key>',
    '  <true/>',
    '  <key>KeepAlive</key>',
    '  <dict>',
    '    <key>SuccessfulExit</key>',
    '    <false/>',
    '  </dict>',
    '  <key>ThrottleInterval</key>',
    `  <integer>${RESTART_DELAY_S * 2}</integer>`,
    '  <key>ProcessType</key>',
    `  ${str('Background')}`,
    '  <key>StandardOutPath</key>',
    `  ${str('/dev/null')}`,
    '  <key>StandardErrorPath</key>',
    `  ${str(log)}`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}

/** Whether `text` is a file we wrote: it carries MARKER (which has nothing XML would escape). */
export function isOurs(text: string): boolean {
  return text.includes(MARKER);
}
