// The real Claude Code (pinned) with Switchboard set up by `switchboard
// setup claude-code`, offline against a scripted Anthropic Messages server.
import { describe } from 'vitest';
import { OPTED_OUT } from './harness/opt-out.js';
import { basics } from './scenarios/basics.js';
import { bigMessage, idleHandover } from './scenarios/delivery.js';
import { flows, pair } from './scenarios/flows.js';

describe.skipIf(OPTED_OUT)('Claude Code', () => {
  basics('claude', 'default');
  basics('claude', 'bypass');
  basics('claude', 'none'); // plain `claude -p`: no permission flag, as most people start it
  flows('claude', 'default');
  flows('claude', 'none');
  bigMessage('claude', 'default');
  bigMessage('claude', 'none');
  idleHandover();
  pair('claude', 'claude');
});
