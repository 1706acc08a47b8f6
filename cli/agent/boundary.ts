// What a hook does at a turn boundary, once its session's credentials are
// known: start of a turn (busy, mode, hand over what waited), after a tool
// call (hand over), stop (hand over and keep going once, else idle). Shared
// by the command hooks (`switchboard hook`, a process per call) and the
// `switchboard_hook` MCP tool that Claude Code's mcp_tool hooks call on the
// already running MCP server (no process per call). Returns the agent's hook
// output object, or undefined when nothing waits.

import type { HubCaller } from './hub-link.js';
import { asPermissionMode } from '../../core/protocol/vocabulary.js';
import { HOOK_TEXT_BUDGET, postToolOutput, promptOutput, stopOutput } from './dialects.js';
import { fitItems } from './fit.js';
import type { FrameAt } from './framing.js';
import type { AgentKind, Credentials } from './identity.js';

export const BOUNDARY_EVENTS = ['prompt-submit', 'post-tool', 'stop'] as const;
export type BoundaryEvent = (typeof BOUNDARY_EVENTS)[number];
const MAX_ITEMS = 20; // per hook output; the rest come at the next boundary

export interface BoundaryInput {
  permissionMode?: string | undefined;
  /** false: the mode came through an MCP tool the model may call too (it then moves the class only to unknown). */
  modeVerified?: boolean;
  /** The agent's own session (Codex: thread) id from the hook input: the hub wakes that thread when idle. */
  sessionId?: string | undefined;
  stopHookActive?: boolean;
}

export async function boundary(
  client: HubCaller,
  c: Credentials,
  agent: AgentKind,
  event: BoundaryEvent,
  input: BoundaryInput,
): Promise<unknown> {
  /** What fits whole into this hook's output; only that is acknowledged (and so reported delivered). */
  const handOver = async (at: FrameAt): Promise<string | undefined> => {
    const fitted = fitItems(
      (await client.call('inbox.fetch', { ...c, limit: MAX_ITEMS })).items,
      HOOK_TEXT_BUDGET[agent],
      at,
    );
    if (fitted.shown.length > 0) await client.call('inbox.ack', { ...c, ids: fitted.shown.map((i) => i.id) });
    return fitted.text;
  };
  switch (event) {
    case 'prompt-submit': {
      // Messages that waited while the session was idle go in at the start of the turn.
      await client.call('session.state', { ...c, state: 'busy', hook: true, ...threadOf(input) });
      if (input.permissionMode) await setMode(client, c, input.permissionMode, input.modeVerified !== false);
      const text = await handOver('prompt');
      return text === undefined ? undefined : promptOutput(agent, text);
    }
    case 'post-tool': {
      const text = await handOver('tool');
      return text === undefined ? undefined : postToolOutput(agent, text);
    }
    case 'stop': {
      // A mode switched during the turn (Shift+Tab) is known before the next prompt; a claim only moves it to unknown.
      if (input.permissionMode) await setMode(client, c, input.permissionMode, input.modeVerified !== false);
      // The agent's loop guard: when a stop hook already kept it going, let it stop.
      const text = input.stopHookActive === true ? undefined : await handOver('stop');
      if (text === undefined) {
        await client.call('session.state', { ...c, state: 'idle', hook: true, ...threadOf(input) });
        return undefined;
      }
      return stopOutput(agent, text);
    }
    default: {
      const never: never = event;
      return never;
    }
  }
}

const THREAD_ID = /^[0-9A-Za-z_-]{1,128}$/;
/** The agent session id, when it is one the hub takes. */
function threadOf(input: BoundaryInput): { agentSessionId?: string } {
  return input.sessionId !== undefined && THREAD_ID.test(input.sessionId) ? { agentSessionId: input.sessionId } : {};
}

/** Reports the mode an agent's hook input carried: verified from a command hook, a claim from the MCP tool. */
export async function setMode(client: HubCaller, c: Credentials, mode: string, verified = true): Promise<void> {
  const m = asPermissionMode(mode);
  if (m !== undefined)
    await client.call('session.mode', { ...c, permissionMode: m, ...(verified ? { source: 'hook' } : { verified }) });
}
