// The desktop-only preferences kept in electron-store (the user-data
// directory): launch at login. Policy settings are not here: they live in
// the hub's settings.json, shared with `switchboard serve` and the CLI, so
// both front ends decide the same way (docs/decisions.md). The stored value
// is read back as unknown and parsed key by key; a bad key falls back to
// its default and is reported, the others survive.

import { z } from 'zod';

export const DESKTOP_PREF_SCHEMAS = {
  launchAtLogin: z.boolean(),
} as const;

export type DesktopPrefs = {
  -readonly [K in keyof typeof DESKTOP_PREF_SCHEMAS]: z.infer<(typeof DESKTOP_PREF_SCHEMAS)[K]>;
};
export const DESKTOP_DEFAULTS: DesktopPrefs = { launchAtLogin: false };

/** The parts of electron-store used here. */
export interface KeyValueStore {
  readonly store: unknown;
  set(key: string, value: unknown): void;
}

export function readDesktopPrefs(raw: unknown): { prefs: DesktopPrefs; problems: string[] } {
  const prefs: DesktopPrefs = { ...DESKTOP_DEFAULTS };
  const problems: string[] = [];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    if (raw !== undefined) problems.push('the preferences file is not a JSON object; using defaults');
    return { prefs, problems };
  }
  for (const key of Object.keys(DESKTOP_PREF_SCHEMAS) as Array<keyof DesktopPrefs>) {
    if (!(key in raw)) continue;
    const parsed = DESKTOP_PREF_SCHEMAS[key].safeParse((raw as Record<string, unknown>)[key]);
    if (parsed.success) prefs[key] = parsed.data;
    else
      problems.push(`${key}: ${parsed.error.issues[0]?.message ?? 'invalid'}; using ${String(DESKTOP_DEFAULTS[key])}`);
  }
  return { prefs, problems };
}

/** The login-item settings Electron takes for the preferences. */
export function loginItemSettings(prefs: DesktopPrefs): { openAtLogin: boolean; openAsHidden: boolean } {
  return { openAtLogin: prefs.launchAtLogin, openAsHidden: true };
}

export class DesktopPrefsStore {
  readonly #store: KeyValueStore;
  constructor(store: KeyValueStore) {
    this.#store = store;
  }
  read(): { prefs: DesktopPrefs; problems: string[] } {
    return readDesktopPrefs(this.#store.store);
  }
  update(patch: Partial<DesktopPrefs>): DesktopPrefs {
    for (const [k, v] of Object.entries(patch))
      if (v !== undefined) this.#store.set(k, DESKTOP_PREF_SCHEMAS[k as keyof DesktopPrefs].parse(v));
    return this.read().prefs;
  }
}
