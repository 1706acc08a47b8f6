// The real Qwen Code (pinned, its interactive UI in tmux) offline against a
// scripted OpenAI Chat Completions server, reached by Switchboard through
// Qwen Code's own cross-session protocol (core/stock/qwen*.ts): its session is
// listed from its registry record, a message from a Switchboard session
// reaches its model with a `delivered` receipt (Qwen Code: queued for its
// model) when it prompts, is `held` by Qwen Code's own gate when it runs in
// its default `auto` mode, and its row goes when it exits. No `switchboard
// setup` here: a stock Qwen Code.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxItem, Registration } from '../../core/protocol/methods.js';
import { until } from '../helpers/hub.js';
import { OPTED_OUT } from './harness/opt-out.js';
import { AGENT_HANG_MS, requireTools } from './harness/launch.js';
import { recordOf, startQwenTui, type QwenPane } from './harness/qwen.js';
import { startWorld, type World } from './harness/world.js';

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
