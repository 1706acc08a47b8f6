// The real Claude Code (pinned) with Switchboard set up by `switchboard
// setup claude-code`, offline against a scripted Anthropic Messages server.
import { describe } from 'vitest';
import { OPTED_OUT } from './harness/opt-out.js';
import { basics } from './scenarios/basics.js';
import { flows, pair } from './scenarios/flows.js';

const DOUBLE_ROW = 'double row: Claude Code 2.1.332 binds its own messaging socket, so the agent is listed as a Switchboard row and a stock row';

describe.skipIf(OPTED_OUT)('Claude Code', () => {
  basics('claude', 'default', { oneSession: DOUBLE_ROW });
  basics('claude', 'bypass', { oneSession: DOUBLE_ROW });
  flows('claude', 'default');
  pair('claude', 'claude');
});
