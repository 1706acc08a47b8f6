// The real Gemini CLI (pinned) with Switchboard set up by `switchboard setup
// gemini`, offline against a scripted Gemini API server
// (GOOGLE_GEMINI_BASE_URL, GEMINI_API_KEY, auth type gemini-api-key).
// Without --yolo its session is "mode unknown" (its hooks report no mode):
// it receives as bypass, so the default-mode flows' peer is bypass, and the
// pairs run with both agents in bypass.
import { describe } from 'vitest';
import { OPTED_OUT } from './harness/opt-out.js';
import { basics } from './scenarios/basics.js';
import { flows, pair } from './scenarios/flows.js';
import { untrustedGeminiFolder } from './scenarios/trust.js';

describe.skipIf(OPTED_OUT)('Gemini CLI', () => {
  basics('gemini', 'default');
  basics('gemini', 'bypass');
  basics('gemini', 'none'); // no --approval-mode
  flows('gemini', 'default');
  untrustedGeminiFolder();
  pair('gemini', 'claude', 'bypass');
  pair('claude', 'gemini', 'bypass');
});
