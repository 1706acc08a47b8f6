// The three vendors' wire formats, just enough of each for a scripted turn:
// Anthropic Messages (`POST /v1/messages`, SSE), OpenAI Responses
// (`POST /v1/responses`, SSE) and Gemini (`…:streamGenerateContent?alt=sse`,
// and `:generateContent` for its side requests), and OpenAI Chat Completions
// (wire-chat.ts). Each answers one turn — a
// text or one tool call — in the events its own client parses. Pure output:
// the script lives in server.ts.

import type http from 'node:http';
import type { ModelRequest, Turn } from './server.js';
import { openaiChat } from './wire-chat.js';

export type Vendor = 'anthropic' | 'openai' | 'openai-chat' | 'gemini';

export interface VendorWire {
  /** `model` for a model turn, `aux` for a side endpoint answered by `aux`, `other` for 404. */
  route(method: string, url: string): 'model' | 'aux' | 'other';
  tools(body: unknown): string[];
  respond(res: http.ServerResponse, req: ModelRequest, turn: Turn | { text: string }, serial: number): void;
  aux?(res: http.ServerResponse, req: ModelRequest): void;
  /** A turn that makes a deferred tool available (Claude Code's ToolSearch), when the agent defers it. */
  loadDeferred?(req: ModelRequest, want: string): Turn | undefined;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);

function sse(res: http.ServerResponse, events: Array<[string | null, unknown]>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
  for (const [name, data] of events) res.write(`${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  res.end();
}

function json(res: http.ServerResponse, data: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(data));
}

const anthropic: VendorWire = {
  route: (m, url) =>
    m === 'POST' && /^\/v1\/messages(\?|$)/.test(url)
      ? 'model'
      : m === 'POST' && url.startsWith('/v1/messages/count_tokens')
        ? 'aux'
        : 'other',
  tools: (body) =>
    arr(obj(body).tools)
      .map((t) => str(obj(t).name))
      .filter((n) => n !== ''),
  aux: (res) => json(res, { input_tokens: 10 }),
  loadDeferred(req, want) {
    if (!req.tools.includes('ToolSearch')) return undefined;
    const full = new RegExp(`\\b(mcp__[A-Za-z0-9_-]+__${want})\\b`).exec(req.context)?.[1];
    return { tool: 'ToolSearch', input: { query: full ? `select:${full}` : want, max_results: 5 } };
  },
  respond(res, req, turn, serial) {
    const model = str(obj(req.body).model, 'claude-fake');
    const id = `msg_fake_${serial}`;
    const block =
      'tool' in turn
        ? { type: 'tool_use', id: `toolu_fake_${serial}`, name: turn.tool, input: {} }
        : { type: 'text', text: '' };
    const delta =
      'tool' in turn
        ? { type: 'input_json_delta', partial_json: JSON.stringify(turn.input) }
        : { type: 'text_delta', text: turn.text };
    const stop = 'tool' in turn ? 'tool_use' : 'end_turn';
    const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    if (obj(req.body).stream !== true) {
      const content = 'tool' in turn ? [{ ...block, input: turn.input }] : [{ type: 'text', text: turn.text }];
      return json(res, {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content,
        stop_reason: stop,
        stop_sequence: null,
        usage,
      });
    }
    sse(res, [
      [
        'message_start',
        {
          type: 'message_start',
          message: {
            id,
            type: 'message',
            role: 'assistant',
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage,
          },
        },
      ],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: block }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      [
        'message_delta',
        { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } },
      ],
      ['message_stop', { type: 'message_stop' }],
    ]);
  },
};

/** Responses tools: plain functions, or functions grouped under a namespace (listed as `<namespace>/<tool>`). */
function openaiTools(body: unknown): string[] {
  const out: string[] = [];
  for (const t of arr(obj(body).tools)) {
    const o = obj(t);
    if (o.type === 'namespace') for (const inner of arr(o.tools)) out.push(`${str(o.name)}/${str(obj(inner).name)}`);
    else if (typeof o.name === 'string') out.push(o.name);
  }
  return out;
}

const openai: VendorWire = {
  route: (m, url) =>
    m === 'POST' && /^\/v1\/responses(\?|$)/.test(url)
      ? 'model'
      : m === 'GET' && url.startsWith('/v1/models')
        ? 'aux'
        : 'other',
  tools: openaiTools,
  aux: (res) => json(res, { models: [], data: [] }),
  respond(res, req, turn, serial) {
    const rid = `resp_fake_${serial}`;
    let item: Obj;
    if ('tool' in turn) {
      const slash = turn.tool.indexOf('/');
      const [ns, name] = slash >= 0 ? [turn.tool.slice(0, slash), turn.tool.slice(slash + 1)] : [undefined, turn.tool];
      item = {
        type: 'function_call',
        id: `fc_fake_${serial}`,
        call_id: `call_fake_${serial}`,
        name,
        arguments: JSON.stringify(turn.input),
        ...(ns ? { namespace: ns } : {}),
      };
    } else {
      item = {
        type: 'message',
        id: `msg_fake_${serial}`,
        role: 'assistant',
        content: [{ type: 'output_text', text: turn.text, annotations: [] }],
      };
    }
    const usage = {
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 15,
    };
    const events: Array<[string, unknown]> = [
      ['response.created', { type: 'response.created', response: { id: rid, status: 'in_progress' } }],
      ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item }],
    ];
    if (!('tool' in turn))
      events.push([
        'response.output_text.delta',
        { type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: turn.text },
      ]);
    events.push(['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }]);
    events.push([
      'response.completed',
      { type: 'response.completed', response: { id: rid, status: 'completed', usage } },
    ]);
    sse(res, events);
  },
};

function geminiTools(body: unknown): string[] {
  return arr(obj(body).tools)
    .flatMap((t) => arr(obj(t).functionDeclarations).map((d) => str(obj(d).name)))
    .filter((n) => n !== '');
}

/** Gemini's side requests ask for JSON (next-speaker check, model routing): "the user speaks next", "simple". */
const GEMINI_JSON_ANSWER = {
  reasoning: 'scripted model',
  next_speaker: 'user',
  model_choice: 'flash',
  complexity_reasoning: 'scripted model',
  complexity_score: 1,
};

const gemini: VendorWire = {
  route: (m, url) =>
    m === 'POST' && /:(stream)?generateContent(\?|$)/i.test(url)
      ? 'model'
      : m === 'POST' && /:countTokens/.test(url)
        ? 'aux'
        : 'other',
  tools: geminiTools,
  aux: (res) => json(res, { totalTokens: 10 }),
  respond(res, req, turn) {
    const cfg = obj(obj(req.body).generationConfig);
    const wantsJson = cfg.responseMimeType === 'application/json';
    const part =
      'tool' in turn
        ? { functionCall: { name: turn.tool, args: turn.input } }
        : { text: wantsJson && !req.main ? JSON.stringify(GEMINI_JSON_ANSWER) : turn.text };
    const chunk = {
      candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: 'gemini-fake',
    };
    if (/:streamGenerateContent/i.test(req.path)) sse(res, [[null, chunk]]);
    else json(res, chunk);
  },
};

export const WIRES: Record<Vendor, VendorWire> = { anthropic, openai, 'openai-chat': openaiChat, gemini };
