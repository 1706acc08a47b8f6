// The small bounded schemas every method's params are built from: ids,
// tokens, paths, names, and the credential groups (a session's pair, the
// UI token). Shared by methods.ts, team-params.ts and history-params.ts.

import { z } from 'zod';

export const Id = z.string().min(1).max(64);
export const Token = z.string().min(1).max(128);
export const Path = z.string().min(1).max(4096);
export const Name = z.string().min(1).max(256);
/** A session's credentials. */
export const Auth = { sessionId: Id, token: Token };
/** The hub's UI token (decisions, settings, history of every session). */
export const UiToken = { uiToken: z.string().min(1).max(128) };
