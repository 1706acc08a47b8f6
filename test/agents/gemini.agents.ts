// The real Gemini CLI (pinned) with Switchboard set up by `switchboard setup
// gemini`, offline against a scripted Gemini API server
// (GOOGLE_GEMINI_BASE_URL, GEMINI_API_KEY, auth type gemini-api-key).
import { describe } from 'vitest';
import { OPTED_OUT } from './harness/opt-out.js';
import { basics } from './scenarios/basics.js';

describe.skipIf(OPTED_OUT)('Gemini CLI', () => {
  basics('gemini', 'default');
});
