// The real Claude Code (pinned) with Switchboard set up by `switchboard
// setup claude-code`, offline against a scripted Anthropic Messages server.
import { basics } from './scenarios/basics.js';
import { OPTED_OUT } from './harness/opt-out.js';
import { describe } from 'vitest';

describe.skipIf(OPTED_OUT)('Claude Code', () => {
  basics('claude', 'default', { oneSession: 'double row: Claude Code 2.1.332 binds its own messaging socket, so the agent is listed as a Switchboard row and a stock row' });
});
