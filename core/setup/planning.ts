// One setup plan, whichever way it is asked for: `switchboard setup` and the
// UI's setup (`setup.plan`, `setup.apply`, through the hub) both come here,
// so both find Claude Code's version the same way — the `claude` on PATH,
// run with `--version` — and write the same hook forms for it. A version
// given by hand (`--agent-version`) wins; an agent that cannot say its
// version gets the forms every version runs (command hooks). Only Claude
// Code's version decides anything, so only `claude` is ever run, with a
// timeout, no stdin, a small output cap and nothing but `--version`.

import { execFile } from 'node:child_process';
import { plan, type Plan, type SetupAgent, type SetupEnv } from './agents.js';
import { AGENT_COMMANDS, isConfigured, which } from './detect.js';
import { SetupError } from './edit.js';
import { httpTransport } from './mcp-entry.js';

const VERSION_TIMEOUT_MS = 5000;
const VERSION_OUTPUT_BYTES = 4096;

/**
 * `<file> --version` → "2.1.332" (the first x.y.z in its output; `pattern`'s first group when given), or null when
 * it fails or says none.
 */
export function versionOf(
  file: string,
  env: NodeJS.ProcessEnv,
  pattern = /\b(\d+\.\d+\.\d+)\b/,
): Promise<string | null> {
  return new Promise((resolve) => {
    const child = execFile(
      file,
      ['--version'],
      { env, timeout: VERSION_TIMEOUT_MS, maxBuffer: VERSION_OUTPUT_BYTES, encoding: 'utf8', windowsHide: true },
      (err, stdout) => resolve(err ? null : (pattern.exec(stdout)?.[1] ?? null)),
    );
    child.stdin?.end();
  });
}

/** The version of the agent whose version decides its setup (Claude Code), found on `e.env.PATH`; null otherwise. */
export async function agentVersion(agent: SetupAgent, e: SetupEnv): Promise<string | null> {
  if (agent !== 'claude-code') return null;
  const file = which(AGENT_COMMANDS[agent], e.env.PATH);
  return file === null ? null : versionOf(file, e.env);
}

export interface PlanRequest {
  uninstall?: boolean | undefined;
  /** A version given by hand; found on PATH when absent. */
  agentVersion?: string | undefined;
  postToolHook?: boolean | undefined;
  /** Claude Code only: `http` points it at the hub's MCP endpoint (no process of ours per session). */
  transport?: 'stdio' | 'http' | undefined;
}

/** The plan `switchboard setup` and the UI both apply, with the version it was made for. */
export async function planSetup(
  agent: SetupAgent,
  e: SetupEnv,
  req: PlanRequest,
): Promise<{ plan: Plan; agentVersion: string | null }> {
  // Every command an install writes starts `node`: one that cannot run the CLI would break the agent's hooks.
  if (e.nodeProblem !== undefined && req.uninstall !== true) throw new SetupError(e.nodeProblem);
  const version = req.agentVersion ?? (req.uninstall === true ? null : await agentVersion(agent, e));
  const p = plan(
    agent,
    {
      ...e,
      agentVersion: version ?? undefined,
      postToolHook: req.postToolHook === true,
      mcpTransport: req.transport === 'http' ? httpTransport(e.env) : { kind: 'stdio' },
    },
    req.uninstall === true,
  );
  return { plan: p, agentVersion: version };
}

/**
 * `detectAgents`' answer with each found agent's version where it decides the setup (Claude Code), and for it
 * "configured" judged against the plan for that version: the plan Apply writes. Judged against the plan for no
 * version, an agent just set up for 2.1.332 (mcp_tool hooks) read as not set up.
 */
export async function withVersions<T extends { agent: SetupAgent; path: string | null; configured: boolean }>(
  found: T[],
  e: SetupEnv,
): Promise<Array<T & { version: string | null }>> {
  return Promise.all(
    found.map(async (a) => {
      const version = a.agent === 'claude-code' && a.path !== null ? await versionOf(a.path, e.env) : null;
      if (version === null) return { ...a, version };
      let configured = a.configured;
      try {
        configured = isConfigured(a.agent, { ...e, agentVersion: version });
      } catch {
        // detectAgents already said what is wrong with its files
      }
      return { ...a, version, configured };
    }),
  );
}
