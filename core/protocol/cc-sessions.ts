// Claude Code's session registry entry (docs/claude-code-formats.md#5-cross-session-messaging): the JSON in
// `<claude home>/sessions/<pid>.json`, as we accept it (bounded strings,
// unknown keys kept). Reading the files is core/stock/entry.ts. A session
// Claude Desktop runs says so in `entrypoint` and names its Desktop session
// (`hostSessionId`, `local_…`); a malformed one of those reads as absent.

import { z } from 'zod';
import { DESKTOP_ENTRYPOINTS, DESKTOP_SESSION_ID } from './desktop-wire.js';

export const StockEntry = z.looseObject({
  pid: z
    .number()
    .int()
    .positive()
    .max(2 ** 31),
  sessionId: z.string().min(1).max(128),
  cwd: z.string().max(4096).default(''),
  startedAt: z.number().optional(),
  procStart: z.string().max(128).optional(),
  version: z.string().max(64).optional(),
  peerProtocol: z.number().optional(),
  kind: z.string().max(32).optional(),
  entrypoint: z.string().max(64).optional(),
  hostSessionId: z.string().regex(DESKTOP_SESSION_ID).optional().catch(undefined),
  messagingSocketPath: z.string().min(1).max(1024),
  name: z.string().max(256).optional(),
  status: z.string().max(32).optional(),
  statusUpdatedAt: z.number().optional(),
  peerFeatures: z.array(z.string().max(64)).max(64).optional(),
});
export type StockEntry = z.infer<typeof StockEntry>;

/** `{ host: 'Claude Desktop' }` for a session Claude Desktop runs (as Claude Code names its host), else `{}`. */
export function desktopHost(e: Pick<StockEntry, 'entrypoint'>): { host?: 'Claude Desktop' } {
  return e.entrypoint !== undefined && DESKTOP_ENTRYPOINTS.includes(e.entrypoint) ? { host: 'Claude Desktop' } : {};
}
