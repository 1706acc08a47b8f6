// The first scenario for each vendor, one real agent run observed from the
// hub and the scripted model: `switchboard setup` is accepted by the agent's
// own config check; Switchboard's tools reach the model; the agent process
// is one session with the right agent kind, cwd and permission mode; a send
// returns a truthful status; the session leaves the listing on exit. For
// Claude Code also: its own listing shows itself once, a send to its own
// stock (Claude Code messaging) address is `to_self`, and its MCP server
// exits on the first signal (no SIGKILL in Claude Code's debug log).
// `known` names the checks that fail on a defect still being fixed: they run
// as it.fails, so they turn red the day the defect is fixed (flip them then).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRow, InboxItem, Registration } from '../../../core/protocol/methods.js';
import type { SessionRecord } from '../../../core/registry/session.js';
import fs from 'node:fs';
import path from 'node:path';
import { udsAddress } from '../../../core/protocol/cc-wire.js';
import { until } from '../../helpers/hub.js';
import type { AgentName } from '../harness/binaries.js';
import { inbox, rowsOf, sessionsOf, SWITCHBOARD_TOOLS } from '../harness/observe.js';
import { expectedMode, modeKnown, PROFILES, type ModeName } from '../harness/profiles.js';
import { startWorld, type RunningAgent, type World } from '../harness/world.js';
import { AGENT_HANG_MS } from '../harness/launch.js';

export type BasicCheck =
  | 'configCheck'
  | 'toolsReachModel'
  | 'oneSession'
  | 'kindCwd'
  | 'mode'
  | 'sendStatus'
  | 'fromMode'
  | 'leavesOnExit'
  | 'selfOnce'
  | 'toSelf'
  | 'mcpExit';

const EXPECTED_KIND: Record<AgentName, AgentRow['agent']> = { claude: 'claude', codex: 'codex', gemini: 'gemini' };
const FROM_MODE = { default: 'prompting', bypassPermissions: 'bypass' } as const;
/** Where that mode comes from: Claude Code's and Codex's hook input carries it, Gemini only has its flags. */
function expectedSource(agent: AgentName, mode: ModeName): AgentRow['modeSource'] {
  if (agent !== 'gemini') return 'hook';
  return mode === 'bypass' ? 'command-line' : null;
}

/** `agents.list` as the agent's own session (its credentials file under the shared HOME). */
async function listAs(w: World, pid: number): Promise<AgentRow[] | undefined> {
  const dir = path.join(w.home, '.switchboard', 'agents');
  const file = fs.readdirSync(dir).find((f) => f.startsWith(`${pid}-`) && f.endsWith('.json') && !f.includes('-t-'));
  if (file === undefined) return undefined;
  const c = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as { sessionId: string; token: string };
  return (await w.client.call('agents.list', { sessionId: c.sessionId, token: c.token })).rows;
}

/** The address of Claude Code's own messaging socket for that process (its registry entry `~/.claude/sessions/<pid>.json`). */
async function ownStockAddress(home: string, pid: number): Promise<string | undefined> {
  const file = path.join(home, '.claude', 'sessions', `${pid}.json`);
  await until(() => fs.existsSync(file)).catch(() => undefined);
  try {
    const socket = (JSON.parse(fs.readFileSync(file, 'utf8')) as { messagingSocketPath?: unknown }).messagingSocketPath;
    return typeof socket === 'string' ? udsAddress(path.resolve(socket)) : undefined;
  } catch {
    return undefined;
  }
}

export function basics(agent: AgentName, mode: ModeName, known: Partial<Record<BasicCheck, string>> = {}): void {
  const check = (c: BasicCheck, title: string, fn: () => Promise<void> | void): void => {
    const reason = known[c];
    // `todo:` marks a defect whose symptom depends on timing (it.fails would flicker).
    if (reason?.startsWith('todo:')) it.todo(`${title} [known defect, timing-dependent: ${reason.slice(5)}]`);
    else if (reason) it.fails(`${title} [known defect: ${reason}]`, fn);
    else it(title, fn);
  };

  describe(`${agent} (${mode === 'none' ? 'no permission flag' : `${mode} mode`}): setup, tools, one session, send, exit`, () => {
    let w: World;
    let a: RunningAgent;
    let alice: Registration;
    let config: { code: number | null; output: string };
    let during: { rows: AgentRow[]; sessions: SessionRecord[]; all: string } | undefined;
    let atEnd: SessionRecord[] = [];
    let exitCode: number | null;
    let aliceItems: InboxItem[] = [];
    let ownList: AgentRow[] | undefined;
    let stockAddress: string | undefined;
    const text = `hello from the real ${agent}`;
    const claude = agent === 'claude';
    const debugFile = (): string => path.join(w.root, 'claude-debug.log');

    beforeAll(async () => {
      w = await startWorld();
      await w.setup(agent);
      config = await w.configCheck(agent);
      // The agent's class as a sender (unknown sends unclassed, which a prompting alice accepts): nothing held by mode parity.
      alice = await w.register('alice', expectedMode(agent, mode) === 'bypassPermissions');
      a = await w.start(agent, {
        prompt: 'Say hello to alice through Switchboard.',
        mode,
        steps: [
          async () => {
            // The agent is in a model request now: its session is up and busy.
            await until(() => sessionsOf(w, a.cwd).length > 0).catch(() => undefined);
            during = {
              rows: await rowsOf(w, a.cwd),
              sessions: sessionsOf(w, a.cwd),
              all: JSON.stringify(await w.rows()),
            };
            if (claude) {
              ownList = await listAs(w, a.pid);
              stockAddress = await ownStockAddress(w.home, a.pid);
            }
            return { tool: 'switchboard_send', input: { to: 'alice', summary: 'greeting', message: text } };
          },
          // Claude Code: a send to its own Claude Code messaging address (its stock row before the fix).
          ...(claude
            ? [
                () => ({
                  tool: 'switchboard_send',
                  input: { to: stockAddress ?? 'uds:/nowhere', summary: 'self', message: 'to myself' },
                }),
              ]
            : []),
          () => {
            atEnd = sessionsOf(w, a.cwd); // still one session: nothing registered a second one meanwhile
            return { text: 'Sent.' };
          },
        ],
        ...(claude ? { debugFile: debugFile() } : {}),
      });
      exitCode = await a.waitExit(AGENT_HANG_MS);
      aliceItems = await inbox(w.client, alice);
    });

    afterAll(async () => {
      await w?.close();
    });

    check('configCheck', "setup is accepted by the agent's own config check", () => {
      expect(config.output).toMatch(PROFILES[agent].configCheck.accepted);
    });

    check('toolsReachModel', "Switchboard's tools reach the model", () => {
      const main = a.model.main();
      expect(main.length, `no model request; agent output:\n${a.output()}`).toBeGreaterThan(0);
      // Advertised as tools, or (Claude Code) listed as deferred tools the model can load.
      const offers = (t: string): boolean =>
        main.some((r) => r.tools.some((n) => n.endsWith(t)) || r.context.includes(t));
      for (const t of SWITCHBOARD_TOOLS) expect(offers(t), t).toBe(true);
      expect(exitCode).toBe(0);
    });

    check('oneSession', 'the agent process is exactly one listed session', () => {
      expect(during, `no session appeared; agent output:\n${a.output()}`).toBeDefined();
      expect(during!.sessions, `every row: ${during!.all}`).toHaveLength(1);
      expect(during!.rows.map((r) => `${r.label} ${r.kind}`)).toHaveLength(1);
      expect(
        atEnd.map((s) => s.id),
        'sessions of the agent at its last model request',
      ).toEqual(during!.sessions.map((s) => s.id));
    });

    check('kindCwd', 'the session has the right agent kind and cwd', () => {
      expect(during!.sessions[0]).toMatchObject({ agent: EXPECTED_KIND[agent], cwd: a.cwd });
      expect(during!.rows.find((r) => r.kind === 'switchboard')).toMatchObject({
        agent: EXPECTED_KIND[agent],
        cwd: a.cwd,
      });
    });

    check(
      'mode',
      modeKnown(agent, mode)
        ? "the session has the agent's permission mode"
        : 'the session is "mode unknown" (the agent does not say its mode)',
      () => {
        const row = during!.rows.find((r) => r.kind === 'switchboard');
        expect(row?.modeSource, 'where the mode came from').toBe(expectedSource(agent, mode));
        if (modeKnown(agent, mode)) {
          expect(during!.sessions[0]?.permissionMode).toBe(expectedMode(agent, mode));
          expect(row?.mode).toBe(expectedMode(agent, mode));
        } else {
          expect(during!.sessions[0]?.modeKnown).toBe(false);
          expect(row?.mode).toBe('unknown');
        }
      },
    );

    check('sendStatus', 'a send returns a truthful status that reaches the model, and the message arrives', () => {
      const afterSend = a.model.main().find((r) => /queued: /.test(r.context));
      expect(
        afterSend,
        `the send result never reached the model; script problems: ${a.model.errors.join('; ')}`,
      ).toBeDefined();
      const msg = aliceItems.find((i) => i.kind === 'message');
      expect(msg?.text).toContain(text);
      expect(msg?.text).toContain(`from-name="${during!.sessions[0]?.name}"`);
    });

    check(
      'fromMode',
      modeKnown(agent, mode)
        ? "the message carries the sender's permission class"
        : 'the message carries no permission class (never a guessed one)',
      () => {
        const msg = aliceItems.find((i) => i.kind === 'message')?.text;
        if (modeKnown(agent, mode)) expect(msg).toContain(`from-mode="${FROM_MODE[expectedMode(agent, mode)!]}"`);
        else expect(msg).not.toMatch(/from-mode=/);
      },
    );

    if (claude) {
      check('selfOnce', "the agent's own listing shows it once, as itself", () => {
        const own = (ownList ?? []).filter((r) => r.cwd === a.cwd);
        expect(
          own.map((r) => `${r.label} ${r.kind} self=${r.self}`),
          JSON.stringify(ownList),
        ).toHaveLength(1);
        expect(own[0]).toMatchObject({ kind: 'switchboard', self: true });
      });

      check('toSelf', 'a send to its own Claude Code messaging address is to_self', () => {
        expect(stockAddress, 'Claude Code wrote no registry entry with a messaging socket').toBeDefined();
        // From the tool call on (its input is the first 'to myself'; a message written into the session comes later).
        const afterCall = (context: string): string => context.slice(context.indexOf('to myself'));
        const result = a.model
          .main()
          .find((r) => r.context.includes('to myself') && /to_self|sent: |queued: /.test(afterCall(r.context)));
        expect(result, 'no model request carried the result of the send to itself').toBeDefined();
        expect(afterCall(result!.context)).toMatch(/Error \(to_self\)/);
        expect(afterCall(result!.context)).not.toMatch(/sent: /);
      });

      check('mcpExit', "its MCP server exits on Claude Code's first signal (no SIGKILL in its debug log)", () => {
        const log = fs.readFileSync(debugFile(), 'utf8');
        expect(log).toMatch(/switchboard/);
        // Claude Code sends SIGINT, then SIGTERM after 100 ms, then SIGKILL after 400 ms more.
        expect(log).not.toMatch(/sending SIGKILL to MCP server process/);
      });
    }

    check('leavesOnExit', 'the session leaves the listing when the agent exits', async () => {
      await until(async () => (await rowsOf(w, a.cwd)).length === 0 && sessionsOf(w, a.cwd).length === 0).catch(
        () => undefined,
      );
      expect(await rowsOf(w, a.cwd)).toEqual([]);
      expect(sessionsOf(w, a.cwd)).toEqual([]);
    });
  });
}
