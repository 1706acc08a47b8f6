// Writes one key of the user's settings file (the hub's `settings.json`)
// for user interfaces: the value is validated by that key's schema, the
// rest of the file is kept, and the file is replaced atomically (0600).
// A file that does not parse as a JSON object is never overwritten.

import fs from 'node:fs';
import path from 'node:path';
import { SETTING_SCHEMAS, type SettingKey } from './schema.js';

export class UserSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserSettingsError';
  }
}

/** Keys a user interface may set in the user scope. */
export const USER_EDITABLE: readonly SettingKey[] = ['crossSessionInbound', 'dialogExpiry', 'isolatePeerMachines', 'throttle', 'idleSubscriptionMinutes', 'publishToClaudeCode'];

export function setUserSetting(file: string, key: SettingKey, value: unknown): void {
  if (!USER_EDITABLE.includes(key)) throw new UserSettingsError(`${key} cannot be set from a user interface`);
  if (value !== null) {
    const parsed = SETTING_SCHEMAS[key].safeParse(value);
    if (!parsed.success) throw new UserSettingsError(`invalid value for ${key}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  }
  let current: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UserSettingsError(`${file} is not a JSON object; fix it by hand first`);
    current = parsed as Record<string, unknown>;
  } catch (err) {
    if (err instanceof UserSettingsError) throw err;
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new UserSettingsError(`${file} does not parse; fix it by hand first`);
  }
  const next = { ...current };
  if (value === null) delete next[key];
  else next[key] = value;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.tmp.${process.pid}`;
  fs.writeFileSync(tmp, JSON.stringify(next, null, 2) + '\n', { mode: 0o600 });
  fs.renameSync(tmp, file);
}
