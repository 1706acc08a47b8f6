// Against the real Claude Code (two pinned versions), offline in a private
// network namespace: Switchboard lists the real session; a Switchboard
// session's message lands in its transcript; with the real session set to
// hold, the `held` receipt reaches the Switchboard sender; with publishing
// on, the real session's /peers view lists the Switchboard session; on
// 2.1.332, an idle subscription by Claude Code's own frames.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubClient } from '../../core/client/client.js';
import type { AgentRow, InboxItem, Registration } from '../../core/protocol/methods.js';
import { startHub, until, type TestHub } from '../helpers/hub.js';
import { stopProcess } from '../helpers/processes.js';
import { typeLine } from '../agents/harness/type.js';
import { requireTools, seedRoot, startPeer, sweepLeftovers, VERSIONS, type Peer } from './claude-peer.js';

// Opting out is explicit (README): otherwise missing tmux or unshare fails the run.
const OPTED_OUT = process.env.SWITCHBOARD_SKIP_INTEROP === '1';
if (OPTED_OUT) console.warn('interop tests skipped: SWITCHBOARD_SKIP_INTEROP=1');
else requireTools();

describe.skipIf(OPTED_OUT).each(VERSIONS)('Claude Code %s', (version) => {
  let root: string;
  let open: Peer;
  let holding: Peer;
  let t: TestHub;
  let c: HubClient;
  let alice: Registration;
  // Started in beforeAll: a describe body runs even for a skipped suite, whose afterAll never stops it.
  let holder: ChildProcess;
  const auth = () => ({ sessionId: alice.sessionId, token: alice.token });
  const rows = async (): Promise<AgentRow[]> => (await c.call('agents.list', {})).rows;
  const stockName = async (p: Peer): Promise<string> =>
    (await rows()).find((r) => r.address === `uds:${p.socketPath}`)!.name;

  beforeAll(async () => {
    holder = spawn('sleep', ['900'], { stdio: 'ignore' });
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'sbi-'));
    seedRoot(root, version, ['open', 'holding']);
    open = await startPeer({ version, name: 'open', root });
    holding = await startPeer({ version, name: 'holding', root, settings: { crossSessionInbound: 'hold' } });
    t = await startHub({ claudeHome: open.configDir });
    c = await t.client();
    alice = await t.register(c, { name: 'alice', pid: holder.pid!, liveness: 'pid' });
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await open?.stop();
    await holding?.stop();
    await sweepLeftovers(version, path.join(root, 'home', '.claude'));
    await stopProcess(holder);
    fs.rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it('lists the real sessions, marked as Claude Code', async () => {
    await until(async () => (await rows()).filter((r) => r.kind === 'claude-code').length === 2);
    const real = (await rows()).filter((r) => r.kind === 'claude-code');
    const registryName = (JSON.parse(fs.readFileSync(open.registry, 'utf8')) as { name: string }).name;
    expect(real.map((r) => r.address).sort()).toEqual([`uds:${open.socketPath}`, `uds:${holding.socketPath}`].sort());
    expect(real.find((r) => r.address === `uds:${open.socketPath}`)).toMatchObject({
      name: registryName,
      agent: 'claude',
      machine: null,
    });
  });

  it("a Switchboard session's message lands in the real session's transcript as a peer message", async () => {
    const r = await c.call('message.send', {
      ...auth(),
      to: await stockName(open),
      summary: 'hello',
      message: `interop check ${version}`,
    });
    expect(r.status).toBe('sent');
    // The peer message's own line (the text may show first in another line, e.g. a queue operation).
    const peerLine = (): string | undefined =>
      open
        .transcript()
        .split('\n')
        .find((l) => l.includes(`interop check ${version}`) && l.includes('"origin"'));
    await until(() => peerLine() !== undefined);
    const line = peerLine();
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ origin: { kind: 'peer' } });
    expect(line).toContain('from-name=\\"alice\\"');
  });

  it('with the real session set to hold, the held receipt reaches the Switchboard sender', async () => {
    const r = await c.call('message.send', {
      ...auth(),
      to: await stockName(holding),
      summary: 'careful',
      message: 'please wait for your user',
    });
    let items: InboxItem[] = [];
    await until(async () => {
      items = (await c.call('inbox.fetch', { ...auth(), limit: 20 })).items;
      return items.some((i) => i.kind === 'receipt' && i.origMsgId === r.msg_id);
    });
    expect(items.find((i) => i.kind === 'receipt' && i.origMsgId === r.msg_id)).toMatchObject({
      status: 'held',
      to: { address: `uds:${holding.socketPath}` },
    });
  });

  it("with publishing on, the real session's /peers lists the Switchboard session", async () => {
    await c.call('settings.set', { uiToken: t.hub.uiToken, key: 'publishToClaudeCode', value: true });
    await until(() => fs.existsSync(path.join(open.configDir, 'sessions', `${holder.pid}.json`)));
    // One Enter: a second would act inside the view the first opened.
    await typeLine(open, '/peers', () => /alice\s+·/.test(open.screen()), { tries: 1 });
    expect(open.screen(), 'its /peers view lists alice').toMatch(/Other Claude sessions|alice/);
  });

  it.runIf(version === '2.1.332')(
    'an idle subscription uses its notify_when_idle frame and returns the usual notice',
    async () => {
      const reg = JSON.parse(fs.readFileSync(open.registry, 'utf8')) as { peerFeatures?: string[] };
      expect(reg.peerFeatures).toContain('notify_idle');
      const r = await c.call('message.send', { ...auth(), to: await stockName(open), notify_when_idle: true });
      expect(r.status).toBe('subscribed');
      await until(
        async () =>
          (await c.call('inbox.fetch', { ...auth(), limit: 50 })).items.some(
            (i) => i.kind === 'notice' && /is now idle/.test(i.text),
          ),
        20_000,
      );
    },
  );
});
