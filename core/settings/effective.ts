// Precedence (docs/design.md#7-inbound-policy), pure: the effective value of every setting and
// the scope it came from. crossSessionInbound: the first explicit value of
// managed, flag, user wins; project and local can only tighten; an
// unreadable value counts as `hold`. isolatePeerMachines: true anywhere
// wins. dialogExpiry, throttle, idle lifetime and history retention: managed, then user only
// (a repository never sets them).

import type { DialogExpiry, Inbound, ParsedSettings, RelaySettings, SettingKey, ThrottleSettings } from './schema.js';

export const SCOPES = ['managed', 'flag', 'user', 'project', 'local'] as const;
export type Scope = (typeof SCOPES)[number];
export type Layers = Record<Scope, readonly ParsedSettings[]>;

export const THROTTLE_DEFAULTS: Required<ThrottleSettings> = {
  duplicateWindowMs: 30_000, // docs/design.md#10-throttling
  bucketSize: 30,
  refillPerSecond: 0.5,
  queueFullAt: 50,
  foldWindowMs: 60_000,
};
export const DIALOG_EXPIRY_DEFAULT: DialogExpiry = '5m';
export const IDLE_MINUTES_DEFAULT = 60;
export const HISTORY_DAYS_DEFAULT = 30; // a month of history to search back through
export const HISTORY_MEGABYTES_DEFAULT = 512; // room for about a million short messages with their index
export const TEAM_LOCK_DEADLINE_DEFAULT = 30; // seconds; Claude Code gives up after ~1 s

const STRICTNESS: Record<Inbound, number> = { accept: 0, hold: 1, refuse: 2 };

export function stricter(a: Inbound, b: Inbound): Inbound {
  return STRICTNESS[a] >= STRICTNESS[b] ? a : b;
}

export interface Sourced<T> {
  value: T;
  source: Scope | 'default';
}

export interface EffectiveSettings {
  /** `value: null` means no explicit value: mode parity decides per message, then `floor` tightens. */
  inbound: { value: Inbound | null; source: Scope | 'parity'; floor: { value: Inbound; source: Scope } | null };
  dialogExpiry: Sourced<DialogExpiry>;
  isolatePeerMachines: Sourced<boolean>;
  /** `project` anywhere wins (a repository can turn it on for itself, never off). */
  crossSessionScope: Sourced<'machine' | 'project'>;
  throttle: Sourced<Required<ThrottleSettings>>;
  idleSubscriptionMinutes: Sourced<number>;
  claudeConfigDir: Sourced<string | null>;
  teamLockDeadlineSeconds: Sourced<number>;
  publishToClaudeCode: Sourced<boolean>;
  relay: Sourced<RelaySettings | null>;
  historyRetentionDays: Sourced<number>;
  historyMaxMegabytes: Sourced<number>;
}

/** A scope's value for one key; unreadable counts as `failClosed`. */
function valueIn<K extends SettingKey>(
  files: readonly ParsedSettings[],
  key: K,
  combine: (
    a: NonNullable<ParsedSettings['values'][K]>,
    b: NonNullable<ParsedSettings['values'][K]>,
  ) => NonNullable<ParsedSettings['values'][K]>,
  failClosed?: NonNullable<ParsedSettings['values'][K]>,
): ParsedSettings['values'][K] | undefined {
  let out: NonNullable<ParsedSettings['values'][K]> | undefined;
  for (const f of files) {
    let v = f.values[key] as NonNullable<ParsedSettings['values'][K]> | undefined;
    if ((f.broken || f.unreadable.has(key)) && failClosed !== undefined) v = failClosed;
    if (v === undefined) continue;
    out = out === undefined ? v : combine(out, v);
  }
  return out;
}

const first = <T>(a: T): T => a;

export function resolveSettings(layers: Layers): EffectiveSettings {
  const inboundOf = (scope: Scope): Inbound | undefined =>
    valueIn(layers[scope], 'crossSessionInbound', stricter, 'hold');
  let base: { value: Inbound; source: Scope } | undefined;
  for (const scope of ['managed', 'flag', 'user'] as const) {
    const v = inboundOf(scope);
    if (v !== undefined) {
      base = { value: v, source: scope };
      break;
    }
  }
  let floor: { value: Inbound; source: Scope } | null = null;
  for (const scope of ['project', 'local'] as const) {
    const v = inboundOf(scope);
    if (v !== undefined && v !== 'accept' && (floor === null || STRICTNESS[v] > STRICTNESS[floor.value]))
      floor = { value: v, source: scope };
  }
  let inbound: EffectiveSettings['inbound'];
  if (base === undefined) inbound = { value: null, source: 'parity', floor };
  else if (floor !== null && STRICTNESS[floor.value] > STRICTNESS[base.value])
    inbound = { value: floor.value, source: floor.source, floor };
  else inbound = { value: base.value, source: base.source, floor };

  let isolate: Sourced<boolean> = { value: false, source: 'default' };
  for (const scope of SCOPES) {
    if (valueIn(layers[scope], 'isolatePeerMachines', (a, b) => a || b, true) === true) {
      isolate = { value: true, source: scope };
      break;
    }
  }

  let scope: Sourced<'machine' | 'project'> = { value: 'machine', source: 'default' };
  for (const s of SCOPES) {
    const v = valueIn(
      layers[s],
      'crossSessionScope',
      (a, b) => (a === 'project' || b === 'project' ? 'project' : a),
      'project',
    );
    if (v === 'project') {
      scope = { value: 'project', source: s };
      break;
    }
  }

  const fromAdmin = <K extends SettingKey>(
    key: K,
  ): { value: NonNullable<ParsedSettings['values'][K]>; source: Scope } | undefined => {
    for (const scope of ['managed', 'user'] as const) {
      const v = valueIn(layers[scope], key, first);
      if (v !== undefined) return { value: v, source: scope };
    }
    return undefined;
  };
  const expiry = fromAdmin('dialogExpiry');
  const throttle = fromAdmin('throttle');
  const idle = fromAdmin('idleSubscriptionMinutes');
  const claudeDir = fromAdmin('claudeConfigDir');
  const lockDeadline = fromAdmin('teamLockDeadlineSeconds');
  const publish = fromAdmin('publishToClaudeCode');
  const relay = fromAdmin('relay');
  const historyDays = fromAdmin('historyRetentionDays');
  const historyMb = fromAdmin('historyMaxMegabytes');
  return {
    inbound,
    dialogExpiry: expiry ?? { value: DIALOG_EXPIRY_DEFAULT, source: 'default' },
    isolatePeerMachines: isolate,
    crossSessionScope: scope,
    throttle: throttle
      ? { value: { ...THROTTLE_DEFAULTS, ...throttle.value }, source: throttle.source }
      : { value: THROTTLE_DEFAULTS, source: 'default' },
    idleSubscriptionMinutes: idle ?? { value: IDLE_MINUTES_DEFAULT, source: 'default' },
    claudeConfigDir: claudeDir ?? { value: null, source: 'default' },
    teamLockDeadlineSeconds: lockDeadline ?? { value: TEAM_LOCK_DEADLINE_DEFAULT, source: 'default' },
    publishToClaudeCode: publish ?? { value: false, source: 'default' },
    relay: relay ?? { value: null, source: 'default' },
    historyRetentionDays: historyDays ?? { value: HISTORY_DAYS_DEFAULT, source: 'default' },
    historyMaxMegabytes: historyMb ?? { value: HISTORY_MEGABYTES_DEFAULT, source: 'default' },
  };
}

export function dialogExpiryMs(e: DialogExpiry): number | null {
  switch (e) {
    case '60s':
      return 60_000;
    case '5m':
      return 300_000;
    case '10m':
      return 600_000;
    case 'never':
      return null;
    default: {
      const never: never = e;
      return never;
    }
  }
}
