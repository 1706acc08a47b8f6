// Waking an idle receiver, and reaching a busy Claude Code turn
// without a PostToolUse hook. After admission put a message in a session's
// inbox (our policy decided first: a held message never gets here), the hub
// hands it over by the best way the agent offers: a Claude Code process's
// own messaging socket (claude-socket.ts; idle: the line starts a turn; busy,
// 2.1.332+ interactive: it joins the turn's next model request), or an idle
// interactive Codex thread's app-server daemon (codex.ts: the claimed
// messages start a turn there and are `delivered` when the daemon started
// it; if it cannot, they go back to the inbox and the user is told), or an
// idle OpenCode session's own plugin (it takes the hub's `inbox.item` push
// and starts the turn inside OpenCode). With no way in, the user is told once per message (a user notice, the row's
// `waiting` count) and the sender gets a `waiting` receipt. Keystrokes are
// never injected.

import { CLAUDE_MID_TURN_SINCE, type PeerMessageStatus } from '../protocol/cc-wire.js';
import type { InboxItem } from '../protocol/methods.js';
import type { SessionRecord } from '../registry/session.js';
import type { UserNotice } from '../protocol/events.js';
import { WaitingTold } from './told.js';
import { CodexThreadBusy, codexRoute, fitTurn, startCodexTurn, type CodexWakePorts } from './codex.js';
import { ClaudeSocketHandover, type ClaudeSocketPorts } from './claude-socket.js';
import { versionAtLeast } from '../kit/version.js';

/** How a session can be woken: its agent process's Claude Code socket, or not at all (and why). */
export type WakeRoute =
  | { kind: 'claude-socket'; socketPath: string; entryPid: number }
  | { kind: 'codex-app-server'; socketPath: string; threadId: string }
  /** OpenCode: our plugin inside its process takes the `inbox.item` push and starts the turn itself. */
  | { kind: 'plugin'; why: string }
  | { kind: 'none'; why: string }
  | { kind: 'not-yet'; why: string };

/** Claude Code's own registry status when it waits for its user (its entry is rescanned on change, and a change pokes). */
const CLAUDE_IDLE = new Set(['idle']); // not 'waiting' (a permission dialog): the message would wait, and a hook of that turn would call it delivered

/**
 * Why this Claude Code process is not one a user watches, if it is not: its registry `kind`, or (2.1.332 writes
 * `kind: "interactive"` for `claude -p` too) its `entrypoint`, `sdk-cli` for `claude -p` and `sdk-*` for the SDKs.
 */
function headlessWhy(entry: { kind?: string | undefined; entrypoint?: string | undefined }): string | undefined {
  if (entry.kind !== undefined && entry.kind !== 'interactive')
    return `a ${entry.kind} Claude Code session (not interactive)`;
  if (entry.entrypoint?.startsWith('sdk') === true)
    return `a headless Claude Code run (${entry.entrypoint}; its hooks hand messages over)`;
  return undefined;
}

/** What waking needs from the hub. */
export interface WakePorts extends ClaudeSocketPorts {
  readonly version: string;
  /** Codex's home (CODEX_HOME, else ~/.codex) as the hub was given its environment. */
  readonly codexHome: string;
  readonly userNotices: { push(notice: UserNotice): void };
}

export class Waker {
  readonly #hub: WakePorts;
  readonly #socket: ClaudeSocketHandover;
  /** Messages its user was told about (no way in), per receiver. */
  readonly #told: WaitingTold;
  /** Sessions whose hooks reported the end of a turn (idle after work): only their idle is worth telling the user about. */
  readonly #turnEnded = new Set<string>();
  readonly #running = new Set<string>();
  readonly #again = new Set<string>();
  /** Idle sessions the throttle kept messages back from: one look again each. */
  readonly #retry = new Map<string, NodeJS.Timeout>();
  /** Callers of settled() waiting for the running wakes to end. */
  readonly #settledWaiters: Array<() => void> = [];

  constructor(hub: WakePorts) {
    this.#hub = hub;
    this.#told = new WaitingTold(hub);
    this.#socket = new ClaudeSocketHandover(hub);
  }

  /** What codex.ts needs of the hub. */
  #codexPorts(): CodexWakePorts {
    const l = this.#hub.limits;
    const home = this.#hub.codexHome;
    return {
      timeoutMs: l.codexWakeTimeoutMs,
      idleWaitMs: l.codexIdleWaitMs,
      maxFrameBytes: l.codexFrameBytes,
      turnBytes: l.codexWakeBytes,
      codexHome: home,
      version: this.#hub.version,
    };
  }

  routeFor(s: SessionRecord): WakeRoute {
    if (s.agent === 'codex') return codexRoute(s, this.#codexPorts());
    if (s.agent === 'opencode')
      return s.interactive
        ? { kind: 'plugin', why: 'its Switchboard plugin starts a turn inside OpenCode' }
        : { kind: 'none', why: 'a one-shot `opencode run`, which ends after its prompt' };
    if (s.agent !== 'claude')
      return {
        kind: 'none',
        why: `${s.agent === 'other' ? 'this agent' : s.agent} offers no way to start a turn from outside`,
      };
    const stock = this.#hub.table.stockOf(s);
    if (stock === undefined)
      return {
        kind: 'none',
        why: 'this Claude Code has no messaging socket (2.1.332 binds one by default; 2.1.231 needs CLAUDE_CODE_HARBOR_KITE=1)',
      };
    // A headless run (`claude -p`) has no user to wait for: after its last turn it ends; a wake would prolong it past its loop guard.
    const headless = headlessWhy(stock.entry);
    if (headless !== undefined) return { kind: 'none', why: headless };
    if (!CLAUDE_IDLE.has(stock.status ?? ''))
      return { kind: 'not-yet', why: `Claude Code itself reports ${stock.status ?? 'no status'}` };
    return { kind: 'claude-socket', socketPath: stock.socketPath, entryPid: stock.entry.pid };
  }

  /** Messages waiting for this idle session that its user was told about (no way in). */
  waitingFor(sessionId: string): number {
    const s = this.#hub.table.live.get(sessionId);
    if (s === undefined || s.state !== 'idle') return 0;
    return this.#told.count(sessionId);
  }

  /** Its hooks reported idle after a turn (its Stop hook). */
  wentIdle(sessionId: string): void {
    this.#turnEnded.add(sessionId);
    this.poke(sessionId);
  }

  /** Something may wait for a session (a message arrived, it went idle, its Claude Code changed state). Never throws. */
  poke(receiverId: string): void {
    if (this.#running.has(receiverId)) {
      this.#again.add(receiverId);
      return;
    }
    // What #wake checks first, without its promises: a busy receiver (every send in a burst) costs a lookup.
    const s = this.#hub.table.live.get(receiverId);
    if (s === undefined) return;
    if (s.hooksSeenAt === null) return this.#prune(s);
    if (s.state !== 'idle' && (s.agent !== 'claude' || !this.#socket.hasRoom(s.id))) return this.#prune(s);
    this.#running.add(receiverId);
    this.#wake(receiverId)
      .catch((err: unknown) => this.#hub.log.warn('wake failed', { id: receiverId, error: String(err) }))
      .finally(() => {
        this.#running.delete(receiverId);
        if (this.#again.delete(receiverId)) this.poke(receiverId);
        if (this.#running.size === 0) for (const resolve of this.#settledWaiters.splice(0)) resolve();
      });
  }

  /**
   * Resolves once no wake runs (none started by what happened so far is still writing): the event a test waits
   * on to say "nothing was woken", instead of a span of time.
   */
  settled(): Promise<void> {
    if (this.#running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#settledWaiters.push(resolve));
  }

  async #wake(receiverId: string): Promise<void> {
    const hub = this.#hub;
    const s = hub.table.live.get(receiverId);
    if (s === undefined) return;
    this.#prune(s);
    // Only hooks say idle and mark the turn a wake starts: without them (MCP only, hooks not running) there is nothing to do.
    if (s.hooksSeenAt === null) return;
    if (s.state !== 'idle') return this.#midTurn(s);
    const route = this.routeFor(s);
    // Our hooks say idle but Claude Code not yet (e.g. a headless run between its hooks): its registry change pokes again.
    if (route.kind === 'not-yet' || route.kind === 'plugin') return;
    if (route.kind === 'codex-app-server') {
      const items = this.#socket.unwritten(s, hub.limits.wakeBatch);
      return items.length === 0 ? undefined : this.#wakeCodex(s, items, route);
    }
    if (route.kind === 'none') {
      const items = this.#socket.unwritten(s, hub.limits.wakeBatch);
      // Idle since it started (no turn yet, e.g. a headless run between its SessionStart and prompt hooks): nobody to tell.
      if (items.length === 0 || !this.#turnEnded.has(s.id)) return;
      return this.#tell(s, items, route.why);
    }
    const items = this.#socket.candidates(s, hub.limits.wakeBatch);
    if (items.length === 0) return this.#retryLater(s);
    const from = await hub.stock.replies.addressFor(s, route.socketPath);
    if (from === null) {
      if (!this.#turnEnded.has(s.id)) return;
      return this.#tell(s, items, 'no private reply socket beside its Claude Code socket');
    }
    if ((await this.#socket.write(s, items, route, from, 'idle')) > 0) this.#setState(s, 'busy'); // its turn starts; its Stop hook reports idle again
    this.#retryLater(s);
  }

  /** How a busy Claude Code turn can take a message before its end: the process's own socket (2.1.332+, interactive, Claude Code says busy). */
  midTurnRouteFor(s: SessionRecord): { socketPath: string } | { why: string } {
    if (s.agent !== 'claude') return { why: `${s.agent} takes messages at its hooks` };
    const stock = this.#hub.table.stockOf(s);
    if (stock === undefined) return { why: 'no Claude Code messaging socket' };
    // Headless, a message that comes as its last turn ends may never be read: its Stop hook hands messages over instead.
    const headless = headlessWhy(stock.entry);
    if (headless !== undefined) return { why: headless };
    if (!versionAtLeast(stock.entry.version ?? '', CLAUDE_MID_TURN_SINCE))
      return {
        why: `Claude Code ${stock.entry.version ?? '(version unknown)'} (mid-turn socket messages seen since ${CLAUDE_MID_TURN_SINCE})`,
      };
    if (stock.status !== 'busy') return { why: `Claude Code itself reports ${stock.status ?? 'no status'}` };
    return { socketPath: stock.socketPath };
  }

  /** A busy Claude Code turn: what fits its throttle goes to its socket now; the rest waits for its hooks (Stop at the latest). */
  async #midTurn(s: SessionRecord): Promise<void> {
    const route = this.midTurnRouteFor(s);
    if (!('socketPath' in route)) return;
    const items = this.#socket.candidates(s, this.#hub.limits.wakeBatch);
    if (items.length === 0) return;
    const from = await this.#hub.stock.replies.addressFor(s, route.socketPath);
    if (from === null) return; // its hooks hand them over
    await this.#socket.write(s, items, route, from, 'busy');
  }

  /** Messages the throttle kept back from an idle session: look again once it has room (a busy one's hooks take them). */
  #retryLater(s: SessionRecord): void {
    if (this.#retry.has(s.id)) return;
    if (this.#socket.unwritten(s, this.#hub.limits.wakeBatch).length === 0) return; // nothing, or only what a failed write left to its hooks
    const timer = setTimeout(
      () => {
        this.#retry.delete(s.id);
        this.poke(s.id);
      },
      Math.ceil(1000 / this.#hub.limits.claudeSocketPerSecond),
    );
    timer.unref();
    this.#retry.set(s.id, timer);
  }

  /** Starts a turn in the idle Codex thread with what fits; on failure the messages go back and its user is told. */
  async #wakeCodex(
    s: SessionRecord,
    items: InboxItem[],
    route: Extract<WakeRoute, { kind: 'codex-app-server' }>,
  ): Promise<void> {
    const hub = this.#hub;
    const ports = this.#codexPorts();
    const batch = fitTurn(items, ports.turnBytes).filter((i) => hub.mailboxes.claim(s.id, i.id));
    if (batch.length === 0) return;
    this.#socket.remember(batch.map((i) => i.id)); // written once: a failed wake is not retried, its hooks hand them over
    try {
      await startCodexTurn(
        route,
        s.cwd,
        batch.map((i) => i.text),
        ports,
      );
    } catch (err) {
      for (const i of batch) hub.mailboxes.release(s.id, i.id);
      if (err instanceof CodexThreadBusy) return; // a turn runs: its hooks hand them over
      const why = err instanceof Error ? err.message : String(err);
      hub.log.warn('wake: the Codex app-server started no turn; its hooks hand the messages over', {
        id: s.id,
        error: why,
      });
      if (!this.#turnEnded.has(s.id)) return;
      return this.#tell(s, batch, `its Codex app-server started no turn: ${why}`);
    }
    this.#setState(s, 'busy'); // its turn runs; its Stop hook reports idle again
    const ids = batch.map((i) => i.id);
    const removed = await hub.mailboxes.ack(s.id, ids);
    for (const i of removed)
      if (i.kind === 'message')
        this.#socket.notify(i, s, 'delivered', 'woken while idle: its Codex app-server started a turn with it');
  }

  /** A peer_message_status on a reply socket: true when it answers one of our socket writes (then it is handled here). */
  status(line: PeerMessageStatus): boolean {
    return this.#socket.status(line, (s) => this.#setState(s, 'idle'));
  }

  /** A hook of this session reported (a turn ran after a socket write): those messages were delivered. */
  turnReported(sessionId: string): void {
    this.#socket.turnReported(sessionId);
  }

  /** No way in: the user is told once per message, the sender gets `waiting`. */
  #tell(s: SessionRecord, items: InboxItem[], why: string): void {
    const { fresh, shown } = this.#told.tell(s, items, why);
    for (const i of fresh)
      if (i.kind === 'message')
        this.#socket.notify(i, s, 'waiting', `${shown} is idle and cannot be woken (${why}); its user has been told`);
  }

  /** Forgets told ids that were read meanwhile. */
  #prune(s: SessionRecord): void {
    this.#told.prune(s.id, this.#hub.mailboxes.inbox(s.id));
  }

  #setState(s: SessionRecord, state: 'busy' | 'idle'): void {
    if (s.state === state) return;
    s.state = state;
    s.stateSince = this.#hub.clock.now();
    this.#hub.events.emit({ type: 'sessions.changed' });
  }

  /** The session ended: its claims and told lists go (its inbox stays for a resume, unclaimed). */
  ended(sessionId: string): void {
    this.#socket.ended(sessionId);
    this.#told.forget(sessionId);
    this.#turnEnded.delete(sessionId);
    clearTimeout(this.#retry.get(sessionId));
    this.#retry.delete(sessionId);
  }

  close(): void {
    this.#socket.close();
    for (const t of this.#retry.values()) clearTimeout(t);
    this.#retry.clear();
  }
}
