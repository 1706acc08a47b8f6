// `switchboard hook <event> --agent claude|codex|gemini`: one hook
// invocation. It must never break the agent: any failure exits 0 with at
// most one line on stderr, and nothing pending means no output at all.
// Fast path (post-tool with nothing pending): one file read, one request;
// through the hooks' own entry (cli/hook-bin.ts) not even the request when
// the hub marked the session quiet. Stdin is read synchronously (no streams).

import { HubClient, HubNotRunningError, RpcError } from '../../core/client/client.js';
import { hubSocketPath, parse, UsageError, type Ctx } from '../common.js';
import { boundary, setMode } from '../agent/boundary.js';
import { HOOK_EVENTS, parseHookInput, type HookEvent, type HookInput } from '../agent/dialects.js';
import { readStdinSync } from '../agent/stdin.js';
import { postToolHasNothingToDo } from '../agent/quiet-check.js';
import {
  agentPid,
  authOf,
  ensureSession,
  forgetCredentials,
  hookCredentialsFile,
  readCredentials,
  type AgentKind,
  type Credentials,
} from '../agent/identity.js';

export const AGENTS = ['claude', 'codex', 'gemini', 'qwen'] as const;

/** `stdin`: the hook input when the caller has read it already (the hooks' own entry). */
export async function hook(args: string[], ctx: Ctx, stdin?: string): Promise<number> {
  const { values, positionals } = parse(args, { agent: { type: 'string' } }, true);
  const event = positionals[0] as HookEvent | undefined;
  if (event === undefined || !(HOOK_EVENTS as readonly string[]).includes(event))
    throw new UsageError(`usage: switchboard hook ${HOOK_EVENTS.join('|')} --agent ${AGENTS.join('|')}`);
  const agent = (values.agent ?? 'claude') as AgentKind;
  if (!(AGENTS as readonly string[]).includes(agent))
    throw new UsageError(`--agent must be one of ${AGENTS.join(', ')}`);
  try {
    const raw = stdin ?? readStdinSync();
    // The hooks' own entry checked the mark before loading this; `switchboard hook` checks it here.
    if (stdin === undefined && event === 'post-tool' && postToolHasNothingToDo(agent, raw)) return 0;
    const input = parseHookInput(raw, agent);
    const out = await run(event, agent, input);
    if (out !== undefined) ctx.out(JSON.stringify(out));
  } catch (err) {
    // Never break the agent: one line, exit 0.
    const detail = err instanceof RpcError && Array.isArray(err.data.issues) ? ` (${err.data.issues.join('; ')})` : '';
    const msg =
      err instanceof HubNotRunningError
        ? 'hub not running (start it with `switchboard serve`)'
        : err instanceof Error
          ? err.message + detail
          : String(err);
    ctx.err(`switchboard hook ${event}: ${msg}`);
    if (process.env.SWITCHBOARD_DEBUG) ctx.err(String(err instanceof Error ? err.stack : err));
  }
  return 0;
}

async function run(event: HookEvent, agent: AgentKind, input: HookInput): Promise<unknown> {
  const pid = agentPid();
  const file = hookCredentialsFile(pid, agent, input.sessionId);
  const client = await HubClient.connect(hubSocketPath(), { timeoutMs: 2000 });
  try {
    const ensure = (): Promise<Credentials> =>
      ensureSession({
        client,
        pid,
        cwd: input.cwd,
        agent,
        hook: true,
        file,
        agentSessionId: input.sessionId,
        ...(input.permissionMode ? { permissionMode: input.permissionMode } : {}),
      });
    /** Calls with the known credentials; registers or resumes once if the hub does not know them. */
    const withCreds = async <T>(fn: (c: Credentials) => Promise<T>): Promise<T> => {
      const known = readCredentials(file);
      if (known !== undefined) {
        try {
          return await fn(authOf(known));
        } catch (err) {
          if (!(err instanceof RpcError) || err.reason !== 'unauthorized') throw err;
        }
      }
      return fn(await ensure());
    };
    switch (event) {
      case 'session-start': {
        const c = await ensure();
        if (input.permissionMode) await setMode(client, c, input.permissionMode);
        return undefined;
      }
      case 'prompt-submit':
      case 'post-tool':
      case 'stop':
        return await withCreds((c) => boundary(client, c, agent, event, input));
      case 'session-end': {
        const known = readCredentials(file);
        if (known !== undefined) await client.call('session.unregister', authOf(known)).catch(() => undefined);
        forgetCredentials(file);
        return undefined;
      }
      default: {
        const never: never = event;
        return never;
      }
    }
  } finally {
    client.close();
  }
}
