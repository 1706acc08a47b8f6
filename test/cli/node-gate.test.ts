// An unsupported Node is refused at every entry point, before
// anything else runs, with the one line of cli/node-gate.ts — `switchboard`
// with exit 78, a hook with exit 0 (a hook never breaks its agent) — and the
// hooks setup writes name a Node that passes the gate. The old Node is
// simulated (a preload that makes process.versions.node older, so these run
// everywhere) and, where the machine has one at /usr/bin/node (or
// SWITCHBOARD_OLD_NODE), real.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_UNSUPPORTED_NODE, MIN_NODE, unsupportedNode } from '../../cli/node-gate.js';
import { MIN_NODE as TOOLCHAIN_MIN_NODE } from '../../scripts/toolchain.mjs';
import { CLI, cliEnv, hookFixture, runCli } from '../helpers/cli.js';
import { tempDirs, type TestDirs } from '../helpers/hub.js';
import { stopProcess } from '../helpers/processes.js';

const HOOK_ENTRY = path.join(path.dirname(CLI), 'switchboard-hook.cjs');
const [MAJOR, MINOR] = MIN_NODE;
/** Just older than supported. */
const TOO_OLD = MINOR > 0 ? `${MAJOR}.${MINOR - 1}.9` : `${MAJOR - 1}.99.0`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node argv…` to its exit (a run that hangs is stopped and fails the test). */
function runNodeAt(node: string, argv: string[], env: NodeJS.ProcessEnv, stdin = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, argv, { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
    const timer = setTimeout(
      () => void stopProcess(child, 'SIGKILL').then(() => reject(new Error(`${argv.join(' ')} did not exit`))),
      30_000,
    );
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A preload that makes this Node report `version`. */
function olderNodePreload(dirs: TestDirs, version: string): string {
  const file = path.join(dirs.root, 'older-node.cjs');
  fs.writeFileSync(
    file,
    `Object.defineProperty(process, 'versions', { value: { ...process.versions, node: ${JSON.stringify(version)} } });\n`,
  );
  return file;
}

describe('the supported Node versions', () => {
  it('refuses everything below the minimum and nothing from it on', () => {
    for (const v of [TOO_OLD, `${MAJOR - 1}.99.0`, '20.20.2', `v${MAJOR}.0.0`])
      expect(unsupportedNode(v)).not.toBeNull();
    for (const v of [`${MAJOR}.${MINOR}.0`, `${MAJOR}.${MINOR + 1}.0`, `${MAJOR + 1}.0.0`, `v${MAJOR + 2}.1.0`])
      expect(unsupportedNode(v)).toBeNull();
    expect(unsupportedNode(process.versions.node)).toBeNull();
  });

  it('says in one line which Node it needs, which one this is and how to get one', () => {
    const line = unsupportedNode('20.20.2')!;
    expect(line).not.toContain('\n');
    expect(line).toContain(`needs Node ${MAJOR}.${MINOR} or newer`);
    expect(line).toContain('this is Node 20.20.2');
    expect(line).toContain('https://nodejs.org');
  });

  it('is the same minimum as package.json engines and the toolchain check of npm test', () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      engines: { node: string };
    };
    expect(pkg.engines.node).toBe(`>=${MAJOR}.${MINOR}`);
    expect(TOOLCHAIN_MIN_NODE).toEqual([MAJOR, MINOR]);
  });
});

interface OldNode {
  path: string;
  /** Arguments before the script. */
  pre: string[];
  version: string;
}

/** Every entry point on the Node `old()` gives refuses with the line for its version. */
function refusals(label: string, old: () => OldNode): void {
  describe(label, () => {
    it('switchboard refuses with one line and exit 78 before it starts anything (serve opens no hub)', async () => {
      const dirs = tempDirs();
      const { path: node, pre, version } = old();
      const env = cliEnv(dirs);
      const line = `${unsupportedNode(version)}\n`;
      for (const args of [
        ['--version'],
        ['serve', '--ui', '--port', '0'],
        ['mcp', '--agent', 'claude'],
        ['setup', 'claude-code'],
      ]) {
        const r = await runNodeAt(node, [...pre, CLI, ...args], env);
        expect(r, args.join(' ')).toEqual({ code: EXIT_UNSUPPORTED_NODE, stdout: '', stderr: line });
      }
      expect(fs.existsSync(dirs.runtime)).toBe(false);
      expect(fs.existsSync(dirs.home)).toBe(false);
      expect(fs.existsSync(path.join(dirs.root, '.claude'))).toBe(false);
    });

    it('a hook exits 0 with the same line on stderr so the agent goes on (its own entry or `switchboard hook`)', async () => {
      const dirs = tempDirs();
      const { path: node, pre, version } = old();
      const stdin = hookFixture('claude-session-start.json', dirs.root);
      for (const argv of [
        [HOOK_ENTRY, 'session-start', '--agent', 'claude'],
        [HOOK_ENTRY, 'post-tool', '--agent', 'claude'],
        [CLI, 'hook', 'session-start', '--agent', 'claude'],
      ]) {
        const r = await runNodeAt(node, [...pre, ...argv], cliEnv(dirs), stdin);
        expect(r, argv.join(' ')).toEqual({ code: 0, stdout: '', stderr: `${unsupportedNode(version)}\n` });
      }
      expect(fs.existsSync(dirs.runtime)).toBe(false);
    });
  });
}

refusals(`on a Node that says it is ${TOO_OLD} (simulated)`, () => ({
  path: process.execPath,
  pre: ['--require', olderNodePreload(tempDirs(), TOO_OLD)],
  version: TOO_OLD,
}));

/** A real Node older than supported on this machine, or why there is none. */
function realOldNode(): OldNode | { why: string } {
  const candidate = process.env.SWITCHBOARD_OLD_NODE ?? '/usr/bin/node';
  if (!fs.existsSync(candidate)) return { why: `there is no ${candidate}` };
  const version = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
  if (unsupportedNode(version) === null) return { why: `${candidate} is Node ${version}, which is supported` };
  return { path: candidate, pre: [], version };
}
const real = realOldNode();
if ('why' in real)
  describe.skip(`on a real old Node: not tried, ${real.why} (SWITCHBOARD_OLD_NODE names one)`, () => {
    it('refuses', () => undefined);
  });
else refusals(`on the real Node ${real.version} at ${real.path}`, () => real);

/** Every `command` in a settings tree: a hook's interpreter (`"<node>" "<entry>" …`), or an MCP server's command. */
function interpretersIn(v: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(v)) for (const x of v) interpretersIn(x, into);
  else if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.command === 'string') into.add(/^"([^"]+)"/.exec(o.command)?.[1] ?? o.command);
    for (const x of Object.values(o)) interpretersIn(x, into);
  }
  return into;
}

describe('setup', () => {
  it('writes hooks and an MCP server that name the absolute Node setup runs on, one the gate accepts', async () => {
    const dirs = tempDirs();
    // Only /usr/bin and /bin on PATH: a bare `node` there is the machine's own, maybe an old one.
    const r = await runCli(['setup', 'claude-code', '--agent-version', '2.1.0'], {
      PATH: '/usr/bin:/bin',
      HOME: dirs.root,
    });
    expect(r.code, r.stderr).toBe(0);
    const written = [path.join(dirs.root, '.claude', 'settings.json'), path.join(dirs.root, '.claude.json')].map(
      (f) => JSON.parse(fs.readFileSync(f, 'utf8')) as unknown,
    );
    expect([...interpretersIn(written)]).toEqual([process.execPath]);
    expect(path.isAbsolute(process.execPath)).toBe(true);
    const version = spawnSync(process.execPath, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    expect(unsupportedNode(version)).toBeNull();
  });
});
