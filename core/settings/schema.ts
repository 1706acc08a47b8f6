// The settings Switchboard reads, one zod schema per key, and a tolerant
// file parser: each key is validated on its own so one bad key never hides
// the others, and every problem is reported with the file and the key.
// Files we own (.switchboard/…, the user and managed files) reject unknown
// keys with a warning; Claude Code's own settings files are read for our
// keys only.

import { z } from 'zod';

export const INBOUND_VALUES = ['accept', 'hold', 'refuse'] as const;
export type Inbound = (typeof INBOUND_VALUES)[number];
export const DIALOG_EXPIRY = ['60s', '5m', '10m', 'never'] as const;
export type DialogExpiry = (typeof DIALOG_EXPIRY)[number];

export const ThrottleSettings = z.strictObject({
  duplicateWindowMs: z.number().int().min(0).max(3_600_000).optional(),
  bucketSize: z.number().int().min(1).max(10_000).optional(),
  refillPerSecond: z.number().min(0.001).max(10_000).optional(),
  queueFullAt: z.number().int().min(1).max(100_000).optional(),
  foldWindowMs: z.number().int().min(0).max(3_600_000).optional(),
});
export type ThrottleSettings = z.infer<typeof ThrottleSettings>;

/** The relay between machines (docs/design.md#13-other-machines). Absent: the hub opens no network connection. */
export const RelaySettings = z.strictObject({
  servers: z
    .array(z.string().regex(/^(nats|tls|wss?):\/\/[^\s]{1,250}$/, 'a nats://, tls:// or ws(s):// URL'))
    .min(1)
    .max(10),
  /** This machine's display name (default: the host name). */
  machine: z
    .string()
    .regex(/^[^/\s][^/]{0,63}$/, '1-64 characters, no "/"')
    .optional(),
  token: z.string().min(1).max(1024).optional(),
  user: z.string().min(1).max(256).optional(),
  password: z.string().min(1).max(1024).optional(),
  credsFile: z.string().min(1).max(4096).optional(),
  tls: z
    .strictObject({
      caFile: z.string().max(4096).optional(),
      certFile: z.string().max(4096).optional(),
      keyFile: z.string().max(4096).optional(),
    })
    .optional(),
  /** How long a machine's sessions stay listed without news from its hub. */
  presenceSeconds: z.number().int().min(2).max(300).optional(),
});
export type RelaySettings = z.infer<typeof RelaySettings>;

export const SETTING_SCHEMAS = {
  crossSessionInbound: z.enum(INBOUND_VALUES),
  dialogExpiry: z.enum(DIALOG_EXPIRY),
  isolatePeerMachines: z.boolean(),
  /** `project`: sessions see and message only sessions of the same project (git work tree, else folder). */
  crossSessionScope: z.enum(['machine', 'project']),
  throttle: ThrottleSettings,
  idleSubscriptionMinutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60),
  /** Claude Code's config root for teams and tasks (default $CLAUDE_CONFIG_DIR or ~/.claude). */
  claudeConfigDir: z.string().min(1).max(4096),
  /** How long a team-file write keeps trying for its lock before it fails loudly. */
  teamLockDeadlineSeconds: z.number().int().min(1).max(600),
  /** List Switchboard sessions in Claude Code's own session registry (its ListAgents and /peers). */
  publishToClaudeCode: z.boolean(),
  relay: RelaySettings,
  /** History keeps messages, receipts and decisions this many days (managed and user scopes only). */
  historyRetentionDays: z.number().int().min(1).max(3650),
  /** The history database's size cap; the oldest messages go first. */
  historyMaxMegabytes: z.number().int().min(1).max(100_000),
} as const;

export type SettingKey = keyof typeof SETTING_SCHEMAS;
export type Settings = { [K in SettingKey]?: z.infer<(typeof SETTING_SCHEMAS)[K]> };

/** The keys Switchboard reads from Claude Code's settings files. */
export const CLAUDE_KEYS: readonly SettingKey[] = ['crossSessionInbound', 'isolatePeerMachines', 'crossSessionScope'];

export interface SettingsProblem {
  file: string;
  key: string | null;
  message: string;
}

export interface ParsedSettings {
  values: Settings;
  /** Keys whose value was present but unusable: they fail closed. */
  unreadable: Set<SettingKey>;
  /** The whole file could not be read as a JSON object. */
  broken: boolean;
  problems: SettingsProblem[];
}

export function emptyParsed(): ParsedSettings {
  return { values: {}, unreadable: new Set(), broken: false, problems: [] };
}

function isKey(k: string): k is SettingKey {
  return Object.prototype.hasOwnProperty.call(SETTING_SCHEMAS, k);
}

/**
 * Validates an already-parsed value (a file's JSON or per-session flag
 * settings). `keys` limits what is read (Claude Code's files); `strict`
 * reports unknown keys.
 */
export function parseSettingsValue(
  value: unknown,
  file: string,
  opts: { keys?: readonly SettingKey[]; strict: boolean },
): ParsedSettings {
  const out = emptyParsed();
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    out.broken = true;
    out.problems.push({ file, key: null, message: 'expected a JSON object' });
    return out;
  }
  for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
    if (!isKey(key) || (opts.keys !== undefined && !opts.keys.includes(key))) {
      if (opts.strict) out.problems.push({ file, key, message: 'unknown setting (ignored)' });
      continue;
    }
    const parsed = SETTING_SCHEMAS[key].safeParse(raw);
    if (parsed.success) {
      (out.values as Record<string, unknown>)[key] = parsed.data;
    } else {
      out.unreadable.add(key);
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? `.${issue.path.map(String).join('.')}` : '';
      out.problems.push({ file, key: key + where, message: issue?.message ?? 'invalid value' });
    }
  }
  return out;
}

/** Parses a settings file's text; a syntax error makes the whole file unreadable. */
export function parseSettingsText(
  text: string,
  file: string,
  opts: { keys?: readonly SettingKey[]; strict: boolean },
): ParsedSettings {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const out = emptyParsed();
    out.broken = true;
    out.problems.push({
      file,
      key: null,
      message: `not valid JSON (${err instanceof SyntaxError ? err.message : 'parse error'})`,
    });
    return out;
  }
  return parseSettingsValue(value, file, opts);
}
