// What each setting means to a person: a plain label, its unit and one line
// of help; the raw settings key is only shown in a tooltip. Millisecond
// settings are shown and edited in seconds (`scale` converts back on save).
// Number fields carry the hub's bounds (core/settings/schema.ts; a test keeps
// them equal) so a value out of range is named next to its field before
// anything is sent. Pure data and checks: the Preferences view renders them.

export interface PrefField {
  /** The key in settings.json (a throttle field is `throttle.<name>`). */
  key: string;
  label: string;
  help: string;
  unit?: string;
  /** The stored value is the shown value times this (1000 for ms shown in seconds). */
  scale?: number;
  /** Number fields: the stored value's bounds and whether it must be whole (the hub's schema). */
  bounds?: { min: number; max: number; integer: boolean };
}

export const PREF_FIELDS = {
  crossSessionInbound: {
    key: 'crossSessionInbound',
    label: 'Messages from other sessions',
    help: 'What happens when one of your sessions sends another a message. Mode parity holds a message that crosses permission classes: from a prompting session to one that bypasses permission prompts, or the reverse.',
  },
  dialogExpiry: {
    key: 'dialogExpiry',
    label: 'Held messages expire after',
    help: 'A held message you do not answer in time expires, and its sender is told.',
  },
  isolatePeerMachines: {
    key: 'isolatePeerMachines',
    label: 'Confirm every send to another machine',
    help: 'A message to a session on another machine waits for your Allow in Approvals.',
  },
  crossSessionScope: {
    key: 'crossSessionScope',
    label: 'Sessions see only their own project',
    help: 'Sessions list and message only sessions of the same project (git work tree, else folder); a send to another project is refused, saying so. A repository can turn this on for itself in .claude/settings.json, never off.',
  },
  publishToClaudeCode: {
    key: 'publishToClaudeCode',
    label: 'List my sessions in Claude Code',
    help: "Claude Code's own /peers and SendMessage then see your Switchboard sessions; their messages arrive unverified and pass your inbound policy.",
  },
  idleSubscriptionMinutes: {
    key: 'idleSubscriptionMinutes',
    label: '“Tell me when idle” requests last',
    unit: 'minutes',
    bounds: { min: 1, max: 1440, integer: true },
    help: 'A request to be told when a session goes idle is dropped after this long if the session never does.',
  },
  historyRetentionDays: {
    key: 'historyRetentionDays',
    label: 'Keep message history for',
    unit: 'days',
    bounds: { min: 1, max: 3650, integer: true },
    help: 'Messages, receipts and decisions older than this are removed from the history (History view, switchboard history).',
  },
  historyMaxMegabytes: {
    key: 'historyMaxMegabytes',
    label: 'Largest history size',
    unit: 'MB',
    bounds: { min: 1, max: 100_000, integer: true },
    help: 'Above this the oldest messages are removed first, whatever their age.',
  },
} as const satisfies Record<string, PrefField>;

export const THROTTLE_FIELDS = [
  {
    key: 'throttle.bucketSize',
    label: 'Messages allowed in a burst',
    unit: 'messages',
    bounds: { min: 1, max: 10_000, integer: true },
    help: 'From one session to another: this many may arrive back to back before the rate limit applies.',
  },
  {
    key: 'throttle.refillPerSecond',
    label: 'Sustained message rate',
    unit: 'messages per second',
    bounds: { min: 0.001, max: 10_000, integer: false },
    help: 'After a burst, one session may send another this many per second; more are dropped as rate-limited.',
  },
  {
    key: 'throttle.duplicateWindowMs',
    label: 'Ignore an identical repeat for',
    unit: 'seconds',
    scale: 1000,
    bounds: { min: 0, max: 3_600_000, integer: true },
    help: 'The same text from the same sender within this time is dropped as a duplicate (it stops loops).',
  },
  {
    key: 'throttle.queueFullAt',
    label: 'Inbox counts as full at',
    unit: 'unread messages',
    bounds: { min: 1, max: 100_000, integer: true },
    help: 'A session with this many unread messages from other sessions receives no more until it reads some.',
  },
  {
    key: 'throttle.foldWindowMs',
    label: 'Report dropped messages at most every',
    unit: 'seconds',
    scale: 1000,
    bounds: { min: 0, max: 3_600_000, integer: true },
    help: 'A sender hears about its dropped messages once per this time, with a count, not once per message.',
  },
] as const satisfies readonly PrefField[];

/** The throttle field's own name (`throttle.bucketSize` → `bucketSize`). */
export function throttleName(f: PrefField): string {
  return f.key.slice('throttle.'.length);
}

/** Where the value in force comes from, in words. */
export function sourceText(source: string): string {
  if (source === 'parity') return 'not set: mode parity decides';
  if (source === 'default') return 'default';
  if (source === 'managed') return 'managed (locked)';
  return `from ${source} settings`;
}

/**
 * Reads what was typed into a number field, in the field's shown unit: the
 * value to store, or what is wrong with it in words, with the allowed range.
 */
export function checkNumber(field: PrefField, text: string): { value: number } | { error: string } {
  const scale = field.scale ?? 1;
  const b = field.bounds ?? { min: 0, max: Number.MAX_SAFE_INTEGER, integer: false };
  const unit = field.unit ?? '';
  const range = `${b.min / scale} to ${b.max / scale}${unit === '' ? '' : ` ${unit}`}`;
  const wholeShown = b.integer && scale === 1;
  const expected = `Enter ${wholeShown ? 'a whole number' : 'a number'} from ${range}`;
  const trimmed = text.trim();
  const n = Number(trimmed);
  if (trimmed === '' || !Number.isFinite(n)) return { error: `${expected}.` };
  const stored = b.integer ? Math.round(n * scale) : n * scale;
  if (wholeShown && !Number.isInteger(n)) return { error: `${expected}; ${trimmed} is not whole.` };
  if (stored < b.min || stored > b.max) return { error: `${expected}; ${trimmed} is out of range.` };
  return { value: stored };
}
