// The pinned real agents, fetched once with `npm pack` into the interop
// suite's cache (`$SWITCHBOARD_INTEROP_CACHE`, else
// ~/.cache/switchboard-interop; Claude Code shares its `<version>/` folder
// with the interop suite). Returns the argv prefix that runs each one.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const PINNED = { claude: '2.1.332', codex: '0.171.0', gemini: '0.61.0' } as const;
export type AgentName = keyof typeof PINNED;

const CACHE = process.env.SWITCHBOARD_INTEROP_CACHE ?? path.join(os.homedir(), '.cache', 'switchboard-interop');
const NPM_TIMEOUT_MS = 600_000;

export interface Package {
  spec: string;
  dir: string;
  /** The executable inside the unpacked `package/`. */
  file: string;
  /** Runs under node (a JavaScript bundle) rather than directly. */
  node: boolean;
}

const PACKAGES: Record<AgentName, Package> = {
  claude: {
    spec: `@anthropic-ai/claude-code-linux-x64@${PINNED.claude}`,
    dir: PINNED.claude,
    file: 'claude',
    node: false,
  },
  codex: {
    spec: `@openai/codex@${PINNED.codex}-linux-x64`,
    dir: `codex-${PINNED.codex}`,
    file: 'vendor/x86_64-unknown-linux-musl/bin/codex',
    node: false,
  },
  gemini: {
    spec: `@google/gemini-cli@${PINNED.gemini}`,
    dir: `gemini-${PINNED.gemini}`,
    file: 'bundle/gemini.js',
    node: true,
  },
};

/** The package's executable in the cache, fetched with `npm pack` first when missing. */
export function unpacked(p: Package): string {
  const dir = path.join(CACHE, p.dir);
  const file = path.join(dir, 'package', p.file);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(dir, { recursive: true });
  const tgz = execFileSync('npm', ['pack', '--silent', p.spec], { cwd: dir, encoding: 'utf8', timeout: NPM_TIMEOUT_MS })
    .trim()
    .split('\n')
    .pop()!;
  execFileSync('tar', ['-xzf', path.join(dir, tgz), '-C', dir]);
  fs.rmSync(path.join(dir, tgz), { force: true });
  if (!p.node) fs.chmodSync(file, 0o755);
  return file;
}

/** The command that runs the pinned agent (fetching it first when the cache lacks it). */
export function agentCommand(agent: AgentName): string[] {
  const p = PACKAGES[agent];
  const file = unpacked(p);
  return p.node ? [process.execPath, file] : [file];
}
