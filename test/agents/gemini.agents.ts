// The real Gemini CLI (pinned) with Switchboard set up by `switchboard setup
// gemini`, offline against a scripted Gemini API server
// (GOOGLE_GEMINI_BASE_URL, GEMINI_API_KEY, auth type gemini-api-key).
import { describe } from 'vitest';
import { OPTED_OUT } from './harness/opt-out.js';
import { basics } from './scenarios/basics.js';
import { flows, pair } from './scenarios/flows.js';

const MODE_GUESSED = 'mode guessing: a Gemini session in --approval-mode yolo is recorded as default (its hooks report no permission mode; unknown must fail closed)';

describe.skipIf(OPTED_OUT)('Gemini CLI', () => {
  basics('gemini', 'default');
  basics('gemini', 'bypass', { mode: MODE_GUESSED, sendStatus: `${MODE_GUESSED}, so its send to a bypass session is held`, fromMode: MODE_GUESSED });
  flows('gemini', 'default');
  pair('gemini', 'claude');
  pair('claude', 'gemini');
});
