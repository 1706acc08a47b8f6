// Builds test/helpers/team-worker.ts into one file once, and runs it as
// separate processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { build } from 'esbuild';
import path from 'node:path';
import { tempDir } from './temp.js';

let built: Promise<string> | undefined;

export function workerScript(): Promise<string> {
  built ??= (async () => {
    const out = path.join(tempDir('sbw-'), 'team-worker.mjs');
    await build({
      entryPoints: [new URL('./team-worker.ts', import.meta.url).pathname],
      outfile: out,
      bundle: true,
      platform: 'node',
      mainFields: ['module', 'main'],
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    });
    return out;
  })();
  return built;
}

export async function runWorker<T>(args: string[]): Promise<T> {
  const script = await workerScript();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').pop()!) as T)
        : reject(new Error(`worker ${args[0]} exited ${code}: ${err}`)),
    );
  });
}

/** Starts a worker that holds a lock until killed; resolves once it holds it. */
export async function lockHolder(file: string, staleMs: number): Promise<ChildProcess> {
  const script = await workerScript();
  const child = spawn(process.execPath, [script, 'hold-lock', file, String(staleMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  return child;
}
