// `switchboard setup claude-code|codex|gemini|opencode|qwen [--dry-run] [--uninstall] [--agent-version X.Y.Z] [--post-tool-hook] [--transport stdio|http]`.

// The plan is core/setup/planning.ts's, the same one the UI's setup applies
// (Claude Code's version found the same way).

import { oneOf, parse, UsageError, type Ctx } from '../common.js';
import { currentSetupEnv, SETUP_AGENTS, setupNotes, type SetupAgent } from '../../core/setup/agents.js';
import { planSetup } from '../../core/setup/planning.js';
import { applyChanges, describeChange } from '../../core/setup/edit.js';

export async function setup(args: string[], ctx: Ctx): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      'dry-run': { type: 'boolean' },
      uninstall: { type: 'boolean' },
      'agent-version': { type: 'string' },
      'post-tool-hook': { type: 'boolean' },
      transport: { type: 'string' },
    },
    true,
    'setup',
  );
  const agent = positionals[0];
  if (positionals.length !== 1 || !(SETUP_AGENTS as readonly string[]).includes(agent as string)) {
    throw new UsageError(
      `usage: switchboard setup ${SETUP_AGENTS.join('|')} [--dry-run] [--uninstall] [--agent-version X.Y.Z] [--post-tool-hook] [--transport stdio|http]`,
    );
  }
  const transport = oneOf('--transport', values.transport, ['stdio', 'http'] as const);
  if (transport === 'http' && agent !== 'claude-code')
    throw new UsageError(
      '--transport http applies to claude-code only (the other agents keep their own `switchboard mcp` process)',
    );
  if (values['post-tool-hook'] === true && agent !== 'claude-code')
    throw new UsageError(
      '--post-tool-hook applies to claude-code only (the other agents always get their post-tool hook)',
    );
  const version = typeof values['agent-version'] === 'string' ? values['agent-version'] : undefined;
  if (version !== undefined && !/^v?\d+(\.\d+){0,3}([-+ ].*)?$/.test(version))
    throw new UsageError('--agent-version must look like 2.1.118');
  const env = currentSetupEnv();
  if (values.uninstall !== true && runsFromNpxCache(env.script))
    ctx.err(
      `switchboard setup: this copy runs from npx's cache (${env.script}), which npm may clear; the hooks and the MCP server it writes would then break. Install it (npm install -g) and run setup from the installed switchboard.`,
    );
  // A SetupError (code setup_refused) is reported by cli/main.ts like any coded error.
  const p = (
    await planSetup(agent as SetupAgent, env, {
      uninstall: values.uninstall === true,
      agentVersion: version,
      postToolHook: values['post-tool-hook'] === true,
      transport,
    })
  ).plan;
  const dry = values['dry-run'] === true;
  const backups = dry ? [] : applyChanges(p.changes, new Date());
  const notes =
    values.uninstall === true || p.changes.length === 0
      ? []
      : [...setupNotes(p.agent), ...(transport === 'http' ? [HTTP_NOTE] : [])];
  if (ctx.json) {
    ctx.out(
      JSON.stringify({
        agent,
        dryRun: dry,
        uninstall: values.uninstall === true,
        changed: p.changes.map((c) => c.file),
        backups,
        diff: p.changes.map(describeChange),
        notes,
      }),
    );
    return 0;
  }
  if (p.changes.length === 0)
    ctx.out(`${agent}: already ${values.uninstall ? 'removed' : 'set up'}; nothing to change.`);
  else {
    for (const c of p.changes) ctx.out(describeChange(c) + '\n');
    if (dry) ctx.out('(dry run: nothing was written)');
    else
      ctx.out(
        `${values.uninstall ? 'Removed from' : 'Set up'} ${agent}.${backups.length ? ` Backups: ${backups.join(', ')}` : ''}`,
      );
  }
  if (notes.length > 0) ctx.out(['', 'Still to do:', ...notes.map((n) => `- ${n}`)].join('\n'));
  return 0;
}

const HTTP_NOTE =
  'Claude Code now reaches the hub over HTTP on 127.0.0.1 (the port above; SWITCHBOARD_MCP_PORT for serve and setup alike): its headersHelper starts a hub when none runs, and a hub you start must serve that port (serve and the desktop app do unless SWITCHBOARD_MCP_PORT=off).';

/** Whether the bundle is npx's temporary copy (`~/.npm/_npx/<hash>/node_modules/…`). */
function runsFromNpxCache(script: string): boolean {
  return script.split(/[\\/]/).includes('_npx');
}
