// `switchboard service install|uninstall|status`: the headless hub with its
// web UI (`serve --ui`) as a login service, for machines without the desktop
// app: a systemd user unit on Linux, a launchd agent on macOS (the files are
// cli/service/files.ts's). install writes the file (never over one without
// our marker), then enables and starts it unless --no-start; a manager that
// cannot be reached (no user bus) leaves the file written and says how to
// start it. uninstall stops and disables it and removes that one file, only
// when it is ours. status: the file, the manager's word, and whether a hub
// answers on the socket. --dry-run writes and runs nothing. Elsewhere
// (Windows) every subcommand fails with "not supported here yet".

import fs from 'node:fs';
import path from 'node:path';
import { HubClient, HubNotRunningError } from '../../core/client/client.js';
import { atMost, CliFailure, hubSocketPath, parse, UsageError, type Ctx } from '../common.js';
import {
  checkSpec,
  currentSpec,
  isOurs,
  launchdLog,
  launchdPlistText,
  platformOf,
  serviceFile,
  systemdUnitText,
  type Platform,
} from '../service/files.js';
import {
  afterRemoveCommands,
  managerState,
  mayFail,
  runCommand,
  startCommands,
  startHint,
  stopCommands,
  unreachable,
  why,
  type Ran,
} from '../service/manager.js';

export const SERVICE_HELP = `switchboard service install [--dry-run] [--no-start] | uninstall [--dry-run] | status
  The headless hub with its web UI (serve --ui) as a login service: a systemd user unit
  (Linux, journalctl --user -u switchboard) or a launchd agent (macOS, log in ~/Library/Logs).
  Never overwrites or removes a file it did not write. The UI URL: switchboard ui.`;

const USAGE = 'switchboard service install [--dry-run] [--no-start] | uninstall [--dry-run] | status';
const PROBE_TIMEOUT_MS = 2000;

const shown = (argv: string[]): string =>
  argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');

function readIfThere(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliFailure('service_unreadable', `Cannot read ${file}: ${(err as Error).message}`);
  }
}

function foreign(file: string, doing: string): CliFailure {
  return new CliFailure(
    'service_file_foreign',
    `${file} exists and was not written by switchboard (it lacks our marker comment); ${doing}. Move it away first if it should go.`,
  );
}

/** Runs `commands` in order and stops at the first failure that matters; every outcome is kept. */
async function runAll(commands: string[][]): Promise<{ ran: Ran[]; failed?: Ran }> {
  const ran: Ran[] = [];
  for (const argv of commands) {
    const r = await runCommand(argv);
    ran.push(r);
    if (!r.ok && !mayFail(argv)) return { ran, failed: r };
  }
  return { ran };
}

export async function service(args: string[], ctx: Ctx): Promise<number> {
  const { values, positionals } = parse(
    args,
    { 'dry-run': { type: 'boolean' }, 'no-start': { type: 'boolean' } },
    true,
    'service',
  );
  atMost(positionals, 1, USAGE);
  const sub = positionals[0];
  if (sub !== 'install' && sub !== 'uninstall' && sub !== 'status') throw new UsageError(`usage: ${USAGE}`);
  if (values['no-start'] === true && sub !== 'install') throw new UsageError('--no-start applies to install only');
  if (values['dry-run'] === true && sub === 'status')
    throw new UsageError('--dry-run applies to install and uninstall');
  const platform = platformOf(process.platform);
  if (platform === undefined)
    throw new CliFailure(
      'service_unsupported',
      `switchboard service is not supported here yet (${process.platform}): it knows systemd (Linux) and launchd (macOS). Run switchboard serve --ui instead.`,
    );
  const file = serviceFile(platform);
  const dry = values['dry-run'] === true;
  if (sub === 'install') return install(platform, file, dry, values['no-start'] === true, ctx);
  if (sub === 'uninstall') return uninstall(platform, file, dry, ctx);
  return status(platform, file, ctx);
}

async function install(platform: Platform, file: string, dry: boolean, noStart: boolean, ctx: Ctx): Promise<number> {
  const spec = currentSpec(process.execPath, fs.realpathSync(process.argv[1] as string), process.env);
  const bad = checkSpec(spec);
  if (bad !== undefined) throw new CliFailure('service_path', `Cannot write a service file: ${bad}`);
  const content = platform === 'systemd' ? systemdUnitText(spec) : launchdPlistText(spec, launchdLog());
  const before = readIfThere(file);
  if (before !== undefined && !isOurs(before)) throw foreign(file, 'it was left as it is');
  const changed = before !== content;
  const commands = noStart ? [] : startCommands(platform, file, before !== undefined && changed);
  const hub = before === undefined ? await probeHub() : undefined;
  const notes: string[] = [];
  if (hub && 'pid' in hub)
    notes.push(
      `A hub already answers on ${hub.socket} (pid ${hub.pid}); the service's hub cannot start while it runs: stop it (or quit the desktop app).`,
    );
  if (dry) {
    if (ctx.json) ctx.out(JSON.stringify({ platform, file, dryRun: true, changed, content, commands, notes }));
    else {
      ctx.out(changed ? `Would write ${file}:\n\n${content}` : `${file} is already this; it would stay as it is.`);
      ctx.out(
        commands.length ? `Would run:\n${commands.map((c) => `  ${shown(c)}`).join('\n')}` : 'Would run nothing.',
      );
      for (const n of notes) ctx.out(n);
      ctx.out('(dry run: nothing was written or run)');
    }
    return 0;
  }
  if (changed) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (platform === 'launchd') fs.mkdirSync(path.dirname(launchdLog()), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, content, { mode: 0o644 });
    fs.renameSync(tmp, file);
  }
  const { ran, failed } = await runAll(commands);
  let started = !noStart && failed === undefined;
  let code = 0;
  if (noStart) notes.push(`Not started (--no-start). Start it with: ${startHint(platform, file)}`);
  else if (failed !== undefined) {
    started = false;
    const unreached = platform === 'systemd' && unreachable(failed);
    if (!unreached) code = 1;
    notes.push(
      `${unreached ? 'The service manager cannot be reached' : 'Starting it failed'} (${shown(failed.argv)}: ${why(failed)}); the file stays. ${
        unreached ? 'In a login session with systemd, start it with' : 'Once fixed, start it with'
      }: ${startHint(platform, file)}`,
    );
  }
  if (ctx.json)
    ctx.out(JSON.stringify({ platform, file, dryRun: false, changed, started, ran: ran.map((r) => r.argv), notes }));
  else {
    ctx.out(changed ? `Wrote ${file}.` : `${file} was already this; left as it is.`);
    if (started)
      ctx.out(
        `Enabled and started: it runs \`switchboard serve --ui\` at every login. \`switchboard ui\` prints its URL; ${
          platform === 'systemd' ? 'logs: journalctl --user -u switchboard' : `log: ${launchdLog()}`
        }.`,
      );
    for (const n of notes)
      if (code === 0) ctx.out(n);
      else ctx.err(n);
  }
  return code;
}

async function uninstall(platform: Platform, file: string, dry: boolean, ctx: Ctx): Promise<number> {
  const before = readIfThere(file);
  if (before === undefined) {
    if (ctx.json) ctx.out(JSON.stringify({ platform, file, dryRun: dry, removed: false, ran: [], notes: [] }));
    else ctx.out(`${file} is not there: nothing to remove.`);
    return 0;
  }
  if (!isOurs(before)) throw foreign(file, 'nothing was stopped or removed');
  const stop = stopCommands(platform);
  const after = afterRemoveCommands(platform);
  if (dry) {
    if (ctx.json)
      ctx.out(JSON.stringify({ platform, file, dryRun: true, removed: false, commands: [...stop, ...after] }));
    else
      ctx.out(
        `Would run:\n${stop.map((c) => `  ${shown(c)}`).join('\n')}\nWould remove ${file}${
          after.length ? `\nThen run:\n${after.map((c) => `  ${shown(c)}`).join('\n')}` : ''
        }\n(dry run: nothing was removed or run)`,
      );
    return 0;
  }
  const notes: string[] = [];
  // The file goes whatever the manager says: a stop that fails (not loaded, no user bus) is reported, not fatal.
  const stopped = await runAll(stop);
  if (stopped.failed && !mayFail(stopped.failed.argv))
    notes.push(`${shown(stopped.failed.argv)} failed: ${why(stopped.failed)}`);
  fs.rmSync(file);
  const reloaded = stopped.failed && unreachable(stopped.failed) ? { ran: [] } : await runAll(after);
  if (ctx.json)
    ctx.out(
      JSON.stringify({
        platform,
        file,
        dryRun: false,
        removed: true,
        ran: [...stopped.ran, ...reloaded.ran].map((r) => r.argv),
        notes,
      }),
    );
  else {
    ctx.out(stopped.failed ? `Removed ${file}.` : `Stopped, disabled and removed ${file}.`);
    for (const n of notes) ctx.err(n);
  }
  return 0;
}

type HubProbe = { socket: string } & ({ pid: number; version: string; uiPort?: number } | { running: false });

/** Whether a hub answers on this user's socket (what `switchboard status` asks, with a short timeout). */
async function probeHub(): Promise<HubProbe> {
  const socket = hubSocketPath();
  try {
    const client = await HubClient.connect(socket, { timeoutMs: PROBE_TIMEOUT_MS });
    try {
      const info = await client.call('hub.info', {});
      return {
        socket,
        pid: info.pid,
        version: info.version,
        ...(info.uiPort !== undefined ? { uiPort: info.uiPort } : {}),
      };
    } finally {
      client.close();
    }
  } catch (err) {
    // Not running, or not answering in time: either way no hub serves this user.
    if (err instanceof HubNotRunningError || err instanceof Error) return { socket, running: false };
    throw err;
  }
}

async function status(platform: Platform, file: string, ctx: Ctx): Promise<number> {
  const text = readIfThere(file);
  const installed = text === undefined ? 'no' : isOurs(text) ? 'yes' : 'foreign';
  const [manager, hub] = await Promise.all([managerState(platform), probeHub()]);
  if (ctx.json) {
    ctx.out(JSON.stringify({ platform, file, installed, manager, hub }));
    return 0;
  }
  ctx.out(
    installed === 'yes'
      ? `installed ${file}`
      : installed === 'foreign'
        ? `not installed: ${file} exists but switchboard did not write it`
        : `not installed (${file} is not there)`,
  );
  const name = platform === 'systemd' ? 'systemd --user' : 'launchd';
  ctx.out(
    manager.reachable
      ? `${name}: ${manager.state}${manager.enabled !== undefined ? `, ${manager.enabled}` : ''}`
      : `${name}: unreachable (${manager.detail})`,
  );
  ctx.out(
    'pid' in hub
      ? `hub ${hub.version} answers on ${hub.socket} (pid ${hub.pid})${hub.uiPort !== undefined ? `, ui http://127.0.0.1:${hub.uiPort}/ (switchboard ui prints the URL)` : ', without the web UI'}`
      : `no hub answers on ${hub.socket}`,
  );
  return 0;
}
