// The real Qwen Code (pinned, its interactive UI in tmux) offline against a
// scripted OpenAI Chat Completions server, reached by Switchboard through
// Qwen Code's own cross-session protocol (core/stock/qwen*.ts): its session is
// listed from its registry record, a message from a Switchboard session
// reaches its model with a `delivered` receipt (Qwen Code: queued for its
// model) when it prompts, is `held` by Qwen Code's own gate when it runs in
// its default `auto` mode, and its row goes when it exits (a stock Qwen
// Code). Then with `switchboard setup qwen`: its hooks and our MCP server are
// one Switchboard session, its mode read from its hooks, its own registry
// record folded into that row.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxItem, Registration } from '../../core/protocol/methods.js';
import { until } from '../helpers/hub.js';
import { OPTED_OUT } from './harness/opt-out.js';
import { AGENT_HANG_MS, requireTools } from './harness/launch.js';
import { recordOf, startQwenTui, type QwenPane } from './harness/qwen.js';
import { startWorld, type World } from './harness/world.js';
import type { Step } from './model/server.js';

describe.skipIf(OPTED_OUT)('Qwen Code (its own messaging)', () => {
  let w: World;
  let alice: Registration;
  const panes: QwenPane[] = [];
  const receipts = async (): Promise<InboxItem[]> =>
    (await w.client.call('inbox.fetch', { sessionId: alice.sessionId, token: alice.token, limit: 50 })).items.filter(
      (i) => i.kind === 'receipt',
    );
  const rowFor = async (pane: QwenPane) => (await w.rows()).find((r) => r.kind === 'qwen-code' && r.cwd === pane.cwd);
  const start = async (name: string, approvalMode?: 'default'): Promise<QwenPane> => {
    const pane = await startQwenTui(w, {
      name,
      steps: [{ text: 'Noted.' }],
      ...(approvalMode ? { approvalMode } : {}),
    });
    panes.push(pane);
    await until(async () => (await rowFor(pane)) !== undefined, AGENT_HANG_MS);
    return pane;
  };
  const send = async (to: string, message: string) =>
    w.client.call('message.send', { sessionId: alice.sessionId, token: alice.token, to, summary: 'note', message });

  beforeAll(async () => {
    requireTools();
    w = await startWorld();
    alice = await w.register('alice'); // mode default: a prompting sender
  });
  afterAll(async () => {
    for (const p of panes) await p.stop();
    await w?.close();
  });

  it('lists its interactive session as a Qwen Code row under its own name', async () => {
    const pane = await start('qwen-listed', 'default');
    const row = await rowFor(pane);
    expect(row).toMatchObject({ kind: 'qwen-code', self: false, canReceive: true });
    expect(row!.name).toMatch(/^w-qwen-listed-[0-9a-f]{2}$/); // Qwen Code's derived name: cwd basename + 2 hex
  });

  it('a prompting session’s message reaches a default-mode Qwen Code’s model, with a delivered receipt', async () => {
    const pane = await start('qwen-default', 'default');
    const row = (await rowFor(pane))!;
    const r = await send(row.label, 'please rerun the flaky suite');
    expect(r.status).toBe('sent');
    await until(() => pane.model.main().some((q) => q.context.includes('please rerun the flaky suite')), AGENT_HANG_MS);
    const turn = pane.model.main().find((q) => q.context.includes('please rerun the flaky suite'))!;
    expect(turn.context).toContain('<cross_session_message');
    await until(async () => (await receipts()).some((i) => i.kind === 'receipt' && i.origMsgId === r.msg_id));
    const got = (await receipts()).filter((i) => i.kind === 'receipt' && i.origMsgId === r.msg_id);
    expect(got.map((i) => i.kind === 'receipt' && i.status)).toEqual(['delivered']);
    expect(got[0]!.kind === 'receipt' && got[0]!.text).toContain('was queued for its model by Qwen Code');
  });

  it('a prompting session’s message to Qwen Code in its default auto mode is held, and its model never sees it', async () => {
    const pane = await start('qwen-auto'); // no flag: Qwen Code's default approval mode, auto (its bypass class)
    const row = (await rowFor(pane))!;
    const r = await send(row.label, 'delete the staging bucket');
    await until(async () => (await receipts()).some((i) => i.kind === 'receipt' && i.origMsgId === r.msg_id));
    const got = (await receipts()).filter((i) => i.kind === 'receipt' && i.origMsgId === r.msg_id);
    expect(got.map((i) => i.kind === 'receipt' && i.status)).toEqual(['held']);
    await until(() => /Held a message/.test(pane.screen()), AGENT_HANG_MS);
    expect(pane.model.requests.some((q) => q.context.includes('delete the staging bucket'))).toBe(false);
  });

  it('its row goes when it exits (it removes its record)', async () => {
    const pane = await start('qwen-exit', 'default');
    const record = recordOf(w.home, pane.pid)!;
    pane.keys('/quit', 'Enter');
    await until(() => pane.dead(), AGENT_HANG_MS);
    await until(async () => (await rowFor(pane)) === undefined, AGENT_HANG_MS);
    expect(fs.existsSync(record)).toBe(false);
  });
});

describe.skipIf(OPTED_OUT)('Qwen Code set up by `switchboard setup qwen`', () => {
  let w: World;
  const panes: QwenPane[] = [];
  const ours = async (pane: QwenPane) =>
    (await w.rows()).find((r) => r.agent === 'qwen' && r.kind === 'switchboard' && r.cwd === pane.cwd);
  const start = async (name: string, steps: Step[], approvalMode?: 'default' | 'yolo'): Promise<QwenPane> => {
    const pane = await startQwenTui(w, { name, steps, ...(approvalMode ? { approvalMode } : {}) });
    panes.push(pane);
    await until(async () => (await ours(pane))?.hooks === 'reported', AGENT_HANG_MS);
    return pane;
  };

  beforeAll(async () => {
    requireTools();
    w = await startWorld();
    const r = await w.cli(['setup', 'qwen']);
    if (r.code !== 0) throw new Error(`switchboard setup qwen failed (${r.code}): ${r.stderr}${r.stdout}`);
    await w.register('alice');
  });
  afterAll(async () => {
    for (const p of panes) await p.stop();
    await w?.close();
  });

  it('its hooks register one session with its mode from them, its own registry row folded into it', async () => {
    const pane = await start('qwen-setup', [{ text: 'Noted.' }], 'default');
    expect(await ours(pane)).toMatchObject({ mode: 'default', modeClass: 'prompting' });
    expect(recordOf(w.home, pane.pid)).toBeDefined(); // its own messaging is on, and its row is ours
    expect((await w.rows()).filter((r) => r.kind === 'qwen-code')).toEqual([]);
  });

  it('its model reaches our tools through its deferred-tool bridge (tool_search, tool_call)', async () => {
    const tool = 'mcp__switchboard__switchboard_list_peers';
    const pane = await start(
      'qwen-setup-tools',
      [
        { tool: 'tool_search', input: { query: `select:${tool}` } },
        { tool: 'tool_call', input: { name: tool, arguments: {} } },
        { text: 'Listed.' },
      ],
      'yolo', // no approval prompt for the MCP call
    );
    expect(await ours(pane)).toMatchObject({ mode: 'bypassPermissions', modeClass: 'bypass' });
    pane.keys('who else is here?', 'Enter');
    await until(() => pane.model.main().some((q) => q.context.includes('alice [')), AGENT_HANG_MS);
    expect(pane.model.errors).toEqual([]);
  });

  it('started without a flag (its auto mode), its hooks report a bypass session', async () => {
    const pane = await start('qwen-setup-auto', [{ text: 'Noted.' }]);
    await until(async () => (await ours(pane))?.mode === 'bypassPermissions', AGENT_HANG_MS);
    expect((await ours(pane))!.modeClass).toBe('bypass');
  });
});
