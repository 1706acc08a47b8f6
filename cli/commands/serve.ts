// `switchboard serve`: the headless hub in the foreground. The only place
// outside electron/ that creates the real world (clock, logger, endpoint).
// While it runs, process-guards.ts logs stray rejections (and keeps going)
// and turns an uncaught exception into a logged, orderly stop (exit 70);
// SIGINT, SIGTERM, SIGHUP and SIGQUIT stop it in order, and every other
// signal that would end it is logged and ignored (core/kit/signals.ts).
// With --ui and no --port, a default port another program holds is not
// fatal: the UI takes a free port and says so. A hub that already runs is
// reported with its UI's address (never its token: that only ever appears
// in that hub's own first output).

import path from 'node:path';
import { HubClient } from '../../core/client/client.js';
import { EndpointError } from '../../core/transport/endpoint.js';
import { startHub, type Hub } from '../../core/index.js';
import { HubRunningError } from '../../core/transport/hub-lock.js';
import { JournalError } from '../../core/journal/journal.js';
import { isStorageError } from '../../core/storage/storage-error.js';
import { stderrLogger, type Logger } from '../../core/kit/logger.js';
import { handleSignals } from '../../core/kit/signals.js';
import { startWebServer, type WebServer } from '../../core/index.js';
import { CliFailure, intArg, parse, storageFailure, UsageError, type Ctx } from '../common.js';
import { EXIT_INTERNAL, FATAL_EXIT_MS, installProcessGuards } from '../../core/kit/process-guards.js';
import { VERSION } from '../version.js';
import { startMcpHttp } from '../mcp-http/start.js';
import { mcpUrl } from '../../core/transport/mcp-port.js';

/** The UI's usual port; `--port` overrides it, and a taken default falls back to a free one. */
export const DEFAULT_UI_PORT = 7317;
const INFO_TIMEOUT_MS = 2000; // asking a running hub where its UI is

export const SERVE_HELP = `switchboard serve [--ui [--port N]] [--json] [--quiet]
  Runs the hub in the foreground until SIGINT, SIGTERM, SIGHUP or SIGQUIT (other signals
  are logged and ignored; SIGUSR1 opens no debugger). Prints the user-interface
  token that \`held\` and \`subscriptions\` need (never written to disk).
  --json   print one ready line {"event":"ready","socket":…,"pid":…,"uiToken":…} on stdout
  --ui     also serve the user interface and its HTTP bridge on 127.0.0.1 (port N, default 7317;
           0 picks a free one; a default port held by another program is swapped for a free one);
           open the printed URL, it carries the token after "#". When a hub already runs, says
           where its UI is; \`switchboard ui\` prints that hub's URL with its token again
  --quiet  log only warnings and errors (to stderr)`;

/** Why a second hub cannot start, with the running hub's UI address when it serves one. */
async function alreadyRunning(err: HubRunningError, wantUi: boolean): Promise<CliFailure> {
  let info: { pid: number; uiPort?: number } | undefined;
  try {
    const client = await HubClient.connect(err.socket, { timeoutMs: INFO_TIMEOUT_MS });
    try {
      info = await client.call('hub.info', {});
    } finally {
      client.close();
    }
  } catch {
    info = undefined;
  }
  const who = `A hub is already running on ${err.socket}${info ? ` (pid ${info.pid})` : ''}`;
  if (info?.uiPort !== undefined) {
    return new CliFailure(
      'hub_running',
      `${who} and serves the user interface at http://127.0.0.1:${info.uiPort}/ — run \`switchboard ui\` for its URL with the token`,
    );
  }
  if (wantUi)
    return new CliFailure(
      'hub_running',
      `${who} without the web user interface (a plain serve, or the desktop app); stop it and run serve --ui, or use the desktop app's window`,
    );
  return new CliFailure('hub_running', who);
}

async function startUi(hub: Hub, port: number, explicit: boolean, ctx: Ctx): Promise<WebServer> {
  const rendererDir = path.resolve(path.dirname(process.argv[1] as string), '..', 'renderer');
  try {
    return await startWebServer(hub, { port, rendererDir });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' && !explicit) {
      const web = await startWebServer(hub, { port: 0, rendererDir });
      ctx.err(
        `switchboard: 127.0.0.1:${port} is in use by another program; the user interface is on port ${web.port} instead`,
      );
      return web;
    }
    const hint =
      code === 'EADDRINUSE'
        ? 'it is in use by another program; choose another --port, or --port 0 for a free one'
        : `${code ?? String(err)}; choose another --port`;
    throw new CliFailure('ui_port', `Cannot serve the user interface on 127.0.0.1:${port}: ${hint}`);
  }
}

export async function serve(args: string[], ctx: Ctx): Promise<number> {
  const { values } = parse(
    args,
    { quiet: { type: 'boolean' }, ui: { type: 'boolean' }, port: { type: 'string' } },
    false,
    'serve',
  );
  const port = intArg('port', values.port, 0, 65535) ?? DEFAULT_UI_PORT;
  if (values.port !== undefined && !values.ui) throw new UsageError('--port needs --ui');
  const logger = stderrLogger(values.quiet ? 'warn' : 'info');
  let stopFatally = (): void => process.exit(EXIT_INTERNAL); // before the hub runs there is nothing to close
  const removeGuards = installProcessGuards(process, logger, () => {
    setTimeout(() => process.exit(EXIT_INTERNAL), FATAL_EXIT_MS).unref();
    stopFatally();
  });
  // From the first moment: a stop signal during start-up stops the hub as soon as it runs.
  let stopRequested = false;
  let requestStop = (): void => void (stopRequested = true);
  const removeSignals = handleSignals(process, logger, () => requestStop());
  try {
    return await run(values, port, logger, ctx, (stop, fatal) => {
      stopFatally = fatal;
      if (stopRequested) stop();
      else requestStop = stop;
    });
  } finally {
    removeSignals();
    removeGuards();
  }
}

async function run(
  values: { quiet?: boolean; ui?: boolean; port?: string },
  port: number,
  logger: Logger,
  ctx: Ctx,
  /** Hands over what a stop signal (`stop`) and an uncaught exception (`fatal`) call once the hub runs. */
  onStop: (stop: () => void, fatal: () => void) => void,
): Promise<number> {
  let hub: Hub;
  try {
    hub = await startHub({ logger, version: VERSION });
  } catch (err) {
    if (err instanceof HubRunningError) throw await alreadyRunning(err, values.ui === true);
    if (err instanceof EndpointError) throw new CliFailure(`endpoint_${err.code}`, err.message);
    if (err instanceof JournalError) throw new CliFailure(`journal_${err.code}`, err.message);
    if (isStorageError(err))
      throw storageFailure(
        err.reason as 'storage_full' | 'storage_readonly',
        (err.data as { directory: string }).directory,
        'the hub cannot start',
        'run serve again',
      );
    throw err;
  }
  let web: WebServer | undefined;
  if (values.ui) {
    try {
      web = await startUi(hub, port, values.port !== undefined, ctx);
    } catch (err) {
      await hub.close();
      throw err;
    }
  }
  const mcpHttp = await startMcpHttp(hub.info().socket, logger);
  const info = hub.info();
  if (ctx.json)
    ctx.out(
      JSON.stringify({
        event: 'ready',
        socket: info.socket,
        pid: info.pid,
        version: info.version,
        stateDir: info.stateDir,
        uiToken: hub.uiToken,
        ...(web ? { ui: web.url } : {}),
        ...(mcpHttp ? { mcp: mcpUrl(mcpHttp.port) } : {}),
      }),
    );
  else {
    ctx.out(`Switchboard hub ${info.version} listening on ${info.socket} (pid ${info.pid}). Ctrl-C stops it.`);
    ctx.out(`User-interface token (approves held messages; not written anywhere): ${hub.uiToken}`);
    ctx.out(`  export SWITCHBOARD_UI_TOKEN=${hub.uiToken}`);
    if (web) ctx.out(`User interface: ${web.url}`);
    if (mcpHttp) ctx.out(`MCP over HTTP for agents set up with --transport http: ${mcpUrl(mcpHttp.port)}`);
  }
  let code = 0;
  await new Promise<void>((resolve) =>
    onStop(resolve, () => {
      code = EXIT_INTERNAL;
      resolve();
    }),
  );
  await mcpHttp?.close();
  await web?.close();
  await hub.close();
  return code;
}
