// The desktop app's setup writes a `node` into every hook and MCP command;
// it must be one the CLI runs on (cli/node-gate.ts). Fake nodes on PATH
// (scripts that print a version) stand in for old and new Node: the first
// new enough one is written, and with none setup refuses through the hub
// (setup.plan and setup.apply) with a sentence that says why, writing
// nothing. Electron itself cannot run here; electron/setup-node.ts is the
// whole of its part.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MIN_NODE } from '../../cli/node-gate.js';
import { desktopSetupEnv, findSetupNode, nodeVersion } from '../../electron/setup-node.js';
import { RpcError } from '../../core/client/client.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { tempDir } from '../helpers/temp.js';

const OLD = `${MIN_NODE[0]}.${MIN_NODE[1] - 1}.9`;
const NEW = '24.11.1';

/** A directory holding a `node` that prints `v<version>` (or fails, for null). */
function fakeNode(version: string | null): string {
  const dir = tempDir('sbnode-');
  const body = version === null ? 'exit 3' : `echo v${version}`;
  fs.writeFileSync(path.join(dir, 'node'), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return dir;
}

const pathOf = (...dirs: string[]) => dirs.join(path.delimiter);

describe('the node the desktop setup writes', () => {
  it('is the first node on PATH new enough for the CLI, passing over an older one before it', async () => {
    const old = fakeNode(OLD);
    const fresh = fakeNode(NEW);
    expect(await findSetupNode({ PATH: pathOf(old, fresh) })).toEqual({ node: path.join(fresh, 'node') });
  });

  it('passes over a node that cannot say its version', async () => {
    const broken = fakeNode(null);
    const fresh = fakeNode(NEW);
    expect(await findSetupNode({ PATH: pathOf(broken, fresh) })).toEqual({ node: path.join(fresh, 'node') });
  });

  it('is none when the only node is too old, with a problem that names it against the minimum', async () => {
    const old = fakeNode(OLD);
    const r = await findSetupNode({ PATH: old });
    expect(r, 'names the node and its version').toEqual({
      problem: expect.stringContaining(`${path.join(old, 'node')} (${OLD})`),
    });
    expect('problem' in r && r.problem, 'names the minimum').toContain(`Node ${MIN_NODE.join('.')} or newer`);
  });

  it('is none when no node is on PATH', async () => {
    const r = await findSetupNode({ PATH: tempDir() });
    expect(r).toEqual({ problem: expect.stringContaining('no `node` is on its PATH') });
  });

  it('asks each node file once while it is unchanged, and again after it is replaced', async () => {
    const dir = fakeNode(OLD);
    const asked: string[] = [];
    const probe = (file: string, env: NodeJS.ProcessEnv) => (asked.push(file), nodeVersion(file, env));
    const setupEnv = desktopSetupEnv('/opt/switchboard/switchboard.mjs', { PATH: dir }, probe);
    expect((await setupEnv()).nodeProblem).toContain(OLD);
    expect((await setupEnv()).nodeProblem).toContain(OLD);
    expect(asked).toHaveLength(1);
    const file = path.join(dir, 'node');
    fs.rmSync(file);
    fs.writeFileSync(file, `#!/bin/sh\n# upgraded\necho v${NEW}\n`, { mode: 0o755 }); // an upgrade in place
    const upgraded = await setupEnv();
    expect(upgraded.node).toBe(file);
    expect(upgraded.nodeProblem).toBeUndefined();
    expect(asked).toHaveLength(2);
  });
});

describe('desktop setup through the hub', () => {
  let t: TestHub | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /** A hub whose setup is the desktop app's, with `pathDirs` as its PATH and a home of its own. */
  async function desktopHub(...pathDirs: string[]): Promise<{ home: string; call: TestHub['client'] }> {
    const home = tempDir('sbhome-');
    const setupEnv = desktopSetupEnv('/opt/switchboard/switchboard.mjs', { PATH: pathOf(...pathDirs) });
    t = await startHub({ setupEnv: async () => ({ ...(await setupEnv()), home }) });
    return { home, call: () => t!.client() };
  }

  it('plans commands with the node it picked', async () => {
    const fresh = fakeNode(NEW);
    const { call } = await desktopHub(fakeNode(OLD), fresh);
    const client = await call();
    const r = await client.call('setup.plan', { uiToken: t!.hub.uiToken, agent: 'codex' });
    expect(r.changes.map((c) => c.diff).join('\n')).toContain(`command = "${path.join(fresh, 'node')}"`);
  });

  // Both setup.plan and setup.apply are refused, saying why.
  it('with only a too old node, refuses an install and writes nothing', async () => {
    const { home, call } = await desktopHub(fakeNode(OLD));
    const client = await call();
    for (const method of ['setup.plan', 'setup.apply'] as const) {
      const err = await client.call(method, { uiToken: t!.hub.uiToken, agent: 'codex' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RpcError);
      expect((err as RpcError).message).toContain(`Node ${MIN_NODE.join('.')} or newer`);
      expect((err as RpcError).message).toContain(OLD);
    }
    expect(fs.readdirSync(home), 'nothing is written').toEqual([]);
  });

  it('with only a too old node, still plans a removal (it writes no node)', async () => {
    const { call } = await desktopHub(fakeNode(OLD));
    const client = await call();
    const r = await client.call('setup.plan', { uiToken: t!.hub.uiToken, agent: 'codex', uninstall: true });
    expect(r.changes).toEqual([]);
  });
});
