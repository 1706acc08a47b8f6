// `switchboard status` and `switchboard session …`: hub information and a
// session's lifecycle for agents driven by hooks or scripts.

import path from 'node:path';
import { AGENT_KINDS, PERMISSION_MODES, SESSION_STATES } from '../../core/protocol/methods.js';
import { credentials, intArg, oneOf, parse, SESSION_OPTIONS, UsageError, withHub, type Ctx } from '../common.js';

export const SESSION_HELP = `switchboard status
switchboard session start --cwd DIR [--name N] [--mode MODE] [--pid PID] [--agent KIND] [--headless] [--shell]
  Registers a session that lives while PID lives (default: this command's parent).
  A name another live session holds is never shared: this one gets N-2, N-3 … and says so
  (on stderr), as it does when N was rewritten (lowercase, no spaces). --shell prints export lines for eval.
switchboard session state busy|idle
switchboard session mode MODE
switchboard session rename NAME
switchboard session stop
  These act as SWITCHBOARD_SESSION/SWITCHBOARD_TOKEN, or --session ID --token-file PATH
  (a file only you can read; - reads the token from stdin). Tokens never go in argv.
MODE: ${PERMISSION_MODES.join('|')}   KIND: ${AGENT_KINDS.join('|')}`;

export async function status(args: string[], ctx: Ctx): Promise<number> {
  parse(args, {}, false, 'status');
  const [info, { rows }] = await withHub(
    async (c) => [await c.call('hub.info', {}), await c.call('agents.list', {})] as const,
  );
  const silent = rows.filter((r) => r.hooks === 'never');
  if (ctx.json) {
    ctx.out(JSON.stringify({ ...info, hooksNeverReported: silent.map((r) => ({ label: r.label, agent: r.agent })) }));
    return 0;
  }
  ctx.out(
    `hub ${info.version} on ${info.socket}\npid ${info.pid}, ${info.sessions} live session(s)\nstate ${info.stateDir}`,
  );
  // The address only: the token stays out of status (pasted into bug reports); `switchboard ui` gives it.
  if (info.uiPort !== undefined)
    ctx.out(`ui http://127.0.0.1:${info.uiPort}/ (sign in with the URL \`switchboard ui\` prints)`);
  // Codex skips untrusted hooks and Gemini skips hooks in untrusted folders, silently.
  for (const r of silent)
    ctx.out(
      `hooks not running: ${r.label} (${r.agent}) — its hooks never reported (Codex: trust them in /hooks; Gemini: trust the folder; or run switchboard setup)`,
    );
  return 0;
}

function shellQuote(v: string): string {
  return `'${v.replace(/'/g, `'\\''`)}'`;
}

async function start(args: string[], ctx: Ctx): Promise<number> {
  const { values } = parse(
    args,
    {
      cwd: { type: 'string' },
      name: { type: 'string' },
      mode: { type: 'string' },
      pid: { type: 'string' },
      agent: { type: 'string' },
      headless: { type: 'boolean' },
      shell: { type: 'boolean' },
    },
    false,
    'session start',
  );
  if (values.cwd === undefined) throw new UsageError('session start needs --cwd DIR');
  const reg = await withHub((c) =>
    c.call('session.register', {
      cwd: path.resolve(values.cwd as string),
      ...(values.name !== undefined ? { name: values.name } : {}),
      permissionMode: oneOf('--mode', values.mode, PERMISSION_MODES) ?? 'default',
      agent: oneOf('--agent', values.agent, AGENT_KINDS) ?? 'other',
      pid: intArg('pid', values.pid, 1, 2 ** 31) ?? process.ppid,
      interactive: values.headless !== true,
      liveness: 'pid',
    }),
  );
  // Another name than the one asked for (rewritten, or held by a live session): said on stderr, never eval'd.
  if (!ctx.json && reg.nameChange !== undefined) ctx.err(reg.nameChange.note);
  if (ctx.json) ctx.out(JSON.stringify(reg));
  else if (values.shell)
    ctx.out(
      `export SWITCHBOARD_SESSION=${shellQuote(reg.sessionId)}\nexport SWITCHBOARD_TOKEN=${shellQuote(reg.token)}`,
    );
  else
    ctx.out(
      `sessionId ${reg.sessionId}\ntoken     ${reg.token}\nname      ${reg.name}\nref       ${reg.ref}\naddress   ${reg.address}`,
    );
  return 0;
}

export async function session(args: string[], ctx: Ctx): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'start':
      return start(rest, ctx);
    case 'state': {
      const { values, positionals } = parse(rest, SESSION_OPTIONS, true, 'session state');
      const state = oneOf('state', positionals[0], SESSION_STATES);
      if (state === undefined || positionals.length !== 1)
        throw new UsageError('usage: switchboard session state busy|idle');
      const creds = await credentials(values);
      const r = await withHub((c) => c.call('session.state', { ...creds, state }));
      ctx.out(ctx.json ? JSON.stringify(r) : r.state);
      return 0;
    }
    case 'mode': {
      const { values, positionals } = parse(rest, SESSION_OPTIONS, true, 'session mode');
      const mode = oneOf('mode', positionals[0], PERMISSION_MODES);
      if (mode === undefined || positionals.length !== 1)
        throw new UsageError(`usage: switchboard session mode ${PERMISSION_MODES.join('|')}`);
      const creds = await credentials(values);
      const r = await withHub((c) => c.call('session.mode', { ...creds, permissionMode: mode }));
      ctx.out(ctx.json ? JSON.stringify(r) : r.permissionMode);
      return 0;
    }
    case 'rename': {
      const { values, positionals } = parse(rest, SESSION_OPTIONS, true, 'session rename');
      if (positionals.length !== 1) throw new UsageError('usage: switchboard session rename NAME');
      const creds = await credentials(values);
      const r = await withHub((c) => c.call('session.rename', { ...creds, name: positionals[0] as string }));
      if (!ctx.json && r.nameChange !== undefined) ctx.err(r.nameChange.note);
      ctx.out(ctx.json ? JSON.stringify(r) : `${r.name} [${r.ref}]`);
      return 0;
    }
    case 'stop': {
      const { values } = parse(rest, SESSION_OPTIONS, false, 'session stop');
      const creds = await credentials(values);
      const r = await withHub((c) => c.call('session.unregister', creds));
      ctx.out(ctx.json ? JSON.stringify(r) : 'stopped');
      return 0;
    }
    default:
      throw new UsageError(
        `unknown session command ${sub === undefined ? '(none)' : JSON.stringify(sub)}; see switchboard session --help`,
      );
  }
}
