// The permission mode as hook commands report it (the bundled CLI as a
// child process, the agent's hook JSON on stdin, a real hub): learnt from
// what the agent exposes, else unknown and fail closed; a plain `claude`
// learns it at its first prompt, and a switch during a turn counts at its
// Stop hook.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import type { HubClient } from '../../core/client/client.js';
import type { Registration } from '../../core/protocol/methods.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { fixture, hook, peer } from '../helpers/hook-run.js';
import { startHub, type TestHub } from '../helpers/hub.js';

let th: TestHub | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});

describe('the permission mode: learnt from what the agent exposes, else unknown and fail closed', () => {
  const row = async (c: HubClient, agent: string) =>
    (await c.call('agents.list', {})).rows.find((x) => x.agent === agent)!;

  describe('Gemini without --yolo', () => {
    const start = async () => {
      th = await startHub();
      await hook(th.dirs, ['session-start', '--agent', 'gemini'], fixture('gemini-after-tool.json', th.dirs.root));
      const { c, r } = await peer(th);
      return { dirs: th.dirs, c, r, me: await row(c, 'gemini') };
    };

    it('receives as bypass while its mode is unknown: a prompting peer’s message is held', async () => {
      const { c, r, me } = await start();
      expect(me.mode).toBe('unknown');
      const held = await c.call('message.send', {
        sessionId: r.sessionId,
        token: r.token,
        to: me.address,
        summary: 's',
        message: 'x',
      });
      expect(held.status).toBe('held');
      expect(held.reason).toContain('permission mode is unknown');
    });

    it('sends unclassed: a bypass receiver holds its message like an unverified sender’s', async () => {
      const { dirs, c } = await start();
      await th!.register(c, { name: 'yolo', permissionMode: 'bypassPermissions' });
      const [credsFile] = fs.readdirSync(`${dirs.home}/agents`);
      const creds = JSON.parse(fs.readFileSync(`${dirs.home}/agents/${credsFile!}`, 'utf8')) as {
        sessionId: string;
        token: string;
      };
      const out = await c.call('message.send', {
        sessionId: creds.sessionId,
        token: creds.token,
        to: 'yolo',
        summary: 's',
        message: 'from gemini',
      });
      expect(out).toMatchObject({ status: 'held', reason: expect.stringContaining('the sender is unverified') });
    });
  });

  it('a bypass flag on the command line (Gemini --yolo, Codex --dangerously-bypass-approvals-and-sandbox) makes it bypass before any hook reports a mode', async () => {
    th = await startHub();
    const dirs = th.dirs;
    const c = await th.client();
    for (const [agent, flag, input] of [
      ['gemini', '--yolo', fixture('gemini-after-tool.json', dirs.root)],
      ['gemini', '--approval-mode=yolo', fixture('gemini-after-tool.json', dirs.root)],
      [
        'codex',
        '--dangerously-bypass-approvals-and-sandbox',
        fixture('codex-stop.json', dirs.root, { permission_mode: undefined }),
      ],
    ] as const) {
      // A hook without permission_mode (Gemini's never have one): the agent's command line decides.
      await hook(dirs, ['post-tool', '--agent', agent], input, flag);
      const me = await row(c, agent);
      expect([flag, me.mode]).toEqual([flag, 'bypassPermissions']);
      const r = await th.register(c, { name: `peer-${flag.slice(2, 12)}` });
      const sent = await c.call('message.send', {
        sessionId: r.sessionId,
        token: r.token,
        to: me.address,
        summary: 's',
        message: `for ${flag}`,
      });
      expect([flag, sent.status]).toEqual([flag, 'held']);
      expect(sent.reason).toContain('this session bypasses permission prompts and the sender does not');
      await hook(dirs, ['session-end', '--agent', agent], input, flag);
    }
  });

  it('a mode the hook input states is known, and replaces "unknown"', async () => {
    th = await startHub();
    const dirs = th.dirs;
    const c = await th.client();
    await hook(
      dirs,
      ['post-tool', '--agent', 'codex'],
      fixture('codex-post-tool.json', dirs.root, { permission_mode: undefined }),
    );
    expect((await row(c, 'codex')).mode).toBe('unknown');
    await hook(
      dirs,
      ['prompt-submit', '--agent', 'codex'],
      fixture('codex-post-tool.json', dirs.root, { hook_event_name: 'UserPromptSubmit', prompt: 'go' }),
    );
    expect((await row(c, 'codex')).mode).toBe('default');
  });
});

describe('a plain `claude` (no permission flag): its mode comes from its prompt hook', () => {
  const row = async (c: HubClient) => (await c.call('agents.list', {})).rows.find((x) => x.agent === 'claude')!;
  const send = (c: HubClient, r: Registration, to: string, message: string) =>
    c.call('message.send', { sessionId: r.sessionId, token: r.token, to, summary: 's', message });

  it('holds messages until its first prompt, then classes them by the mode each hook reports', async () => {
    th = await startHub();
    const dirs = th.dirs;
    // 2.1.332's SessionStart input has no permission_mode, and this "agent" has no flag on its command line.
    await hook(dirs, ['session-start', '--agent', 'claude'], fixture('claude-2.1.332-session-start.json', dirs.root));
    const { c, r } = await peer(th);
    const before = await row(c);
    expect([before.mode, before.modeSource], 'unknown before the first prompt').toEqual(['unknown', null]);
    const early = await send(c, r, before.address, 'before the first prompt');
    expect(early.status, 'held while the mode is unknown').toBe('held'); // fail closed while nothing told it

    const prompt = await hook(
      dirs,
      ['prompt-submit', '--agent', 'claude'],
      fixture('claude-2.1.332-prompt-submit.json', dirs.root),
    );
    const known = await row(c);
    expect([known.mode, known.modeClass, known.modeSource], 'the prompt hook tells the mode').toEqual([
      'auto',
      'prompting',
      'hook',
    ]);
    // The held message was released by the verified mode and handed over in this very prompt.
    expect(prompt.stdout, 'the held message is handed over at that prompt').toContain('before the first prompt');
    expect((await send(c, r, known.address, 'after the first prompt')).status, 'a prompting peer is queued').toBe(
      'queued',
    );

    // Shift+Tab to bypassPermissions during the turn: the Stop hook's input says so.
    await hook(
      dirs,
      ['stop', '--agent', 'claude'],
      fixture('claude-2.1.332-stop.json', dirs.root, { permission_mode: 'bypassPermissions' }),
    );
    const switched = await row(c);
    expect([switched.mode, switched.modeClass, switched.modeSource], 'the Stop hook tells the switch').toEqual([
      'bypassPermissions',
      'bypass',
      'hook',
    ]);
    const next = await send(c, r, switched.address, 'after the switch');
    expect(next.status, 'after Shift+Tab to bypass the next message is held').toBe('held');
    expect(next.reason).toContain('this session bypasses permission prompts and the sender does not');

    const listed = await runCli(['agents'], cliEnv(dirs));
    expect(listed.stdout, '`switchboard agents` names the source').toContain('bypassPermissions, from its hooks');
  });

  // With --allow-dangerously-skip-permissions, plan mode is one Shift+Tab from bypass, so it counts as bypass.
  it.each([
    ['--allow-dangerously-skip-permissions', 'bypass'],
    ['--verbose', 'prompting'],
  ] as const)('plan mode started with %s counts as %s', async (flag, expected) => {
    th = await startHub();
    const dirs = th.dirs;
    const input = fixture('claude-2.1.332-prompt-submit.json', dirs.root, { permission_mode: 'plan' });
    await hook(dirs, ['prompt-submit', '--agent', 'claude'], input, flag);
    const me = await row(await th.client());
    expect([flag, me.mode, me.modeClass]).toEqual([flag, 'plan', expected]);
  });
});
