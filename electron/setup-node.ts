// Which `node` the desktop app's agent setup writes into hook and MCP
// commands (its own executable is Electron, not node): the first `node` on
// PATH, in PATH order, whose `--version` the CLI's gate accepts
// (cli/node-gate.ts, Node 22.13+). One that is too old or cannot say its
// version is passed over; when none is left, setup gets `nodeProblem` and
// refuses to install (core/setup/planning.ts), so nothing is written and the
// setup page shows why. Each node is run once per file version (path, inode,
// size, mtime): an upgrade in place is asked again. At most MAX_NODES
// candidates are asked, each with versionOf's timeout and output cap.

import fs from 'node:fs';
import { MIN_NODE, unsupportedNode } from '../cli/node-gate.js';
import { whichAll } from '../core/setup/detect.js';
import { versionOf } from '../core/setup/planning.js';
import { setupEnvFor, type SetupEnv } from '../core/setup/setup-env.js';

const MAX_NODES = 8;
const CACHE_MAX = 64;

/** `node --version` → "22.13.0", or null. */
export type NodeVersionProbe = (file: string, env: NodeJS.ProcessEnv) => Promise<string | null>;

/** Node prints `v22.13.0` and nothing else. */
export const nodeVersion: NodeVersionProbe = (file, env) => versionOf(file, env, /^v(\d+\.\d+\.\d+)\s*$/);

export type SetupNode = { node: string } | { problem: string };

/** The node setup may write, or why there is none; `asked` remembers answers by file version across calls. */
export async function findSetupNode(
  env: NodeJS.ProcessEnv,
  asked: Map<string, string | null> = new Map(),
  probe: NodeVersionProbe = nodeVersion,
): Promise<SetupNode> {
  const tooOld: string[] = [];
  const seen = new Set<string>();
  for (const file of whichAll('node', env.PATH, MAX_NODES)) {
    const key = fileVersion(file);
    if (key === undefined || seen.has(key)) continue; // /bin/node and /usr/bin/node are often one file
    seen.add(key);
    let version = asked.get(key);
    if (version === undefined) {
      version = await probe(file, env);
      if (asked.size >= CACHE_MAX) asked.clear();
      asked.set(key, version);
    }
    if (version !== null && unsupportedNode(version) === null) return { node: file };
    tooOld.push(version === null ? `${file} (its version could not be read)` : `${file} (${version})`);
  }
  const found =
    tooOld.length === 0 ? 'no `node` is on its PATH' : `the node on its PATH is too old: ${tooOld.join(', ')}`;
  return {
    problem:
      `Setup writes commands that run Switchboard with Node ${MIN_NODE.join('.')} or newer, and ${found}. ` +
      'Nothing was written. Install Node 24 LTS from https://nodejs.org or with your version manager ' +
      '(nvm install 24) where Switchboard’s PATH finds it, then restart Switchboard.',
  };
}

/** The desktop app's HubOptions.setupEnv: its bundled CLI `cliPath`, run by the node findSetupNode picks. */
export function desktopSetupEnv(
  cliPath: string,
  env: NodeJS.ProcessEnv = process.env,
  probe: NodeVersionProbe = nodeVersion,
): () => Promise<SetupEnv> {
  const asked = new Map<string, string | null>();
  return async () => {
    const found = await findSetupNode(env, asked, probe);
    if ('node' in found) return setupEnvFor(found.node, cliPath, env);
    // Detection still compares with what the first node on PATH would have written; installing is refused.
    const first = whichAll('node', env.PATH, 1)[0] ?? 'node';
    return { ...setupEnvFor(first, cliPath, env), nodeProblem: found.problem };
  };
}

function fileVersion(file: string): string | undefined {
  try {
    const real = fs.realpathSync(file);
    const st = fs.statSync(real);
    return `${real}:${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return undefined;
  }
}
