// Shared CLI plumbing: exit codes, usage errors, output in text or --json,
// the hub connection and the acting session's credentials. Arguments are
// parsed with node:util parseArgs in strict mode: unknown flags are usage
// errors (exit 2), never ignored.

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { HubClient, HubNotRunningError, RpcError } from '../core/client/client.js';
import { currentEndpointEnv, resolveEndpoint } from '../core/host/endpoint.js';

export const EXIT = { ok: 0, failure: 1, usage: 2, noHub: 3 } as const;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A failure with a message for the person and a stable reason for --json. */
export class CliFailure extends Error {
  readonly reason: string;
  readonly code: number;
  constructor(reason: string, message: string, code: number = EXIT.failure) {
    super(message);
    this.name = 'CliFailure';
    this.reason = reason;
    this.code = code;
  }
}

export interface Ctx {
  json: boolean;
  out(text: string): void;
  err(text: string): void;
}

export const GLOBAL_OPTIONS = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args, options: { ...GLOBAL_OPTIONS, ...options }, strict: true, allowPositionals });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

export function hubSocketPath(): string {
  return resolveEndpoint(currentEndpointEnv()).hubSocket;
}

export async function withHub<T>(fn: (client: HubClient) => Promise<T>): Promise<T> {
  let client: HubClient;
  try {
    client = await HubClient.connect(hubSocketPath(), { timeoutMs: 5000 });
  } catch (err) {
    if (err instanceof HubNotRunningError) throw new CliFailure('hub_not_running', `${err.message}. Start it with: switchboard serve`, EXIT.noHub);
    throw err;
  }
  try {
    return await fn(client);
  } catch (err) {
    if (err instanceof RpcError) {
      const extra = Array.isArray(err.data.candidates) && err.data.candidates.length > 0 ? ` Candidates: ${err.data.candidates.join(', ')}` : '';
      const issues = Array.isArray(err.data.issues) ? ` (${err.data.issues.join('; ')})` : '';
      throw new CliFailure(err.reason, `${err.message}${issues}${extra}`);
    }
    throw err;
  } finally {
    client.close();
  }
}

export interface Credentials {
  sessionId: string;
  token: string;
}

/** The acting session: --session/--token, else SWITCHBOARD_SESSION/SWITCHBOARD_TOKEN. */
export function credentials(values: { session?: string | undefined; token?: string | undefined }): Credentials {
  const sessionId = values.session ?? process.env.SWITCHBOARD_SESSION;
  const token = values.token ?? process.env.SWITCHBOARD_TOKEN;
  if (!sessionId || !token) throw new UsageError('No session: set SWITCHBOARD_SESSION and SWITCHBOARD_TOKEN (from `switchboard session start`) or pass --session and --token');
  return { sessionId, token };
}

/** The acting session when one is given, else undefined (commands that may also act as the user). */
export function optionalCredentials(values: { session?: string | undefined; token?: string | undefined }): Credentials | undefined {
  const sessionId = values.session ?? process.env.SWITCHBOARD_SESSION;
  const token = values.token ?? process.env.SWITCHBOARD_TOKEN;
  return sessionId && token ? { sessionId, token } : undefined;
}

export const SESSION_OPTIONS = { session: { type: 'string' }, token: { type: 'string' } } as const;

export function intArg(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a whole number`);
  const n = Number(raw);
  if (n < min || n > max) throw new UsageError(`--${name} must be between ${min} and ${max}`);
  return n;
}

export function oneOf<T extends string>(name: string, raw: string | undefined, allowed: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(raw)) throw new UsageError(`${name} must be one of: ${allowed.join(', ')}`);
  return raw as T;
}

/** Prints aligned columns for people. */
export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ')).join('\n');
}
