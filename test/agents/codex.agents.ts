// The real Codex CLI (pinned) with Switchboard set up by `switchboard setup
// codex`, offline against a scripted OpenAI Responses server (a
// `[model_providers.*]` entry with `wire_api = "responses"`). `codex exec`
// always runs with approval "never", so the basics run in its bypass mode.
import { describe } from 'vitest';
import { OPTED_OUT } from './harness/opt-out.js';
import { basics } from './scenarios/basics.js';
import { bigMessage } from './scenarios/delivery.js';
import { flows, pair } from './scenarios/flows.js';
import { untrustedCodexHooks } from './scenarios/trust.js';

describe.skipIf(OPTED_OUT)('Codex CLI', () => {
  basics('codex', 'bypass');
  basics('codex', 'none'); // `codex exec` with no approval flag
  flows('codex', 'bypass');
  bigMessage('codex', 'bypass');
  untrustedCodexHooks();
  pair('codex', 'gemini', 'bypass');
  pair('gemini', 'codex', 'bypass');
});
