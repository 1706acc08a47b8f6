// Shared CLI plumbing: output in text or --json, argument parsing, the hub
// connection and the acting session's credentials. Arguments are parsed with
// node:util parseArgs in strict mode against each subcommand's own table: a
// flag that does not apply is a usage error (exit 2) naming it, never
// ignored. Secrets never come from argv (secrets.ts).

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { HubClient, HubNotRunningError, RpcError } from '../core/client/client.js';
import { currentEndpointEnv, resolveEndpoint } from '../core/transport/endpoint.js';
import { CliFailure, EXIT, hubErrorText, UsageError } from './errors.js';
import { readSecret, refuseSecretFlags } from './secrets.js';

export { CliFailure, EXIT, UsageError } from './errors.js';

export interface Ctx {
  json: boolean;
  out(text: string): void;
  err(text: string): void;
}

export const GLOBAL_OPTIONS = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

type Options = NonNullable<ParseArgsConfig['options']>;

/** The flags a table accepts, for error messages: `--team, --as, …`. */
function flagList(options: Options): string {
  return Object.keys(options)
    .map((k) => `--${k}`)
    .join(', ');
}

/**
 * Parses `args` against exactly `options` (plus --json and --help). `command`
 * names the subcommand in error messages (e.g. "task claim").
 */
export function parse<T extends Options>(args: string[], options: T, allowPositionals = false, command?: string) {
  refuseSecretFlags(args);
  const all = { ...GLOBAL_OPTIONS, ...options };
  try {
    return parseArgs({ args, options: all, strict: true, allowPositionals });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const what = command === undefined ? 'this command' : command;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const { tokens } = parseArgs({ args, options: all, strict: false, allowPositionals: true, tokens: true });
      const unknown = tokens.find((t) => t.kind === 'option' && !Object.prototype.hasOwnProperty.call(all, t.name));
      if (unknown?.kind === 'option')
        throw new UsageError(`${what} does not take ${unknown.rawName}; it takes ${flagList(all)}`);
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      const { positionals } = parseArgs({ args, options: all, strict: false, allowPositionals: true });
      throw new UsageError(
        `${what} takes no arguments (got ${JSON.stringify(positionals[0] ?? '')}), only ${flagList(all)}`,
      );
    }
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

/** Refuses positionals beyond `max` (parseArgs only knows none or any). */
export function atMost(positionals: string[], max: number, usage: string): void {
  if (positionals.length > max)
    throw new UsageError(`unexpected argument ${JSON.stringify(positionals[max])}; usage: ${usage}`);
}

export function hubSocketPath(): string {
  return resolveEndpoint(currentEndpointEnv()).hubSocket;
}

export async function withHub<T>(fn: (client: HubClient) => Promise<T>): Promise<T> {
  let client: HubClient;
  try {
    client = await HubClient.connect(hubSocketPath(), { timeoutMs: 5000 });
  } catch (err) {
    if (err instanceof HubNotRunningError)
      throw new CliFailure('hub_not_running', `${err.message}. Start it with: switchboard serve`, EXIT.noHub);
    throw err;
  }
  try {
    return await fn(client);
  } catch (err) {
    if (err instanceof RpcError) {
      if (
        typeof err.data.directory === 'string' &&
        (err.reason === 'storage_full' || err.reason === 'storage_readonly')
      )
        throw storageFailure(err.reason, err.data.directory, 'nothing was stored', 'send again');
      throw new CliFailure(err.reason, hubErrorText(err.reason, err.message, err.data));
    }
    throw err;
  } finally {
    client.close();
  }
}

/** A full or read-only disk under the state directory, in words, with the path: what it meant, and what to do. */
export function storageFailure(
  reason: 'storage_full' | 'storage_readonly',
  directory: string,
  outcome: string,
  retry: string,
): CliFailure {
  return new CliFailure(
    reason,
    reason === 'storage_full'
      ? `The disk holding the state directory ${directory} is full: ${outcome}. Free some space and ${retry}.`
      : `The state directory ${directory} is read-only: ${outcome}.`,
  );
}

export interface Credentials {
  sessionId: string;
  token: string;
}

type SessionValues = { session?: string | undefined; 'token-file'?: string | undefined };

/** The acting session: --session or SWITCHBOARD_SESSION, and --token-file or SWITCHBOARD_TOKEN. */
export async function optionalCredentials(values: SessionValues): Promise<Credentials | undefined> {
  const sessionId = values.session ?? process.env.SWITCHBOARD_SESSION;
  const token =
    values['token-file'] !== undefined
      ? await readSecret('--token-file', values['token-file'])
      : process.env.SWITCHBOARD_TOKEN;
  if (values.session !== undefined && !token)
    throw new UsageError('--session needs its token: set SWITCHBOARD_TOKEN or pass --token-file PATH (or - for stdin)');
  return sessionId && token ? { sessionId, token } : undefined;
}

/** The acting session; a usage error when none is given. */
export async function credentials(values: SessionValues): Promise<Credentials> {
  const creds = await optionalCredentials(values);
  if (creds === undefined)
    throw new UsageError(
      'No session: set SWITCHBOARD_SESSION and SWITCHBOARD_TOKEN (from `switchboard session start --shell`), or pass --session ID with --token-file PATH',
    );
  return creds;
}

/** Session flags: the id is no secret; the token only ever comes from a file, stdin or the environment. */
export const SESSION_OPTIONS = { session: { type: 'string' }, 'token-file': { type: 'string' } } as const;

export function intArg(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a whole number`);
  const n = Number(raw);
  if (n < min || n > max) throw new UsageError(`--${name} must be between ${min} and ${max}`);
  return n;
}

export function oneOf<T extends string>(name: string, raw: string | undefined, allowed: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(raw))
    throw new UsageError(`${name} must be one of: ${allowed.join(', ')}`);
  return raw as T;
}

/** Prints aligned columns for people. */
export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ')).join('\n');
}
