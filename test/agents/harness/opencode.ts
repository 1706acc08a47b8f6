// The pinned OpenCode for the real-agent suite: its Linux binary from npm
// (`opencode-linux-x64`, the package `opencode-ai` installs on Linux x64),
// a fresh HOME's configuration for a loopback OpenAI-compatible provider,
// and `@opencode-ai/plugin` installed from npm into the test cache and
// linked into ~/.config/opencode: OpenCode installs it there before it loads
// any plugin, and offline that install stalls its start for about a minute.
// Switchboard's own entries are not written here: `switchboard setup
// opencode` writes them. `opencode serve` listens inside the agent's
// network namespace; the test reaches its HTTP API through a Unix socket.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { until } from '../../helpers/hub.js';
import { startModelServer, type ModelServer, type Step } from '../model/server.js';
import { unpacked } from './binaries.js';
import { AGENT_HANG_MS, launch, MODEL_PORT, type AgentProcess } from './launch.js';
import type { World } from './world.js';

/** `opencode-ai`'s version; its optional dependency `opencode-linux-x64` has the same. */
export const OPENCODE_PIN = '1.18.33';
export const OPENCODE_PORT = 4096; // inside the namespace only
const CACHE = process.env.SWITCHBOARD_INTEROP_CACHE ?? path.join(os.homedir(), '.cache', 'switchboard-interop');
const NPM_TIMEOUT_MS = 600_000;
/** How long one request to `opencode serve` may go unanswered (a prompt is answered at once: prompt_async). */
const REQUEST_HANG_MS = 20_000;
/** The provider and model the fresh configuration names. */
export const MODEL = { provider: 'scripted', model: 'm1' } as const;

export function opencodeCommand(): string[] {
  return [
    unpacked({
      spec: `opencode-linux-x64@${OPENCODE_PIN}`,
      dir: `opencode-${OPENCODE_PIN}`,
      file: 'bin/opencode',
      node: false,
    }),
  ];
}

/** `@opencode-ai/plugin` as OpenCode would install it, from npm once into the cache. */
function pluginDeps(): string {
  const dir = path.join(CACHE, `opencode-plugin-${OPENCODE_PIN}`);
  if (fs.existsSync(path.join(dir, 'package-lock.json')) && fs.existsSync(path.join(dir, 'node_modules'))) return dir;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ dependencies: { '@opencode-ai/plugin': OPENCODE_PIN } }),
  );
  execFileSync('npm', ['install', '--silent', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: dir,
    timeout: NPM_TIMEOUT_MS,
  });
  return dir;
}

export function opencodeConfigDir(home: string): string {
  return path.join(home, '.config', 'opencode');
}

/** Seeds the world's OpenCode (seedOpencode) and runs `switchboard setup opencode`; its output, or a throw. */
export async function setUpOpencode(w: World): Promise<string> {
  seedOpencode(w.home);
  const r = await w.cli(['setup', 'opencode']);
  if (r.code !== 0) throw new Error(`switchboard setup opencode failed: ${r.stdout}${r.stderr}`);
  return r.stdout + r.stderr;
}

/** A fresh HOME's OpenCode: the scripted provider as its model, no sharing or updates, the plugin package in place. */
export function seedOpencode(home: string, extra: Record<string, unknown> = {}): void {
  const dir = opencodeConfigDir(home);
  fs.mkdirSync(dir, { recursive: true });
  const config = {
    ...extra,
    $schema: 'https://opencode.ai/config.json',
    model: `${MODEL.provider}/${MODEL.model}`,
    small_model: `${MODEL.provider}/${MODEL.model}`,
    autoupdate: false,
    share: 'disabled',
    provider: {
      [MODEL.provider]: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Scripted',
        options: { baseURL: `http://127.0.0.1:${MODEL_PORT}/v1`, apiKey: 'sk-fake-opencode-000' },
        models: { [MODEL.model]: { name: 'Scripted model', tool_call: true } },
      },
    },
  };
  fs.writeFileSync(path.join(dir, 'opencode.json'), JSON.stringify(config, null, 2) + '\n');
  const deps = pluginDeps();
  for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(deps, f), path.join(dir, f));
  fs.symlinkSync(path.join(deps, 'node_modules'), path.join(dir, 'node_modules'));
}

/** What OpenCode needs in its environment to stay offline and quiet. */
export const OPENCODE_ENV: Record<string, string> = {
  OPENCODE_DISABLE_MODELS_FETCH: '1',
  OPENCODE_DISABLE_AUTOUPDATE: '1',
  OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
  OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
};

/** One request to `opencode serve` through the exposed socket; the parsed JSON answer (null when empty). */
export function serverCall(socket: string, method: string, url: string, body?: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        socketPath: socket,
        method,
        path: url,
        headers: { 'content-type': 'application/json', ...(data ? { 'content-length': Buffer.byteLength(data) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if ((res.statusCode ?? 500) >= 400) return reject(new Error(`${method} ${url}: ${res.statusCode} ${text}`));
          try {
            resolve(text === '' ? null : (JSON.parse(text) as unknown));
          } catch {
            resolve(text);
          }
        });
      },
    );
    // A connection taken while the server was still starting may never be answered: give up on it, ask again.
    req.setTimeout(REQUEST_HANG_MS, () => req.destroy(new Error(`${method} ${url}: no answer`)));
    req.on('error', reject);
    req.end(data);
  });
}

export interface RunningOpencode {
  proc: AgentProcess;
  model: ModelServer;
  /** The Unix socket that reaches its HTTP API. */
  api: string;
  cwd: string;
  /** A new OpenCode session (idle until prompted); its id. */
  newSession(): Promise<string>;
  prompt(ses: string, text: string): Promise<void>;
  stop(): Promise<void>;
}

/** `opencode serve` in its own namespace, its model following `steps`, answering once its API does. */
export async function startOpencode(w: World, name: string, steps: Step[]): Promise<RunningOpencode> {
  const model = await startModelServer('openai-chat', path.join(w.root, `m-${name}.sock`), steps);
  const cwd = path.join(w.root, `w-${name}`);
  const api = path.join(w.root, `${name}-api.sock`);
  const proc = launch({
    name,
    root: w.root,
    cwd,
    argv: [
      ...opencodeCommand(),
      'serve',
      ...(process.env.SWITCHBOARD_AGENTS_LOG === '1' ? ['--print-logs'] : []),
      '--hostname',
      '127.0.0.1',
      '--port',
      String(OPENCODE_PORT),
    ],
    env: {
      ...w.env,
      ...OPENCODE_ENV,
      ...(process.env.SWITCHBOARD_AGENTS_LOG === '1' ? { SWITCHBOARD_DEBUG: '1' } : {}),
    },
    modelSocket: model.socketPath,
    expose: { port: OPENCODE_PORT, socket: api },
  });
  const stop = async (): Promise<void> => {
    await proc.stop();
    await model.close();
  };
  try {
    await until(() => proc.output().includes('opencode server listening'), AGENT_HANG_MS);
    await until(
      async () => (await serverCall(api, 'GET', '/session').catch(() => undefined)) !== undefined,
      AGENT_HANG_MS,
    );
  } catch (err) {
    await stop();
    throw new Error(`opencode serve did not answer:\n${proc.output().slice(-4000)}`, { cause: err });
  }
  return {
    proc,
    model,
    api,
    cwd,
    newSession: async () => ((await serverCall(api, 'POST', '/session', {})) as { id: string }).id,
    prompt: async (ses, text) => {
      await serverCall(api, 'POST', `/session/${ses}/prompt_async`, { parts: [{ type: 'text', text }] });
    },
    stop,
  };
}
