// `switchboard serve`: the headless hub in the foreground. The only place
// outside electron/ that creates the real world (clock, logger, endpoint).

import { Hub } from '../../core/host/hub.js';
import { EndpointError } from '../../core/host/endpoint.js';
import { HubRunningError } from '../../core/host/hub-lock.js';
import { JournalError } from '../../core/journal/journal.js';
import { stderrLogger } from '../../core/host/logger.js';
import path from 'node:path';
import { startWebServer, type WebServer } from '../../core/host/web.js';
import { CliFailure, intArg, parse, UsageError, type Ctx } from '../common.js';

const DEFAULT_UI_PORT = 7317;
import { VERSION } from '../version.js';

export const SERVE_HELP = `switchboard serve [--ui [--port N]] [--json] [--quiet]
  Runs the hub in the foreground until SIGINT or SIGTERM. Prints the user-interface
  token that \`held\` and \`subscriptions\` need (never written to disk).
  --json   print one ready line {"event":"ready","socket":…,"pid":…,"uiToken":…} on stdout
  --ui     also serve the user interface and its HTTP bridge on 127.0.0.1 (port N, default 7317;
           0 picks a free one); open the printed URL once, it carries the token
  --quiet  log only warnings and errors (to stderr)`;

export async function serve(args: string[], ctx: Ctx): Promise<number> {
  const { values } = parse(args, { quiet: { type: 'boolean' }, ui: { type: 'boolean' }, port: { type: 'string' } });
  const port = intArg('port', values.port, 0, 65535) ?? DEFAULT_UI_PORT;
  if (values.port !== undefined && !values.ui) throw new UsageError('--port needs --ui');
  let hub: Hub;
  try {
    hub = await Hub.start({ logger: stderrLogger(values.quiet ? 'warn' : 'info'), version: VERSION });
  } catch (err) {
    if (err instanceof HubRunningError) throw new CliFailure('hub_running', `A hub is already running on ${err.socket}`);
    if (err instanceof EndpointError) throw new CliFailure(`endpoint_${err.code}`, err.message);
    if (err instanceof JournalError) throw new CliFailure(`journal_${err.code}`, err.message);
    throw err;
  }
  let web: WebServer | undefined;
  if (values.ui) {
    try {
      web = await startWebServer(hub, { port, rendererDir: path.resolve(path.dirname(process.argv[1] as string), '..', 'renderer') });
    } catch (err) {
      await hub.close();
      throw new CliFailure('ui_port', `Cannot serve the user interface on 127.0.0.1:${port} (${(err as NodeJS.ErrnoException).code ?? String(err)}); choose another --port`);
    }
  }
  const info = hub.info();
  if (ctx.json) ctx.out(JSON.stringify({ event: 'ready', socket: info.socket, pid: info.pid, version: info.version, stateDir: info.stateDir, uiToken: hub.uiToken, ...(web ? { ui: web.url } : {}) }));
  else {
    ctx.out(`Switchboard hub ${info.version} listening on ${info.socket} (pid ${info.pid}). Ctrl-C stops it.`);
    ctx.out(`User-interface token (approves held messages; not written anywhere): ${hub.uiToken}`);
    ctx.out(`  export SWITCHBOARD_UI_TOKEN=${hub.uiToken}`);
    if (web) ctx.out(`User interface: ${web.url}`);
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
  await web?.close();
  await hub.close();
  return 0;
}
