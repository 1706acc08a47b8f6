// One Switchboard session per OpenCode session (`ses_…`), kept by the
// plugin inside OpenCode's process over one hub connection: registered the
// first time the session is seen, resumed after a hub restart, its
// credentials written to `agents/opencode-<ses>.json` (0600, with OpenCode's
// pid) so that `switchboard mcp --agent opencode` — one process per
// directory, serving every session — acts as the session that called the
// tool (opencodeCredentials). Subagent sessions (a parent id) are not
// peers and get none. Calls may fail (no hub): callers must catch.

import fs from 'node:fs';
import path from 'node:path';
import { HubClient, RpcError } from '../../core/client/client.js';
import type { PermissionModeName } from '../../core/protocol/vocabulary.js';
import { currentEndpointEnv, resolveEndpoint } from '../../core/transport/endpoint.js';
import { writeCredentials, type Credentials } from '../agent/credentials.js';

/** OpenCode's session ids as the hub takes them (and as file names stay safe). */
const SES_ID = /^ses_[0-9A-Za-z]{1,120}$/;
const CONNECT_TIMEOUT_MS = 2000;
/** A call's bound: generous, a loaded machine's hub answers late (the first run of a fresh machine took over 2 s). */
const CALL_TIMEOUT_MS = 30_000;
/** The argument our MCP tools get with the calling session's id (the plugin adds it, `switchboard mcp` takes it out). */
export const SESSION_ARG = '_switchboard_opencode_session';

export function isSessionId(v: unknown): v is string {
  return typeof v === 'string' && SES_ID.test(v);
}

function agentsDir(): string {
  return path.join(resolveEndpoint(currentEndpointEnv()).stateDir, 'agents');
}

export function opencodeCredentialsFile(ses: string): string {
  return path.join(agentsDir(), `opencode-${ses}.json`);
}

/** The credentials the plugin of OpenCode process `pid` wrote for `ses`; undefined when none or another process's. */
export function opencodeCredentials(ses: string, pid: number): Credentials | undefined {
  if (!isSessionId(ses)) return undefined;
  try {
    const v = JSON.parse(fs.readFileSync(opencodeCredentialsFile(ses), 'utf8')) as Record<string, unknown>;
    if (v.pid !== pid || typeof v.sessionId !== 'string' || typeof v.token !== 'string') return undefined;
    return { sessionId: v.sessionId, token: v.token };
  } catch {
    return undefined;
  }
}

export interface SessionsOptions {
  cwd: string;
  pid: number;
  /** `opencode run`: one prompt, then it exits (the hub wakes nothing there; its messages wait for its tool calls). */
  oneShot: boolean;
  /** The mode OpenCode's configuration gives (mode.ts), undefined when unknown. */
  mode: () => PermissionModeName | undefined;
  /** A hub push for one of our sessions (an admitted message or receipt waits). */
  onItem: (ses: string) => void;
}

export class OpencodeSessions {
  readonly #o: SessionsOptions;
  #client: HubClient | undefined;
  #connecting: Promise<HubClient> | undefined;
  readonly #creds = new Map<string, Credentials>();
  readonly #pending = new Map<string, Promise<Credentials>>();
  /** Subagent sessions: never registered. */
  readonly children = new Set<string>();

  constructor(o: SessionsOptions) {
    this.#o = o;
    // The credentials files die with OpenCode (their sessions end with its pid): leave none behind.
    process.once('exit', () => {
      for (const ses of this.#creds.keys()) fs.rmSync(opencodeCredentialsFile(ses), { force: true });
    });
  }

  async client(): Promise<HubClient> {
    if (this.#client !== undefined) return this.#client;
    this.#connecting ??= HubClient.connect(resolveEndpoint(currentEndpointEnv()).hubSocket, {
      timeoutMs: CONNECT_TIMEOUT_MS,
      callTimeoutMs: CALL_TIMEOUT_MS,
    }).then(
      (c) => {
        this.#client = c;
        this.#connecting = undefined;
        c.on('inbox.item', (p) => {
          for (const [ses, cr] of this.#creds) if (cr.sessionId === p.sessionId) this.#o.onItem(ses);
        });
        // Pushes are per connection: a new one (after a hub restart) subscribes every known session again.
        for (const cr of this.#creds.values()) void c.call('inbox.subscribe', cr).catch(() => undefined);
        return c;
      },
      (err: unknown) => {
        this.#connecting = undefined;
        throw err;
      },
    );
    return this.#connecting;
  }

  /** The hub connection closed (hub restarted): the next call connects and resumes. */
  dropClient(): void {
    this.#client?.close();
    this.#client = undefined;
  }

  known(ses: string): Credentials | undefined {
    return this.#creds.get(ses);
  }

  /** The session's credentials, registering it (once, however many hooks ask at once) when new. */
  ensure(ses: string): Promise<Credentials> {
    const have = this.#creds.get(ses);
    if (have !== undefined) return Promise.resolve(have);
    let p = this.#pending.get(ses);
    if (p === undefined) {
      p = this.#register(ses).finally(() => this.#pending.delete(ses));
      this.#pending.set(ses, p);
    }
    return p;
  }

  async #register(ses: string): Promise<Credentials> {
    const client = await this.client();
    const mode = this.#o.mode();
    const reg = await client.call('session.register', {
      cwd: this.#o.cwd,
      pid: this.#o.pid,
      liveness: 'pid',
      agent: 'opencode',
      hook: true,
      conversation: ses, // `opencode run -s <ses>` resumes it: its earlier session comes back
      ...(this.#o.oneShot ? { interactive: false } : {}),
      ...(mode !== undefined ? { permissionMode: mode, modeSource: 'hook' as const } : { modeKnown: false }),
    });
    const creds = { sessionId: reg.sessionId, token: reg.token };
    // Known before subscribing: a push that races the answer, or a subscribe that fails, never orphans the session.
    this.#creds.set(ses, creds);
    await client.call('inbox.subscribe', creds).catch(() => {
      // The next connection subscribes every known session again (client()): connect it now, an idle session
      // makes no call that would.
      this.dropClient();
      void this.client().catch(() => undefined);
    });
    writeCredentials(opencodeCredentialsFile(ses), { ...creds, agentSessionId: ses, pid: this.#o.pid } as Credentials);
    return creds;
  }

  /** Calls with the session's credentials; registers anew once when the hub no longer knows them. */
  async call<T>(ses: string, fn: (client: HubClient, c: Credentials) => Promise<T>): Promise<T> {
    const c = await this.ensure(ses);
    try {
      return await fn(await this.client(), c);
    } catch (err) {
      if (!(err instanceof RpcError)) this.dropClient(); // the connection failed: the next call connects again
      if (!(err instanceof RpcError) || err.reason !== 'unauthorized') throw err;
      this.#creds.delete(ses);
      return fn(await this.client(), await this.ensure(ses));
    }
  }

  /** Every session's mode again (OpenCode's configuration changed). */
  async remode(): Promise<void> {
    const mode = this.#o.mode();
    if (mode === undefined) return;
    for (const ses of this.#creds.keys())
      await this.call(ses, (cl, c) => cl.call('session.mode', { ...c, permissionMode: mode, source: 'hook' }));
  }

  /** The OpenCode session was deleted: its Switchboard session ends (its senders get exit receipts). */
  async end(ses: string): Promise<void> {
    const c = this.#creds.get(ses);
    this.#creds.delete(ses);
    fs.rmSync(opencodeCredentialsFile(ses), { force: true });
    if (c !== undefined) await (await this.client()).call('session.unregister', c);
  }
}
