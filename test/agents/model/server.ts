// A scripted model server for the real-agent suite: one HTTP server on a
// Unix socket (agents reach it through a loopback forwarder inside their
// network namespace), speaking one vendor's streaming API. Every request is
// recorded. Requests that advertise tools are the agent's main loop and
// consume the script one step at a time; any other request (titles, checks)
// gets a short text. It never decides anything itself: the script does.
// Each request keeps when it arrived and when its answer left (benchmarks).

import fs from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Vendor, VendorWire } from './wire.js';
import { WIRES } from './wire.js';

export type Turn = { text: string } | { tool: string; input: Record<string, unknown> };

/** What a step sees of the request it answers. */
export interface ModelRequest {
  index: number;
  path: string;
  body: unknown;
  /** The names of the tools the agent advertised. */
  tools: string[];
  /** Every string in the request body, joined: what reached the model's context. */
  context: string;
  /** True when it advertises tools (the agent's main loop). */
  main: boolean;
  /** performance.now() when its body had arrived. */
  at: number;
  /** When its answer was handed to the socket (the response's 'finish'), and the tool it called, if any. */
  answered?: { at: number; tool?: string };
}

export type Step = Turn | ((req: ModelRequest) => Turn | Promise<Turn>);

export interface ModelServer {
  vendor: Vendor;
  socketPath: string;
  requests: ModelRequest[];
  /** Script problems (a wanted tool the agent did not offer). */
  errors: string[];
  /** The main-loop requests only. */
  main(): ModelRequest[];
  /** Replaces the script (the steps not yet consumed are dropped). */
  script(steps: Step[]): void;
  /** Steps not yet consumed. */
  pending(): number;
  /** How many requests the no-op HTTP hook path got. */
  noopHookHits(): number;
  close(): Promise<void>;
}

/** Answered `{}` at once, not recorded: the target of a no-op HTTP hook. */
export const NOOP_HOOK_PATH = '/noop-hook';
const MAX_BODY = 32 * 1024 * 1024; // agents send their whole context each turn
const FALLBACK_TEXT = 'Done.';

function strings(v: unknown, out: string[], depth = 0): void {
  if (depth > 64) return;
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out, depth + 1);
  else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) strings(x, out, depth + 1);
}

/** The advertised name for a wanted tool: exact, with an MCP prefix (`mcp__switchboard__x`, `mcp_switchboard_x`) or in a namespace (`ns/x`). */
export function advertisedName(tools: readonly string[], want: string): string | undefined {
  return (
    tools.find((t) => t === want) ?? tools.find((t) => ['__', '_', '.', '/'].some((sep) => t.endsWith(`${sep}${want}`)))
  );
}

export async function startModelServer(vendor: Vendor, socketPath: string, steps: Step[] = []): Promise<ModelServer> {
  const wire: VendorWire = WIRES[vendor];
  const requests: ModelRequest[] = [];
  const errors: string[] = [];
  let queue = [...steps];
  let current: Turn | undefined;
  let serial = 0;
  const answeredTool = new WeakMap<ModelRequest, string>();
  let hookHits = 0;

  async function answer(req: ModelRequest, res: http.ServerResponse): Promise<void> {
    res.once('finish', () => {
      const body = answeredTool.get(req);
      req.answered = { at: performance.now(), ...(body !== undefined ? { tool: body } : {}) };
    });
    if (!req.main || queue.length === 0) return wire.respond(res, req, { text: FALLBACK_TEXT }, ++serial);
    const step = queue[0]!;
    // A step runs once: when its tool must be loaded first, the same turn answers the next request.
    const turn = current ?? (typeof step === 'function' ? await step(req) : step);
    current = turn;
    // A tool the agent defers (Claude Code's ToolSearch): load it first, keep the step.
    if ('tool' in turn && advertisedName(req.tools, turn.tool) === undefined) {
      const loader = wire.loadDeferred?.(req, turn.tool);
      if (loader) {
        if ('tool' in loader) answeredTool.set(req, loader.tool);
        return wire.respond(res, req, loader, ++serial);
      }
      // Not advertised (yet): say so to the agent and to the test; keep the step for the next request.
      errors.push(`request ${req.index}: no tool named like ${turn.tool} among: ${req.tools.join(', ')}`);
      return wire.respond(res, req, { text: `[scripted model] the tool ${turn.tool} is not available.` }, ++serial);
    }
    queue.shift();
    current = undefined;
    const resolved = 'tool' in turn ? { tool: advertisedName(req.tools, turn.tool)!, input: turn.input } : turn;
    if ('tool' in resolved) answeredTool.set(req, resolved.tool);
    return wire.respond(res, req, resolved, ++serial);
  }

  const server = http.createServer((httpReq, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    httpReq.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) httpReq.destroy();
      else chunks.push(c);
    });
    httpReq.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = raw === '' ? null : JSON.parse(raw);
      } catch {
        body = raw;
      }
      const url = httpReq.url ?? '/';
      // An HTTP hook that does nothing (benchmarks measure what any HTTP hook costs the agent).
      if (url.startsWith(NOOP_HOOK_PATH)) {
        hookHits++;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      const route = wire.route(httpReq.method ?? 'GET', url);
      if (route === 'other') {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `fake ${vendor} server: no ${httpReq.method} ${url}` } }));
        return;
      }
      const tools = wire.tools(body);
      const all: string[] = [];
      strings(body, all);
      const req: ModelRequest = {
        at: performance.now(),
        index: requests.length,
        path: url,
        body,
        tools,
        context: all.join('\n'),
        main: route === 'model' && tools.length > 0,
      };
      requests.push(req);
      if (route === 'aux') {
        wire.aux?.(res, req);
        return;
      }
      answer(req, res).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(err) } }));
      });
    });
  });
  fs.rmSync(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    vendor,
    socketPath,
    requests,
    errors,
    main: () => requests.filter((r) => r.main),
    script(next) {
      queue = [...next];
      current = undefined;
    },
    pending: () => queue.length,
    noopHookHits: () => hookHits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
