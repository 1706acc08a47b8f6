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

export const SETTING_SCHEMAS = {
  crossSessionInbound: z.enum(INBOUND_VALUES),
  dialogExpiry: z.enum(DIALOG_EXPIRY),
  isolatePeerMachines: z.boolean(),
  throttle: ThrottleSettings,
  idleSubscriptionMinutes: z.number().int().min(1).max(24 * 60),
  /** Claude Code's config root for teams and tasks (default $CLAUDE_CONFIG_DIR or ~/.claude). */
  claudeConfigDir: z.string().min(1).max(4096),
  /** How long a team-file write keeps trying for its lock before it fails loudly. */
  teamLockDeadlineSeconds: z.number().int().min(1).max(600),
  /** List Switchboard sessions in Claude Code's own session registry (its ListAgents and /peers). */
  publishToClaudeCode: z.boolean(),
} as const;

export type SettingKey = keyof typeof SETTING_SCHEMAS;
export type Settings = { [K in SettingKey]?: z.infer<(typeof SETTING_SCHEMAS)[K]> };

/** The keys Switchboard reads from Claude Code's settings files. */
export const CLAUDE_KEYS: readonly SettingKey[] = ['crossSessionInbound', 'isolatePeerMachines'];

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
export function parseSettingsValue(value: unknown, file: string, opts: { keys?: readonly SettingKey[]; strict: boolean }): ParsedSettings {
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
export function parseSettingsText(text: string, file: string, opts: { keys?: readonly SettingKey[]; strict: boolean }): ParsedSettings {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const out = emptyParsed();
    out.broken = true;
    out.problems.push({ file, key: null, message: `not valid JSON (${err instanceof SyntaxError ? err.message : 'parse error'})` });
    return out;
  }
  return parseSettingsValue(value, file, opts);
}
