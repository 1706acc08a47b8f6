// A command hook's fast path: a post-tool hook whose session the hub marked
// "nothing pending" (core/protocol/quiet.ts) exits without calling the hub.
// True only for a known session with an unexpired mark whose hub process is
// alive; anything else (no credentials, no mark, a bad or stale one, a dead
// hub) says "ask the hub". Only node:fs and node:path: no node:net loads.

import fs from 'node:fs';
import { parseQuietMark, quietMarkPath } from '../../core/protocol/quiet.js';
import { currentEndpointEnv, runtimeDirOf } from '../../core/transport/endpoint.js';
import { agentPid, hookCredentialsFile, readCredentials, type AgentKind } from './credentials.js';
import { parseHookInput } from './dialects.js';

/** Whether the hub's mark says this session's inbox has nothing to hand over (now, by its hub alive). */
export function markedQuiet(runtimeDir: string, sessionId: string, now = Date.now()): boolean {
  const file = quietMarkPath(runtimeDir, sessionId);
  if (file === undefined) return false;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  const mark = parseQuietMark(text);
  if (mark === undefined || now >= mark.until) return false;
  try {
    process.kill(mark.hubPid, 0); // signal 0: only whether it exists (and is ours: EPERM is not our hub)
    return true;
  } catch {
    return false;
  }
}

/** A post-tool hook of `agent` with this raw input has nothing to do. */
export function postToolHasNothingToDo(agent: AgentKind, raw: string): boolean {
  let sessionId: string;
  try {
    sessionId = parseHookInput(raw).sessionId;
  } catch {
    return false; // the full hook says what is wrong
  }
  const creds = readCredentials(hookCredentialsFile(agentPid(), agent, sessionId));
  return creds !== undefined && markedQuiet(runtimeDirOf(currentEndpointEnv()), creds.sessionId);
}
