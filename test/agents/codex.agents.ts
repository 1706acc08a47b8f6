// The real Codex CLI (pinned) with Switchboard set up by `switchboard setup
// codex`, offline against a scripted OpenAI Responses server (a
// `[model_providers.*]` entry with `wire_api = "responses"`). `codex exec`
// always runs with approval "never", so the basics run in its bypass mode.
import { describe } from 'vitest';
import { OPTED_OUT } from './harness/opt-out.js';
import { basics } from './scenarios/basics.js';
import { flows, pair } from './scenarios/flows.js';

const CODEX_ENV =
  'Codex passes MCP servers only a short list of environment variables (no XDG_RUNTIME_DIR): `switchboard mcp` misses the hub, starts a second hub on the same state directory, and its sends report queued but never arrive';

describe.skipIf(OPTED_OUT)('Codex CLI', () => {
  basics('codex', 'bypass', { toolsReachModel: `todo:${CODEX_ENV} (the second hub starts slowly, so the tools miss the first requests)`, sendStatus: CODEX_ENV, fromMode: CODEX_ENV });
  flows('codex', 'bypass');
  pair('codex', 'gemini', CODEX_ENV);
  pair('gemini', 'codex', CODEX_ENV);
});
