// Switchboard's OpenCode plugin: runs inside OpenCode's own process (setup
// lists the bundle, dist/cli/switchboard-opencode.mjs, in OpenCode's
// `plugin`), so no process starts per tool call. It keeps one Switchboard
// session per OpenCode session (sessions.ts), reports busy/idle from
// OpenCode's event stream and the mode from its configuration (mode.ts),
// tells our MCP server which session calls it, hands waiting messages over
// after each tool call (appended to the result the model reads) and with
// each prompt (a `synthetic` text part of its own after the user's, never
// the user's text: what waited while it was idle, or for a resumed `run -s`,
// reaches the turn's first request), and wakes
// an idle session with `client.session.promptAsync` when a message the
// hub admitted arrives (a held one never does). Items are acknowledged —
// reported `delivered` — only once the whole text went into the result or
// the prompt. It must never throw: an exception in `tool.execute.after`
// replaces the tool's result, so every hook swallows its failures.

import type { InboxItem } from '../../core/protocol/methods.js';
import { HOOK_TEXT_BUDGET } from '../agent/dialects.js';
import { fitItems, type Fitted } from '../agent/fit.js';
import type { FrameAt } from '../agent/framing.js';
import { opencodeMode } from './mode.js';
import { peerTextPart } from './part.js';
import { isSessionId, OpencodeSessions, SESSION_ARG } from './sessions.js';

// Only the plugin is exported: OpenCode takes every export of this module as a plugin.
/** OpenCode names an MCP tool `<server>_<tool>`: ours start so (their results carry the inbox already). */
const OUR_TOOLS = /^switchboard_/;
const MAX_ITEMS = 20;
/** OpenCode cuts an MCP tool's text at 50 KiB or 2000 lines after this hook: hand over only with room to spare. */
const MCP_ROOM = { bytes: 40 * 1024, lines: 1500 };

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

interface PromptClient {
  session: { promptAsync(args: unknown): Promise<unknown> };
}

function debug(what: string, err: unknown): void {
  if (process.env.SWITCHBOARD_DEBUG) process.stderr.write(`switchboard plugin: ${what}: ${String(err)}\n`);
}

export const SwitchboardPlugin = async (input: unknown): Promise<Rec> => {
  const ctx = isRec(input) ? input : {};
  const client = ctx.client as PromptClient | undefined;
  let config: unknown;
  const state = new Map<string, 'busy' | 'idle'>();
  const waking = new Set<string>();
  /** Sessions poked while a wake of theirs ran: it looks again when done (the new message may have come after its fetch). */
  const again = new Set<string>();
  // `opencode run <prompt>` exits after its prompt: a prompt it took at the end might never reach the model.
  const oneShot = process.argv[2] === 'run';
  const sessions = new OpencodeSessions({
    oneShot,
    cwd: str(ctx.directory) ?? process.cwd(),
    pid: process.pid,
    // Unknown (the hub fails closed) until OpenCode's `config` hook gave its configuration.
    mode: () => (config === undefined ? undefined : opencodeMode(config, process.argv, process.env)),
    onItem: (ses) => void wake(ses),
  });
  const peer = (ses: unknown): ses is string => isSessionId(ses) && !sessions.children.has(ses);

  /** Unread items that fit whole into `budget`, acknowledged by `commit` after they went in. */
  const take = async (ses: string, at: FrameAt, budget: number): Promise<Fitted & { hasMessage: boolean }> => {
    const items: InboxItem[] = await sessions.call(
      ses,
      async (cl, c) => (await cl.call('inbox.fetch', { ...c, limit: MAX_ITEMS })).items,
    );
    return { ...fitItems(items, budget, at), hasMessage: items.some((i) => i.kind === 'message') };
  };
  const ack = (ses: string, f: Fitted): Promise<unknown> =>
    f.shown.length === 0
      ? Promise.resolve()
      : sessions.call(ses, (cl, c) => cl.call('inbox.ack', { ...c, ids: f.shown.map((i) => i.id) }));

  const setState = async (ses: string, next: 'busy' | 'idle'): Promise<void> => {
    state.set(ses, next);
    await sessions.call(ses, (cl, c) =>
      cl.call('session.state', { ...c, state: next, hook: true, agentSessionId: ses }),
    );
    if (next === 'idle') await wake(ses);
  };

  /** An idle session with a message waiting: a prompt with what fits starts its turn. */
  async function wake(ses: string): Promise<void> {
    if (state.get(ses) !== 'idle' || client === undefined || oneShot) return;
    if (waking.has(ses)) {
      again.add(ses);
      return;
    }
    waking.add(ses);
    try {
      const f = await take(ses, 'prompt', HOOK_TEXT_BUDGET.opencode);
      if (!f.hasMessage || f.text === undefined || state.get(ses) !== 'idle') return;
      const text = f.text;
      // Both SDK call shapes OpenCode has shipped: v1 `{path, body}`, v2 flat.
      await client.session.promptAsync({
        path: { id: ses },
        body: { parts: [{ type: 'text', text }] },
        sessionID: ses,
        parts: [{ type: 'text', text }],
      });
      state.set(ses, 'busy');
      await ack(ses, f);
    } catch (err) {
      debug('wake', err);
    } finally {
      waking.delete(ses);
      if (again.delete(ses)) await wake(ses);
    }
  }

  const onEvent = async (event: unknown): Promise<void> => {
    if (!isRec(event) || !isRec(event.properties)) return;
    const p = event.properties;
    switch (event.type) {
      case 'session.created': {
        const info = isRec(p.info) ? p.info : {};
        if (!isSessionId(info.id)) return;
        if (typeof info.parentID === 'string') sessions.children.add(info.id);
        else if (!state.has(info.id)) await setState(info.id, 'idle'); // a new session waits for its first prompt
        return;
      }
      case 'session.status': {
        const type = isRec(p.status) ? p.status.type : undefined;
        if (!peer(p.sessionID)) return;
        if (type === 'idle') await setState(p.sessionID, 'idle');
        else if (type === 'busy' || type === 'retry') await setState(p.sessionID, 'busy');
        return;
      }
      case 'session.idle':
        if (peer(p.sessionID) && state.get(p.sessionID) !== 'idle') await setState(p.sessionID, 'idle');
        return;
      case 'session.deleted': {
        const id = isRec(p.info) ? p.info.id : undefined;
        if (isSessionId(id)) await sessions.end(id);
        return;
      }
      default:
        return;
    }
  };

  const afterTool = async (inp: Rec, out: Rec): Promise<void> => {
    const ses = inp.sessionID;
    if (!peer(ses) || OUR_TOOLS.test(str(inp.tool) ?? '')) return;
    if (typeof out.output === 'string') {
      const f = await take(ses, 'tool', HOOK_TEXT_BUDGET.opencode);
      if (f.text === undefined) return;
      out.output = `${out.output}\n\n${f.text}`;
      await ack(ses, f);
      return;
    }
    if (!Array.isArray(out.content)) return;
    const text = out.content.map((c: unknown) => (isRec(c) ? (str(c.text) ?? '') : '')).join('\n');
    if (Buffer.byteLength(text) > MCP_ROOM.bytes || text.split('\n').length > MCP_ROOM.lines) return;
    const f = await take(ses, 'tool', HOOK_TEXT_BUDGET.opencode);
    if (f.text === undefined) return;
    out.content.push({ type: 'text', text: f.text });
    await ack(ses, f);
  };

  /**
   * A prompt carries what waited (as Claude Code's UserPromptSubmit does) in a text part of its own after the
   * user's, marked `synthetic` (not the user's words; part.ts); the user's part stays as typed. A wake's own has it.
   */
  const onPrompt = async (inp: Rec, out: Rec): Promise<void> => {
    const ses = inp.sessionID;
    const parts = out.parts;
    if (!peer(ses) || waking.has(ses) || !Array.isArray(parts)) return;
    const part: unknown = parts.find((p: unknown) => isRec(p) && p.type === 'text' && typeof p.text === 'string');
    const ours = isRec(part) ? peerTextPart(part, parts, '') : undefined;
    // Without OpenCode's ids no part of ours could be saved: what waited stays unread (a tool call or wake takes it).
    if (ours === undefined) return;
    state.set(ses, 'busy'); // a wake that is fetching now must not prompt these same items again
    const f = await take(ses, 'prompt', HOOK_TEXT_BUDGET.opencode);
    if (f.text === undefined) return;
    parts.push({ ...ours, text: f.text });
    await ack(ses, f);
  };

  /** Runs a hook's work and swallows every failure (OpenCode would show it in place of a tool result). */
  const guard =
    <A extends unknown[]>(what: string, fn: (...a: A) => Promise<void>) =>
    async (...a: A): Promise<void> => {
      try {
        await fn(...a);
      } catch (err) {
        debug(what, err);
      }
    };

  return {
    config: guard('config', async (cfg: unknown) => {
      config = cfg;
      await sessions.remode();
    }),
    event: guard('event', async (e: unknown) => onEvent(isRec(e) ? e.event : undefined)),
    'tool.execute.before': guard('tool.execute.before', async (inp: unknown, out: unknown) => {
      // Our MCP server serves every session of this directory: the argument says which one calls.
      if (!isRec(inp) || !isRec(out) || !isRec(out.args) || !OUR_TOOLS.test(str(inp.tool) ?? '')) return;
      out.args[SESSION_ARG] = isSessionId(inp.sessionID) ? inp.sessionID : '';
      if (peer(inp.sessionID)) await sessions.ensure(inp.sessionID);
    }),
    'chat.message': guard('chat.message', async (inp: unknown, out: unknown) => {
      if (isRec(inp) && isRec(out)) await onPrompt(inp, out);
    }),
    'tool.execute.after': guard('tool.execute.after', async (inp: unknown, out: unknown) => {
      if (isRec(inp) && isRec(out)) await afterTool(inp, out);
    }),
  };
};
