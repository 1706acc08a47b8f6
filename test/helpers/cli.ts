// Runs the bundled CLI (dist/cli/switchboard.mjs, built by `npm run build`)
// as a real child process with the test's directories in its environment.

import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import type { TestDirs } from './hub.js';
import { stopProcess } from './processes.js';

export const CLI = new URL('../../dist/cli/switchboard.mjs', import.meta.url).pathname;

function checkBuilt(): void {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
}

export function cliEnv(dirs: TestDirs, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: dirs.root,
    SWITCHBOARD_RUNTIME_DIR: dirs.runtime,
    SWITCHBOARD_HOME: dirs.home,
    CLAUDE_CONFIG_DIR: `${dirs.root}/claude`,
    ...extra,
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI (`cli`: another build of it) to its exit; `input` is written to its stdin (which is closed either way). */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000,
  input = '',
  cli = CLI,
): Promise<CliResult> {
  checkBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { env });
    // A child that exits without reading its stdin (a usage error) makes this write fail with EPIPE: expected.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // A bound only a hang reaches; the child is gone before the test goes on.
    const timer = setTimeout(
      () =>
        void stopProcess(child, 'SIGKILL').then(() =>
          reject(new Error(`switchboard ${args.join(' ')} did not exit within ${timeoutMs} ms`)),
        ),
      timeoutMs,
    );
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs `fn` over `items`, at most `width` at a time (many short CLI runs without flooding the machine). */
export async function pool<T, R>(items: readonly T[], width: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i] as T);
      }
    }),
  );
  return out;
}

export interface Served {
  child: ChildProcessWithoutNullStreams;
  ready: { event: string; socket: string; pid: number; uiToken: string };
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * The first line `child` prints on stdout, parsed as JSON: a served hub's
 * ready line. Rejects when the child exits first or prints nothing for 60 s
 * (only a hang), and then stops the child before rejecting.
 */
export async function readyLine<T>(child: ChildProcess, stderr: () => string = () => ''): Promise<T> {
  try {
    return await new Promise<T>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no ready line within 60 s: ${stderr()}`)), 60_000);
      child.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        const nl = out.indexOf('\n');
        if (nl < 0) return;
        clearTimeout(timer);
        try {
          resolve(JSON.parse(out.slice(0, nl)) as T);
        } catch {
          reject(new Error(`the first line is not JSON: ${out.slice(0, nl)}`));
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`exited (${code ?? signal}) before its ready line: ${stderr()}`));
      });
    });
  } catch (e) {
    await stopProcess(child, 'SIGKILL');
    throw e;
  }
}

/** Starts `switchboard serve --json` and waits for its ready line. */
export async function serveCli(env: NodeJS.ProcessEnv): Promise<Served> {
  checkBuilt();
  const child = spawn(process.execPath, [CLI, 'serve', '--json', '--quiet'], { env });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const ready = await readyLine<Served['ready']>(child, () => err);
  return {
    child,
    ready,
    async stop(signal = 'SIGTERM') {
      return (await stopProcess(child, signal)).code;
    },
  };
}

/** Runs `node argv…` with `stdin`, as an agent runs a hook: its exit code and output. */
export function runNode(
  argv: string[],
  env: NodeJS.ProcessEnv,
  stdin: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // A child that exits without reading its stdin (a usage error) makes this write fail with EPIPE: expected.
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

const HOOK_FIXTURES = new URL('../fixtures/hooks/', import.meta.url).pathname;

/** A hook input fixture (test/fixtures/hooks/NAME) with its cwd set. */
export function hookFixture(name: string, cwd: string): string {
  return JSON.stringify({ ...(JSON.parse(fs.readFileSync(HOOK_FIXTURES + name, 'utf8')) as object), cwd });
}
