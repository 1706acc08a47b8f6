// The `switchboard` command. Exit codes: 0 ok, 1 failure, 2 usage error,
// 3 hub not running. Every command accepts --json (one JSON document on
// stdout, errors included). Logs and diagnostics go to stderr.

import { CliFailure, EXIT, UsageError, type Ctx } from './common.js';
import { agents, inbox, MESSAGING_HELP, send } from './commands/messaging.js';
import { serve, SERVE_HELP } from './commands/serve.js';
import { session, SESSION_HELP, status } from './commands/session.js';
import { held, subscriptions, UI_HELP } from './commands/ui.js';
import { task, tasks, team, teams, TEAMS_HELP } from './commands/teams.js';
import { VERSION } from './version.js';

const HELP = `switchboard ${VERSION} — let coding agents on this machine find and message each other safely

${SERVE_HELP}

${SESSION_HELP}

${MESSAGING_HELP}

${UI_HELP}

${TEAMS_HELP}

Every command accepts --json. Exit codes: 0 ok, 1 failure, 2 usage error, 3 hub not running.
Environment: SWITCHBOARD_RUNTIME_DIR (sockets), SWITCHBOARD_HOME (state and settings.json, default ~/.switchboard),
SWITCHBOARD_SESSION/SWITCHBOARD_TOKEN (acting session), SWITCHBOARD_UI_TOKEN (user decisions).`;

type Command = (args: string[], ctx: Ctx) => Promise<number>;
const COMMANDS: Record<string, Command> = { serve, status, session, agents, send, inbox, held, subscriptions, teams, team, tasks, task };

export async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const ctx: Ctx = {
    json,
    out: (text) => process.stdout.write(text + '\n'),
    err: (text) => process.stderr.write(text + '\n'),
  };
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    ctx.out(HELP);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version') {
    ctx.out(VERSION);
    return EXIT.ok;
  }
  const command = Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
  try {
    if (command === undefined) throw new UsageError(`unknown command ${JSON.stringify(name)}; see switchboard --help`);
    if (rest.includes('--help') || rest.includes('-h')) {
      ctx.out(HELP);
      return EXIT.ok;
    }
    return await command(rest, ctx);
  } catch (err) {
    if (err instanceof UsageError) return report(ctx, 'usage', err.message, EXIT.usage);
    if (err instanceof CliFailure) return report(ctx, err.reason, err.message, err.code);
    return report(ctx, 'internal', err instanceof Error ? err.message : String(err), EXIT.failure);
  }
}

function report(ctx: Ctx, reason: string, message: string, code: number): number {
  if (ctx.json) ctx.out(JSON.stringify({ error: { reason, message } }));
  ctx.err(`switchboard: ${message}`);
  return code;
}
