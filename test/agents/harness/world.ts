// One test's world: a temp root, a Switchboard hub on real sockets, one
// shared isolated HOME for the agents (as on a real machine, where every
// agent of a user shares ~/.claude, ~/.codex, ~/.gemini), `switchboard setup`
// run for real against that HOME, and the agents started through
// profiles.ts. close() stops every agent by pid, even after a failure.
// SWITCHBOARD_AGENTS_CLI=<path to a switchboard.mjs> runs setup (and so the
// agents' MCP server and hooks) from another build, e.g. an old commit's,
// to check that a scenario fails there; the hub is this checkout's.

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HubClient } from '../../../core/client/client.js';
import type { AgentRow, Registration } from '../../../core/protocol/methods.js';
import type { Limits } from '../../../core/protocol/limits.js';
import { CLI, runCli as runHelperCli, type CliResult } from '../../helpers/cli.js';
import { startHub, type TestDirs, type TestHub } from '../../helpers/hub.js';
import { stopAll } from '../../helpers/processes.js';
import { currentEndpointEnv } from '../../../core/transport/endpoint.js';
import { startModelServer, type ModelServer, type Step } from '../model/server.js';
import type { Vendor } from '../model/wire.js';
import { launch, sweep, type AgentProcess } from './launch.js';
import { PROFILES, type RunOptions } from './profiles.js';
import type { AgentName } from './binaries.js';

const AGENT_CLI = process.env.SWITCHBOARD_AGENTS_CLI ?? CLI;
const CLI_TIMEOUT_MS = 15_000;

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return runHelperCli(args, env, CLI_TIMEOUT_MS, '', AGENT_CLI);
}

export const VENDOR: Record<AgentName, Vendor> = { claude: 'anthropic', codex: 'openai', gemini: 'gemini' };
const SETUP_NAME: Record<AgentName, string> = { claude: 'claude-code', codex: 'codex', gemini: 'gemini' };

export interface RunningAgent extends AgentProcess {
  agent: AgentName;
  model: ModelServer;
}

export interface World {
  root: string;
  home: string;
  hub: TestHub;
  client: HubClient;
  /** Switchboard's own environment for the CLI and the agents. */
  env: Record<string, string>;
  cli(args: string[]): Promise<CliResult>;
  /** Runs `switchboard setup <agent>` against the shared HOME; throws with its output on failure. */
  setup(agent: AgentName): Promise<CliResult>;
  /** Starts an agent headless on `prompt`, its model following `steps`. */
  start(
    agent: AgentName,
    o: RunOptions & { steps: Step[]; name?: string; untrustedFolder?: boolean },
  ): Promise<RunningAgent>;
  /** Runs the agent's own configuration check (e.g. `claude mcp list`) offline; its exit code and output. */
  configCheck(agent: AgentName): Promise<{ code: number | null; output: string }>;
  rows(): Promise<AgentRow[]>;
  /** A Switchboard session held by a sleeping process; `bypass` gives it the bypass permission class. */
  register(name: string, bypass?: boolean): Promise<Registration>;
  close(): Promise<void>;
}

/** `limits`: the hub's (e.g. a liveness sweep far away, to see what ends a session without it). */
export async function startWorld(o: { limits?: Partial<Limits> } = {}): Promise<World> {
  if (!fs.existsSync(AGENT_CLI)) throw new Error(`${AGENT_CLI} is missing: run \`npm run build\` first`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sba-'));
  const home = path.join(root, 'h');
  fs.mkdirSync(home, { recursive: true });
  // Like a desktop session: XDG_RUNTIME_DIR and HOME decide where the hub is (no SWITCHBOARD_* overrides,
  // which agents that pass their tools a short environment would drop); TMPDIR keeps any fallback inside root.
  const xdg = path.join(root, 'x');
  const tmp = path.join(root, 't');
  for (const d of [xdg, tmp]) fs.mkdirSync(d, { mode: 0o700 });
  const env = { HOME: home, XDG_RUNTIME_DIR: xdg, TMPDIR: tmp };
  const base = currentEndpointEnv();
  const dirs: TestDirs = {
    root,
    runtime: path.join(xdg, 'switchboard'),
    home: path.join(home, '.switchboard'),
    env: { ...base, env, home, tmpdir: tmp },
  };
  // SWITCHBOARD_AGENTS_LOG=1 prints the hub's warnings and errors (e.g. why a wake failed).
  const say =
    (level: string) =>
    (msg: string, fields?: Record<string, unknown>): void =>
      console.log(`hub ${level}: ${msg} ${fields ? JSON.stringify(fields) : ''}`);
  const logger =
    process.env.SWITCHBOARD_AGENTS_LOG === '1'
      ? { info: () => undefined, warn: say('warn'), error: say('error') }
      : undefined;
  const hub = await startHub(
    {
      claudeHome: path.join(home, '.claude'),
      qwenHome: path.join(home, '.qwen'),
      ...(logger ? { logger } : {}),
      ...(o.limits ? { limits: o.limits } : {}),
    },
    dirs,
  );
  const client = await hub.client();
  await client.call('agents.list', {}); // its first request now: the hub closes a connection silent for firstRequestMs
  const agents: RunningAgent[] = [];
  const servers: ModelServer[] = [];
  const holders: ChildProcess[] = [];
  let serial = 0;

  const world: World = {
    root,
    home,
    hub,
    client,
    env,
    cli: (args) => runCli(args, { PATH: process.env.PATH, ...env }),
    async setup(agent) {
      PROFILES[agent].seed(home);
      const r = await world.cli(['setup', SETUP_NAME[agent]]);
      if (r.code !== 0)
        throw new Error(`switchboard setup ${SETUP_NAME[agent]} failed (${r.code}): ${r.stderr}${r.stdout}`);
      return r;
    },
    async start(agent, o) {
      const name = o.name ?? `${agent}${++serial}`;
      const model = await startModelServer(VENDOR[agent], path.join(root, `m-${name}.sock`), o.steps);
      servers.push(model);
      const cwd = o.cwd ?? path.join(root, `w-${name}`);
      fs.mkdirSync(cwd, { recursive: true });
      if (o.untrustedFolder !== true) PROFILES[agent].trust(home, cwd);
      const { argv, env: agentEnv } = PROFILES[agent].headless({ ...o, cwd });
      const proc = launch({
        name,
        root,
        cwd,
        argv,
        env: { ...env, ...agentEnv },
        modelSocket: model.socketPath,
        stdin: o.streamInput === true,
      });
      const running: RunningAgent = Object.assign(proc, { agent, model });
      agents.push(running);
      return running;
    },
    async configCheck(agent) {
      const name = `${agent}-check${++serial}`;
      const model = await startModelServer(VENDOR[agent], path.join(root, `m-${name}.sock`));
      servers.push(model);
      const cwd = path.join(root, `w-${name}`);
      fs.mkdirSync(cwd, { recursive: true });
      PROFILES[agent].trust(home, cwd);
      const { argv, env: agentEnv } = PROFILES[agent].headless({ prompt: '', cwd });
      const bin = argv.slice(0, argv[0] === process.execPath ? 2 : 1);
      const proc = launch({
        name,
        root,
        cwd,
        argv: [...bin, ...PROFILES[agent].configCheck.args],
        env: { ...env, ...agentEnv },
        modelSocket: model.socketPath,
      });
      agents.push(Object.assign(proc, { agent, model }));
      const code = await proc.waitExit(60_000);
      return { code, output: proc.output() };
    },
    rows: async () => (await client.call('agents.list', {})).rows,
    async register(name, bypass = false) {
      const holder = spawn('sleep', ['900'], { stdio: 'ignore' });
      holders.push(holder);
      return hub.register(client, {
        name,
        pid: holder.pid!,
        liveness: 'pid',
        ...(bypass ? { permissionMode: 'bypassPermissions' as const } : {}),
      });
    },
    async close() {
      for (const a of agents) await a.stop();
      // SWITCHBOARD_AGENTS_KEEP=1 keeps the root, with each agent's output and model requests, for a post-mortem.
      if (process.env.SWITCHBOARD_AGENTS_KEEP === '1')
        for (const a of agents)
          fs.writeFileSync(
            path.join(root, `dump-${a.name}.json`),
            JSON.stringify(
              { output: a.output(), requests: a.model.requests, sessions: [...hub.hub.table.live.values()] },
              null,
              1,
            ),
          );
      await sweep(root, home);
      await stopAll(holders);
      await hub.close();
      for (const s of servers) await s.close();
      if (process.env.SWITCHBOARD_AGENTS_KEEP !== '1') fs.rmSync(root, { recursive: true, force: true });
    },
  };
  return world;
}
