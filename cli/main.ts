// The `switchboard` command. Exit codes: 0 ok, 1 failure, 2 usage error,
// 3 hub not running. Every command accepts --json (one JSON document on
// stdout, errors included). Logs and diagnostics go to stderr.

import { CliFailure, EXIT, UsageError, type Ctx } from './common.js';
import { CodedError } from '../core/protocol/coded-error.js';
import { VERSION } from './version.js';

// Commands load on demand: the bundle stays one file, but a hook invocation
// evaluates only the code it runs (esbuild initialises dynamic imports lazily).
type Command = (args: string[], ctx: Ctx) => Promise<number>;
const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./commands/serve.js')).serve,
  status: async () => (await import('./commands/session.js')).status,
  session: async () => (await import('./commands/session.js')).session,
  agents: async () => (await import('./commands/messaging.js')).agents,
  send: async () => (await import('./commands/messaging.js')).send,
  inbox: async () => (await import('./commands/messaging.js')).inbox,
  ui: async () => (await import('./commands/ui-address.js')).uiAddress,
  held: async () => (await import('./commands/ui.js')).held,
  subscriptions: async () => (await import('./commands/ui.js')).subscriptions,
  rules: async () => (await import('./commands/rules.js')).rules,
  confirmations: async () => (await import('./commands/ui.js')).confirmations,
  teams: async () => (await import('./commands/teams.js')).teams,
  team: async () => (await import('./commands/teams.js')).team,
  tasks: async () => (await import('./commands/teams.js')).tasks,
  task: async () => (await import('./commands/teams.js')).task,
  hook: async () => (await import('./commands/hook.js')).hook,
  mcp: async () => (await import('./commands/mcp.js')).mcp,
  setup: async () => (await import('./commands/setup.js')).setup,
  history: async () => (await import('./commands/history.js')).history,
  service: async () => (await import('./commands/service.js')).service,
};

async function help(): Promise<string> {
  const [serve, address, session, messaging, ui, rules, teams, adapters, hist, svc] = await Promise.all([
    import('./commands/serve.js'),
    import('./commands/ui-address.js'),
    import('./commands/session.js'),
    import('./commands/messaging.js'),
    import('./commands/ui.js'),
    import('./commands/rules.js'),
    import('./commands/teams.js'),
    import('./commands/adapters-help.js'),
    import('./commands/history.js'),
    import('./commands/service.js'),
  ]);
  return `switchboard ${VERSION} — let coding agents on this machine find and message each other safely

${serve.SERVE_HELP}
${address.UI_ADDRESS_HELP}
${svc.SERVICE_HELP}

${session.SESSION_HELP}

${messaging.MESSAGING_HELP}

${ui.UI_HELP}
${rules.RULES_HELP}

${hist.HISTORY_HELP}

${teams.TEAMS_HELP}

${adapters.ADAPTERS_HELP}

Every command accepts --json. Exit codes: 0 ok, 1 failure, 2 usage error, 3 hub not running.
Environment: SWITCHBOARD_RUNTIME_DIR (sockets), SWITCHBOARD_HOME (state and settings.json, default ~/.switchboard),
SWITCHBOARD_SESSION/SWITCHBOARD_TOKEN (acting session), SWITCHBOARD_UI_TOKEN (user decisions).`;
}

export async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const ctx: Ctx = {
    json,
    out: (text) => process.stdout.write(text + '\n'),
    err: (text) => process.stderr.write(text + '\n'),
  };
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    ctx.out(await help());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version') {
    ctx.out(VERSION);
    return EXIT.ok;
  }
  const load = Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
  try {
    if (load === undefined) throw new UsageError(`unknown command ${JSON.stringify(name)}; see switchboard --help`);
    if (rest.includes('--help') || rest.includes('-h')) {
      ctx.out(await help());
      return EXIT.ok;
    }
    return await (
      await load()
    )(rest, ctx);
  } catch (err) {
    if (err instanceof UsageError) return report(ctx, 'usage', err.message, EXIT.usage);
    if (err instanceof CliFailure) return report(ctx, err.code, err.message, err.exitCode);
    // A domain error a command did not translate (setup refused, …): its code and its words.
    if (err instanceof CodedError) return report(ctx, (err as CodedError<string>).code, err.message, EXIT.failure);
    return report(ctx, 'internal', err instanceof Error ? err.message : String(err), EXIT.failure);
  }
}

function report(ctx: Ctx, reason: string, message: string, code: number): number {
  if (ctx.json) ctx.out(JSON.stringify({ error: { reason, message } }));
  ctx.err(`switchboard: ${message}`);
  return code;
}
