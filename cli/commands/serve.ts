// `switchboard serve`: the headless hub in the foreground. The only place
// outside electron/ that creates the real world (clock, logger, endpoint).

import { Hub } from '../../core/host/hub.js';
import { EndpointError } from '../../core/host/endpoint.js';
import { HubRunningError } from '../../core/host/hub-lock.js';
import { stderrLogger } from '../../core/host/logger.js';
import { CliFailure, parse, type Ctx } from '../common.js';
import { VERSION } from '../version.js';

export const SERVE_HELP = `switchboard serve [--json] [--quiet]
  Runs the hub in the foreground until SIGINT or SIGTERM. Prints the user-interface
  token that \`held\` and \`subscriptions\` need (never written to disk).
  --json   print one ready line {"event":"ready","socket":…,"pid":…,"uiToken":…} on stdout
  --quiet  log only warnings and errors (to stderr)`;

export async function serve(args: string[], ctx: Ctx): Promise<number> {
  const { values } = parse(args, { quiet: { type: 'boolean' } });
  let hub: Hub;
  try {
    hub = await Hub.start({ logger: stderrLogger(values.quiet ? 'warn' : 'info'), version: VERSION });
  } catch (err) {
    if (err instanceof HubRunningError) throw new CliFailure('hub_running', `A hub is already running on ${err.socket}`);
    if (err instanceof EndpointError) throw new CliFailure(`endpoint_${err.code}`, err.message);
    throw err;
  }
  const info = hub.info();
  if (ctx.json) ctx.out(JSON.stringify({ event: 'ready', socket: info.socket, pid: info.pid, version: info.version, stateDir: info.stateDir, uiToken: hub.uiToken }));
  else {
    ctx.out(`Switchboard hub ${info.version} listening on ${info.socket} (pid ${info.pid}). Ctrl-C stops it.`);
    ctx.out(`User-interface token (approves held messages; not written anywhere): ${hub.uiToken}`);
    ctx.out(`  export SWITCHBOARD_UI_TOKEN=${hub.uiToken}`);
  }
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await hub.close();
  return 0;
}
