// The real OpenCode (pinned `opencode-ai`, its Linux binary from npm) with
// Switchboard set up by `switchboard setup opencode`, offline in a private
// network namespace against a scripted OpenAI-compatible (Chat Completions)
// server, as `opencode serve` driven through its own HTTP API. First, one run
// in order: the plugin lists the OpenCode session as one row with its mode;
// the MCP tools act as that session; a message waiting during a turn reaches
// the model appended to a built-in tool's result (`delivered`); an idle
// session is woken by a message (latency logged from the send to the model
// request); a held message never reaches the model; no Switchboard process
// runs per tool call; when OpenCode exits its session leaves the listing and
// waits for its conversation's resume, the held message still held (its
// sender is not told `undelivered`). Then a real Codex, and a real
// Claude Code, and OpenCode message each other (the reply to the `from`
// OpenCode's model read), and an OpenCode whose edits and commands ask is
// listed as prompting.

import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRow, InboxItem, Registration } from '../../core/protocol/methods.js';
import { until } from '../helpers/hub.js';
import { inbox, waitInbox } from './harness/observe.js';
import { OPTED_OUT } from './harness/opt-out.js';
import { AGENT_HANG_MS, markedPids } from './harness/launch.js';
import {
  opencodeConfigDir,
  seedOpencode,
  setUpOpencode,
  startOpencode,
  type RunningOpencode,
} from './harness/opencode.js';
import { startWorld, type World } from './harness/world.js';
import type { ModelRequest, ModelServer } from './model/server.js';
import { lastFrom } from './harness/observe.js';

const HANG_MS = AGENT_HANG_MS;
const BOUNDARY_TEXT = 'boundary-note-from-alice';
const WAKE_TEXT = 'wake-note-from-alice';
const HELD_TEXT = 'held-note-from-bob';
const SECOND_TEXT = 'second-wake-from-alice';
const REPLY_TEXT = 'reply-from-opencode';

describe.skipIf(OPTED_OUT)('OpenCode', () => {
  let w: World;
  let model: ModelServer;
  let oc: RunningOpencode;
  let alice: Registration;
  let bob: Registration;
  let ses = '';
  let configText = '';
  let busyRows: AgentRow[] = [];
  let boundaryReq: ModelRequest | undefined;
  let wakeReq: ModelRequest | undefined;
  let wakeMs = 0;
  let secondReq: ModelRequest | undefined;
  let heldStatus = '';
  let aliceItems: InboxItem[] = [];
  let bobItems: InboxItem[] = [];
  let rowsAfterExit: AgentRow[] = [];
  let heldAfterExit = -1;
  let switchboardProcs: string[] = [];

  const ours = async (): Promise<AgentRow[]> => (await w.rows()).filter((r) => r.agent === 'opencode');
  const send = async (from: Registration, text: string): Promise<string> => {
    const row = (await ours())[0];
    if (row === undefined) throw new Error('no OpenCode row to send to');
    const r = await w.client.call('message.send', {
      sessionId: from.sessionId,
      token: from.token,
      to: row.address,
      summary: text,
      message: text,
    });
    return r.status;
  };
  /** Waits for the main-loop request after `n` that satisfies `match`. */
  const request = async (match: (r: ModelRequest) => boolean): Promise<ModelRequest> => {
    let found: ModelRequest | undefined;
    await until(() => (found = model.main().find(match)) !== undefined, HANG_MS);
    return found!;
  };

  const step = (what: string): void => {
    if (process.env.SWITCHBOARD_AGENTS_LOG === '1')
      console.log(`opencode: ${what} (${model?.requests.length ?? 0} model requests)`);
  };
  beforeAll(async () => {
    w = await startWorld();
    await setUpOpencode(w);
    configText = fs.readFileSync(path.join(opencodeConfigDir(w.home), 'opencode.json'), 'utf8');
    alice = await w.register('alice', true);
    bob = await w.register('bob'); // prompting: a bypass receiver's user must approve what it sends
    oc = await startOpencode(w, 'oc', [
      async () => {
        // The plugin reports busy as the turn starts; its report and this request race, so wait for it.
        await until(async () => (await ours())[0]?.state === 'busy', HANG_MS);
        busyRows = await ours();
        return { tool: 'switchboard_list_peers', input: {} };
      },
      async () => {
        // Every Switchboard process OpenCode runs now (the plugin runs inside OpenCode itself).
        switchboardProcs = markedPids(w.root, w.home)
          .map((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '))
          .filter((cmd) => /switchboard(\.mjs|-hook\.cjs)/.test(cmd));
        expect(await send(alice, BOUNDARY_TEXT)).toBe('queued');
        return { tool: 'bash', input: { command: 'echo tool-ran', description: 'Echo a word' } };
      },
      (req) => {
        boundaryReq = req;
        return { text: 'First turn done.' };
      },
      (req) => {
        wakeReq = req;
        return {
          tool: 'switchboard_send',
          input: { to: 'alice', summary: 'reply', message: REPLY_TEXT },
        };
      },
      () => ({ text: 'Replied.' }),
      (req) => {
        secondReq = req;
        return { text: 'Second wake done.' };
      },
    ]);
    model = oc.model;
    step('server up');
    ses = await oc.newSession();
    await oc.prompt(ses, 'List your peers, then run one command.');
    step(`session ${ses} prompted`);
    await request((q) => q === boundaryReq);
    step('boundary request seen');
    // The turn ends: the hub lists the session idle.
    await until(async () => (await ours())[0]?.state === 'idle', HANG_MS);
    step('idle');
    const sent = performance.now();
    expect(await send(alice, WAKE_TEXT)).toBe('queued');
    const woke = await request((q) => q === wakeReq);
    wakeMs = woke.at - sent;
    step('woke');
    aliceItems = [
      await waitInbox(w.client, alice, (i) => i.kind === 'message' && i.text.includes(REPLY_TEXT), HANG_MS),
    ];
    await until(async () => (await ours())[0]?.state === 'idle', HANG_MS);
    step('idle again');
    heldStatus = await send(bob, HELD_TEXT);
    expect(await send(alice, SECOND_TEXT)).toBe('queued');
    await request((q) => q === secondReq);
    await until(async () => (await ours())[0]?.state === 'idle', HANG_MS);
    aliceItems.push(...(await inbox(w.client, alice)));
    step('stopping OpenCode');
    await oc.proc.stop();
    // Its session ends with its process (the hub's liveness sweep) and waits for its conversation (`ses_…`).
    await until(async () => (await ours()).length === 0, HANG_MS);
    await until(() => [...w.hub.hub.table.dormant.values()].some((d) => d.session.agent === 'opencode'), HANG_MS);
    bobItems = await inbox(w.client, bob).catch(() => []);
    rowsAfterExit = await ours();
    heldAfterExit = w.hub.hub.admission.held.all().length;
  }, HANG_MS * 3);

  afterAll(async () => {
    if (process.env.SWITCHBOARD_AGENTS_LOG === '1') console.log(oc?.proc.output().slice(-6000), model?.errors);
    if (process.env.SWITCHBOARD_AGENTS_KEEP === '1' && model)
      fs.writeFileSync(
        path.join(w.root, 'dump-oc.json'),
        JSON.stringify({ output: oc?.proc.output(), requests: model.requests }, null, 1),
      );
    await oc?.stop();
    await w?.close();
  });

  it('setup writes the MCP server and the plugin into OpenCode’s configuration', () => {
    const cfg = JSON.parse(configText) as {
      mcp?: { switchboard?: { type?: string; command?: string[] } };
      plugin?: string[];
    };
    expect(cfg.mcp?.switchboard?.type).toBe('local');
    expect(cfg.mcp?.switchboard?.command).toContain('opencode');
    expect(cfg.plugin?.some((p) => p.endsWith('switchboard-opencode.mjs'))).toBe(true);
  });

  it('lists the OpenCode session as one row', () => {
    expect(busyRows).toHaveLength(1);
  });

  it('its row is busy during its turn, with the mode its plugin read', () => {
    // No permission rules: OpenCode asks for nothing, which is bypass; its plugin read that from OpenCode's configuration.
    expect(busyRows[0]).toMatchObject({
      agent: 'opencode',
      state: 'busy',
      mode: 'bypassPermissions',
      modeClass: 'bypass',
      modeSource: 'hook',
      hooks: 'reported',
    });
  });

  it('hands a message over after a built-in tool call, and its sender gets `delivered`', async () => {
    expect(boundaryReq?.context).toContain(BOUNDARY_TEXT);
    expect(boundaryReq?.context).toContain('tool-ran');
  });

  it('wakes the idle session with a message', () => {
    expect(wakeReq?.context).toContain(WAKE_TEXT);
    console.log(`OpenCode idle wake: ${Math.round(wakeMs)} ms from the send to the model request`);
  });

  it('a send from OpenCode reaches its peer as the OpenCode session', () => {
    expect(aliceItems.some((i) => i.kind === 'message' && i.text.includes(REPLY_TEXT))).toBe(true);
  });

  it('each of alice’s three messages got a `delivered` receipt', () => {
    const delivered = aliceItems.filter((i) => i.kind === 'receipt' && i.status === 'delivered');
    expect(delivered).toHaveLength(3);
  });

  it('no Switchboard process runs per tool call: OpenCode runs only our MCP server (one per directory)', () => {
    expect(switchboardProcs, switchboardProcs.join('\n')).toHaveLength(1);
    expect(switchboardProcs[0]).toMatch(/switchboard\.mjs mcp --agent opencode/);
  });

  it('when OpenCode exits its session leaves the listing', () => {
    expect(rowsAfterExit).toEqual([]);
  });

  it('a held message stays held after OpenCode exits', () => {
    expect(heldAfterExit).toBe(1);
    expect(bobItems.some((i) => i.kind === 'receipt' && i.status === 'undelivered')).toBe(false);
  });

  it('a held message never reaches the model', () => {
    expect(heldStatus).toBe('held');
    expect(secondReq?.context).toContain(SECOND_TEXT);
    for (const q of model.requests) expect(q.context).not.toContain(HELD_TEXT);
  });
});

const PEER_NAMES: Record<'codex' | 'claude', string> = { codex: 'Codex', claude: 'Claude Code' };

/** A real peer agent (headless, bypass: OpenCode's class with no rules) and OpenCode message each other. */
function pairWith(peer: 'codex' | 'claude'): void {
  describe.skipIf(OPTED_OUT)(`OpenCode and a real ${PEER_NAMES[peer]}`, () => {
    let w: World;
    let oc: RunningOpencode;
    let ocWake: ModelRequest | undefined;
    let peerSaw: ModelRequest | undefined;
    let replied = false;
    const FROM_PEER = `hello-opencode-from-${peer}`;
    const FROM_OPENCODE = `hello-${peer}-from-opencode`;

    beforeAll(async () => {
      w = await startWorld();
      await setUpOpencode(w);
      await w.setup(peer);
      oc = await startOpencode(w, 'oc', [
        (req) => {
          ocWake = req;
          // Reply to the `from` the model read, as an agent does.
          return {
            tool: 'switchboard_send',
            input: { to: lastFrom(req.context) ?? 'nobody', summary: 'reply', message: FROM_OPENCODE },
          };
        },
        () => {
          replied = true;
          return { text: 'Replied.' };
        },
      ]);
      await oc.newSession(); // idle until a message wakes it
      await until(async () => (await w.rows()).some((row) => row.agent === 'opencode'), HANG_MS);
      const agent = await w.start(peer, {
        prompt: 'Say hello to the OpenCode session and read its answer.',
        mode: 'bypass',
        steps: [
          async () => {
            const row = (await w.rows()).find((x) => x.agent === 'opencode')!;
            return { tool: 'switchboard_send', input: { to: row.label, summary: 'hello', message: FROM_PEER } };
          },
          async () => {
            await until(() => replied, HANG_MS); // OpenCode was woken and answered
            return { tool: 'switchboard_check_inbox', input: {} };
          },
          (req) => {
            peerSaw = req;
            return { text: 'Got it.' };
          },
        ],
      });
      await agent.waitExit(HANG_MS);
    }, HANG_MS * 3);

    afterAll(async () => {
      await oc?.stop();
      await w?.close();
    });

    it(`${PEER_NAMES[peer]}’s message wakes the idle OpenCode session, whose reply reaches ${PEER_NAMES[peer]}’s model`, () => {
      expect(ocWake?.context).toContain(FROM_PEER);
      expect(peerSaw?.context).toContain(FROM_OPENCODE);
    });
  });
}
pairWith('codex');
pairWith('claude');

describe.skipIf(OPTED_OUT)('OpenCode whose edits and commands ask', () => {
  let w: World;
  let oc: RunningOpencode;
  let row: AgentRow | undefined;

  beforeAll(async () => {
    w = await startWorld();
    seedOpencode(w.home, { permission: { edit: 'ask', bash: 'ask' } });
    const r = await w.cli(['setup', 'opencode']);
    if (r.code !== 0) throw new Error(`switchboard setup opencode failed: ${r.stdout}${r.stderr}`);
    oc = await startOpencode(w, 'oc', []);
    await oc.newSession();
    await until(async () => (row = (await w.rows()).find((x) => x.agent === 'opencode')) !== undefined, HANG_MS);
  }, HANG_MS * 2);

  afterAll(async () => {
    await oc?.stop();
    await w?.close();
  });

  it('is listed as prompting, read from its configuration', () => {
    expect(row).toMatchObject({ mode: 'default', modeClass: 'prompting', modeSource: 'hook' });
  });
});
