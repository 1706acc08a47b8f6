// OpenAI Chat Completions (`POST /v1/chat/completions`, SSE), the wire of
// `@ai-sdk/openai-compatible` providers (OpenCode's loopback provider in the
// real-agent suite): one turn, a text or one tool call, in the chunks that
// client parses. Side requests (titles) get the fallback text like the others.

import type http from 'node:http';
import type { ModelRequest, Turn } from './server.js';
import type { VendorWire } from './wire.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function chatTools(body: unknown): string[] {
  return arr(obj(body).tools)
    .map((t) => obj(obj(t).function).name)
    .filter((n): n is string => typeof n === 'string');
}

export const openaiChat: VendorWire = {
  route: (m, url) =>
    m === 'POST' && /^\/v1\/chat\/completions(\?|$)/.test(url)
      ? 'model'
      : m === 'GET' && url.startsWith('/v1/models')
        ? 'aux'
        : 'other',
  tools: chatTools,
  aux: (res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [] }));
  },
  respond(res: http.ServerResponse, _req: ModelRequest, turn: Turn | { text: string }, serial: number): void {
    const id = `chatcmpl-fake-${serial}`;
    const base = { id, object: 'chat.completion.chunk', created: 0, model: 'fake' };
    const delta =
      'tool' in turn
        ? {
            role: 'assistant',
            tool_calls: [
              {
                index: 0,
                id: `call_fake_${serial}`,
                type: 'function',
                function: { name: turn.tool, arguments: JSON.stringify(turn.input) },
              },
            ],
          }
        : { role: 'assistant', content: turn.text };
    const chunks = [
      { ...base, choices: [{ index: 0, delta, finish_reason: null }] },
      {
        ...base,
        choices: [{ index: 0, delta: {}, finish_reason: 'tool' in turn ? 'tool_calls' : 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      },
    ];
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
    for (const c of chunks) res.write(`data: ${JSON.stringify(c)}\n\n`);
    res.end('data: [DONE]\n\n');
  },
};
