// Writes one key of the user's settings file (the hub's `settings.json`)
// for user interfaces: the value is validated by that key's schema, the
// rest of the file is kept, and the file is replaced atomically (0600).
// A file that does not parse as a JSON object, or cannot be read (not a
// regular file, over the size limit), is never overwritten; reads never block.

import { replaceFileSync } from '../storage/atomic-write.js';
import fs from 'node:fs';
import path from 'node:path';
import { CodedError } from '../protocol/coded-error.js';
import { readBoundedSync } from '../storage/bounded-read.js';
import { SETTING_SCHEMAS, type SettingKey } from './schema.js';
import { MAX_SETTINGS_BYTES } from './store.js';

export class UserSettingsError extends CodedError<'setting_refused'> {
  override readonly name = 'UserSettingsError';
  constructor(message: string) {
    super('setting_refused', message);
  }
}

/** Keys a user interface may set in the user scope. */
export const USER_EDITABLE: readonly SettingKey[] = [
  'crossSessionInbound',
  'dialogExpiry',
  'isolatePeerMachines',
  'throttle',
  'idleSubscriptionMinutes',
  'publishToClaudeCode',
  'relay',
  'historyRetentionDays',
  'historyMaxMegabytes',
];

/** Relay fields a user interface never sees (they are redacted) and so keeps when it edits the rest. */
const RELAY_SECRETS = ['token', 'password', 'credsFile', 'tls', 'user'] as const;

export function setUserSetting(file: string, key: SettingKey, value: unknown): void {
  if (!USER_EDITABLE.includes(key)) throw new UserSettingsError(`${key} cannot be set from a user interface`);
  if (key === 'relay' && value !== null && typeof value === 'object' && !Array.isArray(value))
    value = keepRelaySecrets(file, value as Record<string, unknown>);
  if (value !== null) {
    const parsed = SETTING_SCHEMAS[key].safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = [key, ...(issue?.path ?? []).map(String)].join('.');
      throw new UserSettingsError(`invalid value for ${where}: ${issue?.message ?? 'invalid'}`);
    }
  }
  let current: Record<string, unknown> = {};
  const r = readBoundedSync(file, MAX_SETTINGS_BYTES);
  if (r.state === 'unreadable')
    throw new UserSettingsError(`${file} cannot be read (${r.problem}); fix it by hand first`);
  if (r.state === 'text') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(r.text);
    } catch {
      throw new UserSettingsError(`${file} does not parse; fix it by hand first`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new UserSettingsError(`${file} is not a JSON object; fix it by hand first`);
    current = parsed as Record<string, unknown>;
  }
  const next = { ...current };
  if (value === null) delete next[key];
  else next[key] = value;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  replaceFileSync(file, JSON.stringify(next, null, 2) + '\n', 0o600);
}

/** A UI edits servers, machine and presence; credentials already in the file stay (the UI never had them). */
function keepRelaySecrets(file: string, edited: Record<string, unknown>): Record<string, unknown> {
  for (const k of RELAY_SECRETS)
    if (k in edited) throw new UserSettingsError(`relay.${k} is set in the settings file, not from a user interface`);
  let current: unknown;
  const r = readBoundedSync(file, MAX_SETTINGS_BYTES);
  try {
    current = r.state === 'text' ? (JSON.parse(r.text) as Record<string, unknown> | null)?.relay : undefined;
  } catch {
    current = undefined;
  }
  const kept =
    current !== null && typeof current === 'object'
      ? Object.fromEntries(
          RELAY_SECRETS.filter((k) => k in current).map((k) => [k, (current as Record<string, unknown>)[k]]),
        )
      : {};
  return { ...kept, ...edited };
}
