// The public entry of core/ for the composition roots (cli/commands/serve.ts,
// electron/main.ts), the CLI, benchmarks and tests: start a hub with its API,
// and the few types and helpers they need. Nothing outside core/ reaches into
// core/host/ for the Hub.

import { Hub, type HubOptions } from './host/hub.js';
import { createApi } from './host/api/handlers.js';

export { Hub, type HubOptions } from './host/hub.js';
export { systemClock, type Clock } from './kit/clock.js';
export { silentLogger, stderrLogger, type Logger } from './kit/logger.js';

/** Starts a hub serving every method of core/protocol/methods.ts. */
export function startHub(opts: HubOptions = {}): Promise<Hub> {
  return Hub.start(opts, createApi);
}

/** The HTTP + SSE bridge for `serve --ui` and the runner both bridges share. */
export { startWebServer, type WebServer } from './host/ui/web.js';
export { runBridgeOperation } from './host/ui/ui-bridge.js';
