// Opting out is explicit (SWITCHBOARD_SKIP_AGENTS=1, for machines without
// unshare or the npm registry); otherwise a missing tool fails the run.
import { requireTools } from './launch.js';

export const OPTED_OUT = process.env.SWITCHBOARD_SKIP_AGENTS === '1';
if (OPTED_OUT) console.warn('real-agent tests skipped: SWITCHBOARD_SKIP_AGENTS=1');
else requireTools();
