// The real Claude Code 2.1.332 started as Claude Desktop starts the sessions it runs (CLAUDE_CODE_ENTRYPOINT
// claude-desktop, CLAUDE_CODE_HOST_SESSION_ID its local_… session id), offline in a private network namespace:
// its own registry record names both; Switchboard lists it with host "Claude Desktop"; and a send to that
// local_… id — the `from` of Desktop's frames — lands in its transcript as a peer message with our from-name.
// Claude Desktop itself is not run (docs/integrations.md#claude-desktop).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubClient } from '../../core/client/client.js';
import type { AgentRow, Registration } from '../../core/protocol/methods.js';
import { startHub, until, type TestHub } from '../helpers/hub.js';
import { stopProcess } from '../helpers/processes.js';
import { requireTools, seedRoot, startPeer, sweepLeftovers, type Peer } from './claude-peer.js';

const OPTED_OUT = process.env.SWITCHBOARD_SKIP_INTEROP === '1';
if (!OPTED_OUT) requireTools();

const VERSION = '2.1.332';
const HOST_SESSION = 'local_132844a6-7d1e-4c2b-9f3a-5e6d7c8b9a01';

describe.skipIf(OPTED_OUT)(`Claude Code ${VERSION} run as Claude Desktop runs it`, () => {
  let root: string;
  let desk: Peer;
  let t: TestHub;
  let c: HubClient;
  let alice: Registration;
  // Started in beforeAll: a describe body runs even for a skipped suite, whose afterAll never stops it.
  let holder: ChildProcess;
  const rows = async (): Promise<AgentRow[]> => (await c.call('agents.list', {})).rows;

  beforeAll(async () => {
    holder = spawn('sleep', ['900'], { stdio: 'ignore' });
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'sbd-'));
    seedRoot(root, VERSION, ['desk']);
    desk = await startPeer({
      version: VERSION,
      name: 'desk',
      root,
      env: { CLAUDE_CODE_ENTRYPOINT: 'claude-desktop', CLAUDE_CODE_HOST_SESSION_ID: HOST_SESSION },
    });
    t = await startHub({ claudeHome: desk.configDir });
    c = await t.client();
    alice = await t.register(c, { name: 'alice', pid: holder.pid!, liveness: 'pid' });
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await desk?.stop();
    await sweepLeftovers(VERSION, path.join(root, 'home', '.claude'));
    await stopProcess(holder);
    fs.rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it('a session Claude Desktop runs is listed with host "Claude Desktop"', async () => {
    expect(
      JSON.parse(fs.readFileSync(desk.registry, 'utf8')),
      'its registry entry names claude-desktop and its Desktop session id',
    ).toMatchObject({
      entrypoint: 'claude-desktop',
      hostSessionId: HOST_SESSION,
    });
    await until(async () => (await rows()).some((r) => r.address === `uds:${desk.socketPath}`));
    expect(
      (await rows()).find((r) => r.address === `uds:${desk.socketPath}`),
      'listed as Claude Code with host "Claude Desktop"',
    ).toMatchObject({
      kind: 'claude-code',
      host: 'Claude Desktop',
    });
  });

  it('a send to its local_… id lands in its transcript as a peer message', async () => {
    const text = `desktop interop ${Date.now()}`;
    const r = await c.call('message.send', {
      sessionId: alice.sessionId,
      token: alice.token,
      to: HOST_SESSION,
      summary: 'hello',
      message: text,
    });
    expect(r.status).toBe('sent');
    const peerLine = (): string | undefined =>
      desk
        .transcript()
        .split('\n')
        .find((l) => l.includes(text) && l.includes('"origin"'));
    await until(() => peerLine() !== undefined);
    expect(JSON.parse(peerLine()!)).toMatchObject({ origin: { kind: 'peer' } });
    expect(peerLine()).toContain('from-name=\\"alice\\"');
  });
});
