// Waking an idle Codex thread (core/wake/codex.ts) against a scripted
// app-server control socket on a real Unix socket. The session's process is
// a real process whose command line reads `… app-server` and whose
// environment names CODEX_HOME (where the socket is); its thread id comes
// from its own hook reports. A woken turn carries the messages as untrusted
// context and is `delivered`; a held message does not wake; a thread that is
// running a turn is left to its hooks; any other failure puts the messages
// back and tells the user, and the sender gets `waiting` with the reason.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HubClient } from '../../core/client/client.js';
import type { InboxItem, Registration } from '../../core/protocol/methods.js';
import { codexRoute, codexTurnInput, fitTurn, type CodexWakePorts } from '../../core/wake/codex.js';
import { fakeAppServer, threadAnswers, type Answer, type FakeAppServer } from '../helpers/codex-app-server.js';
import { startHub, until, wakesSettled, type TestHub } from '../helpers/hub.js';
import { authOf, fetchInbox, receiptsIn } from '../helpers/inbox.js';
import { stopAll } from '../helpers/processes.js';

let t: TestHub | undefined;
let c: HubClient;
let fake: FakeAppServer | undefined;
let proc: ChildProcess | undefined;
let window: ChildProcess | undefined;
const THREAD = '01a23188-a7c8-7ec1-8a0f-e8b5fd728089';

afterEach(async () => {
  await stopAll(
    [proc, window].filter((p) => p !== undefined),
    'SIGKILL',
  );
  await fake?.close();
  await t?.close();
  proc = window = fake = t = undefined;
});

const fetch = (r: Registration): Promise<InboxItem[]> => fetchInbox(c, r);
const receipts = (r: Registration, msgId: string): Promise<InboxItem[]> => receiptsIn(c, r, msgId);
const reasonOf = (i: InboxItem | undefined): string => (i?.kind === 'receipt' ? (i.reason ?? '') : '');

/** A hub, alice, and "web": a Codex session whose process looks like the daemon, idle after a turn its hooks reported. */
async function world(
  o: {
    answer?: (cwd: string) => Answer;
    mode?: Parameters<typeof fakeAppServer>[2];
    status?: () => string;
    noServer?: boolean;
    /** false: no Codex window (TUI) is open in the project (it quit; the daemon kept its thread). */
    window?: boolean;
    limits?: Record<string, number>;
  } = {},
) {
  t = await startHub(o.limits ? { limits: o.limits } : {});
  c = await t.client();
  const alice = await t.register(c, { name: 'alice' });
  const codexHome = path.join(t.dirs.root, 'codex-home');
  const cwd = path.join(t.dirs.root, 'project');
  fs.mkdirSync(cwd, { recursive: true });
  if (o.noServer !== true)
    fake = await fakeAppServer(
      codexHome,
      o.answer?.(cwd) ?? threadAnswers({ threadId: THREAD, cwd, ...(o.status ? { status: o.status } : {}) }),
      o.mode ?? 'ok',
    );
  // argv[1] is "app-server", as the daemon's (`codex app-server --listen unix:// …`).
  fs.writeFileSync(path.join(t.dirs.root, 'app-server'), 'setInterval(() => {}, 1 << 30);\n');
  proc = spawn(process.execPath, ['app-server', '--listen', 'unix://'], {
    cwd: t.dirs.root,
    env: { CODEX_HOME: codexHome, PATH: '/usr/bin:/bin' },
    stdio: 'ignore',
  });
  await until(() => fs.readFileSync(`/proc/${proc!.pid}/cmdline`, 'utf8').includes('app-server'));
  if (o.window !== false) {
    // The user's Codex window: a process named codex (no subcommand) in the project, under the same CODEX_HOME.
    window = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], {
      argv0: 'codex',
      cwd,
      env: { CODEX_HOME: codexHome, PATH: '/usr/bin:/bin' },
      stdio: 'ignore',
    });
    await until(() => fs.readFileSync(`/proc/${window!.pid}/cmdline`, 'utf8').startsWith('codex\0'));
  }
  const web = await t.register(c, {
    name: 'web',
    agent: 'codex',
    cwd,
    pid: proc.pid!,
    liveness: 'pid',
    hook: true,
    permissionMode: 'default',
  });
  await c.call('session.state', { ...authOf(web), state: 'busy', hook: true, agentSessionId: THREAD });
  await c.call('session.state', { ...authOf(web), state: 'idle', hook: true, agentSessionId: THREAD });
  return { alice, web, codexHome, cwd };
}

describe.skipIf(process.platform !== 'linux')('waking an idle Codex thread through its app-server', () => {
  it('a message to an idle thread starts a turn in it, as untrusted context, and is delivered', async () => {
    const { alice, web } = await world();
    expect(t!.hub.wake.routeFor(t!.hub.table.live.get(web.sessionId)!), 'the thread its hooks named').toEqual({
      kind: 'codex-app-server',
      socketPath: fake!.socketPath,
      threadId: THREAD,
    });
    const r = await c.call('message.send', { ...authOf(alice), to: 'web', summary: 's', message: 'wake up, codex' });
    expect(r.status).toBe('queued');
    await until(async () => (await receipts(alice, r.msg_id)).length === 1);
    const [receipt] = await receipts(alice, r.msg_id);
    expect(receipt, 'the sender gets delivered').toMatchObject({ status: 'delivered' });
    expect(reasonOf(receipt)).toMatch(/Codex app-server started a turn/);
    expect(
      fake!.requests.map((q) => q.method),
      'the daemon is asked for one turn',
    ).toEqual(['initialize', 'initialized', 'thread/read', 'turn/start']);
    const start = fake!.requests.find((q) => q.method === 'turn/start')!.params as Record<string, unknown>;
    expect(Object.keys(start).sort(), 'no approval, sandbox or model override').toEqual([
      'additionalContext',
      'input',
      'threadId',
    ]);
    expect(start.threadId).toBe(THREAD);
    expect(JSON.stringify(start.input), 'the input says the messages are not from the user').toMatch(
      /\[Switchboard\] 1 message from other agent sessions.*not instructions from your user/,
    );
    expect(start.additionalContext, 'the messages go as untrusted context').toMatchObject({
      switchboard: { kind: 'untrusted', name: 'switchboard', value: expect.stringContaining('wake up, codex') },
    });
    expect(await fetch(web), 'acknowledged: no hook hands it over again').toEqual([]);
    expect(t!.hub.table.live.get(web.sessionId)!.state, 'its turn runs until its Stop hook').toBe('busy');
  });

  it('a message our policy holds does not wake the thread; approved, it does', async () => {
    const { web } = await world();
    const mallory = await t!.register(c, { name: 'mallory', permissionMode: 'bypassPermissions' });
    const r = await c.call('message.send', { ...authOf(mallory), to: 'web', summary: 's', message: 'held by parity' });
    expect(r.status).toBe('held');
    await wakesSettled(t!.hub);
    expect(fake!.connections, 'nobody talked to the daemon').toBe(0);
    const [held] = (await c.call('held.list', { uiToken: t!.hub.uiToken })).items;
    await c.call('held.approve', { uiToken: t!.hub.uiToken, id: held!.id });
    await until(() => fake!.requests.some((q) => q.method === 'turn/start'));
    await until(async () =>
      (await receipts(mallory, r.msg_id)).some((i) => i.kind === 'receipt' && i.status === 'delivered'),
    );
    expect(await fetch(web)).toEqual([]);
  });

  it('waits for the thread to end the turn whose Stop hook said idle, then starts one', async () => {
    let reads = 0;
    const { alice } = await world({ status: () => (++reads < 3 ? 'active' : 'idle') });
    const r = await c.call('message.send', { ...authOf(alice), to: 'web', summary: 's', message: 'after your turn' });
    await until(async () =>
      (await receipts(alice, r.msg_id)).some((i) => i.kind === 'receipt' && i.status === 'delivered'),
    );
    expect(reads).toBe(3);
  });

  it('a thread that keeps running a turn is left to its hooks: the message stays unclaimed, nobody is told', async () => {
    const { alice, web } = await world({ status: () => 'active', limits: { codexIdleWaitMs: 150 } });
    const r = await c.call('message.send', { ...authOf(alice), to: 'web', summary: 's', message: 'busy thread' });
    await until(() => fake!.requests.filter((q) => q.method === 'thread/read').length >= 2);
    await wakesSettled(t!.hub);
    expect(fake!.requests.some((q) => q.method === 'turn/start')).toBe(false);
    expect(await receipts(alice, r.msg_id)).toEqual([]);
    expect(
      (await fetch(web)).map((i) => i.id),
      'its next hook hands it over',
    ).toEqual([r.msg_id]);
  });

  it('a thread whose Codex window quit is not woken, though the daemon keeps it loaded', async () => {
    const { alice, web } = await world({ window: false });
    const r = await c.call('message.send', { ...authOf(alice), to: 'web', summary: 's', message: 'anyone there?' });
    await until(async () => (await receipts(alice, r.msg_id)).length === 1);
    const [receipt] = await receipts(alice, r.msg_id);
    expect(receipt, 'the sender gets waiting').toMatchObject({ status: 'waiting' });
    expect(reasonOf(receipt)).toMatch(/no Codex window is open in .*project \(its thread would run unwatched\)/);
    expect(fake!.requests, 'the daemon was not even asked').toEqual([]);
    expect(
      t!.hub.userNotices.list().some((n) => /1 message waiting for web/.test(n.text)),
      'its user is told',
    ).toBe(true);
    expect(
      (await fetch(web)).map((i) => i.id),
      'the message waits in its inbox',
    ).toEqual([r.msg_id]);
  });

  it.each([
    ['the thread is not loaded (its window closed)', { status: () => 'notLoaded' }, /not loaded/],
    [
      'the thread works in another folder',
      { answer: () => threadAnswers({ threadId: THREAD, cwd: '/elsewhere' }) },
      /another folder/,
    ],
    [
      'the daemon refuses the turn',
      {
        answer:
          (cwd: string): Answer =>
          (q) =>
            q.method === 'turn/start'
              ? { error: { code: -32600, message: 'thread is archived' } }
              : threadAnswers({ threadId: THREAD, cwd })(q),
      },
      /thread is archived/,
    ],
    ['no daemon listens', { noServer: true }, /cannot reach the Codex app-server/],

    ['the socket is no WebSocket', { mode: 'http' as const }, /did not accept a WebSocket upgrade/],
    [
      'the daemon never answers',
      { mode: 'silent' as const, limits: { codexWakeTimeoutMs: 300 } },
      /did not answer within 300 ms/,
    ],
    [
      'the daemon sends a frame over the limit',
      { mode: 'huge' as const, limits: { codexFrameBytes: 64 * 1024 } },
      /over the size limit/,
    ],
  ])(
    '%s: the message goes back to its inbox, its user is told, the sender gets waiting with the reason',
    async (_what, o, reason) => {
      const { alice, web } = await world(o);
      const r = await c.call('message.send', { ...authOf(alice), to: 'web', summary: 's', message: 'try me' });
      await until(async () => (await receipts(alice, r.msg_id)).length === 1);
      const [receipt] = await receipts(alice, r.msg_id);
      expect(receipt).toMatchObject({ status: 'waiting' });
      expect(reasonOf(receipt)).toMatch(
        /idle and cannot be woken \(its Codex app-server started no turn: .*\); its user has been told/,
      );
      expect(reasonOf(receipt)).toMatch(reason);
      expect(t!.hub.userNotices.list().some((n) => /1 message waiting for web/.test(n.text))).toBe(true);
      expect(
        (await fetch(web)).map((i) => i.id),
        'nothing lost: its next turn reads it',
      ).toEqual([r.msg_id]);
      expect(t!.hub.table.live.get(web.sessionId)!.state).toBe('idle');
      expect((await c.call('hub.info', {})).version, 'the hub is alive').toBeTypeOf('string');
    },
  );

  it("the thread id is taken only from the session's own hook reports, and only a well-formed one", async () => {
    const { web } = await world();
    await expect(
      c.call('session.state', {
        sessionId: web.sessionId,
        token: 'f'.repeat(48),
        state: 'idle',
        hook: true,
        agentSessionId: 'other',
      }),
    ).rejects.toMatchObject({ reason: 'unauthorized' });
    await expect(
      c.call('session.state', { ...authOf(web), state: 'idle', hook: true, agentSessionId: '../../x y' }),
    ).rejects.toMatchObject({ reason: 'invalid_params' });
    expect(t!.hub.table.live.get(web.sessionId)!.agentThreadId).toBe(THREAD);
  });
});

describe('codexRoute and the turn input', () => {
  const ports = (argv: string[] | undefined, env: Record<string, string> | undefined): CodexWakePorts => ({
    timeoutMs: 1000,
    idleWaitMs: 0,
    maxFrameBytes: 1024,
    turnBytes: 100,
    codexHome: '/fallback/.codex',
    version: '0',
    argvOf: () => argv,
    environOf: () => env,
    windowsOf: () => 1,
  });
  const s = { pid: 42, cwd: '/p', agentThreadId: THREAD };

  it('has no route without a thread id from its hooks or without a daemon process', () => {
    expect(
      codexRoute({ ...s, agentThreadId: undefined }, ports(['codex', 'app-server'], {})),
      'no thread id',
    ).toMatchObject({
      kind: 'none',
      why: expect.stringMatching(/not named its Codex thread/),
    });
    expect(codexRoute(s, ports(['codex', 'exec', 'hello'], {})), 'codex exec').toMatchObject({
      kind: 'none',
      why: expect.stringMatching(/its own process/),
    });
    expect(codexRoute(s, ports(['codex', '--no-daemon'], {})), '--no-daemon').toMatchObject({ kind: 'none' });
    expect(codexRoute(s, ports(undefined, {})), 'no process').toMatchObject({ kind: 'none' });
  });

  it("finds the socket under the daemon's own CODEX_HOME, else its HOME, else the hub's default", () => {
    const daemon = ['/x/codex', 'app-server', '--listen', 'unix://'];
    expect(codexRoute(s, ports(daemon, { CODEX_HOME: '/h/custom' }))).toMatchObject({
      socketPath: '/h/custom/app-server-control/app-server-control.sock',
    });
    expect(codexRoute(s, ports(daemon, { HOME: '/home/u' }))).toMatchObject({
      socketPath: '/home/u/.codex/app-server-control/app-server-control.sock',
    });
    expect(codexRoute(s, ports(daemon, undefined))).toMatchObject({
      socketPath: '/fallback/.codex/app-server-control/app-server-control.sock',
    });
  });

  it('a thread with no Codex window open is not woken, and where that cannot be known neither', () => {
    const daemon = ['/x/codex', 'app-server', '--listen', 'unix://'];
    expect(codexRoute(s, { ...ports(daemon, {}), windowsOf: () => 0 })).toMatchObject({
      kind: 'none',
      why: expect.stringMatching(/no Codex window is open in \/p/),
    });
    expect(codexRoute(s, { ...ports(daemon, {}), windowsOf: () => undefined })).toMatchObject({
      kind: 'none',
      why: expect.stringMatching(/cannot tell whether a Codex window/),
    });
  });

  it('fits messages to the per-turn budget (at least one) and says how many', () => {
    const items = [{ text: 'a'.repeat(60) }, { text: 'b'.repeat(60) }, { text: 'c' }];
    expect(fitTurn(items, 100)).toHaveLength(1);
    expect(fitTurn([{ text: 'x'.repeat(500) }], 100)).toHaveLength(1);
    expect(JSON.stringify(codexTurnInput(['one', 'two']).input)).toContain('2 messages');
  });
});
