// A session's permission mode and class, and what its inbound policy means
// for it, in words for the Sessions view. Pure. An unknown mode fails closed
// (docs/design.md#7-inbound-policy): treated as bypass for what the session receives, so it is
// shown as "mode unknown" and as holding messages from prompting sessions.
import type { AgentRow } from '../../core/protocol/methods.js';
import { MODE_SOURCE_WORDS } from '../../core/protocol/vocabulary.js';

export type ModeTone = 'bypass' | 'prompting' | 'unknown' | 'none';

export interface ModeView {
  /** The mode in words ("bypass permissions", "mode unknown", …). */
  text: string;
  tone: ModeTone;
  /** The class under mode parity, in words, when known. */
  classText: string | null;
  title: string;
  /** Where the hub learned it, in words ("from its hooks"), or null where that does not apply. */
  source: string | null;
}

const SOURCE_TITLE: Record<NonNullable<AgentRow['modeSource']>, string> = {
  'command-line': 'Its command line fixes the mode.',
  hook: 'Its agent reported the mode in its own hook input (at each prompt), so it follows Shift+Tab.',
  declared: 'The program that registered the session declared it.',
  unverified:
    'The last report came where the model itself could have sent it; such a report can only make the mode unknown, never loosen anything.',
};

function sourceOf(row: AgentRow): { text: string | null; title: string } {
  if (row.modeSource === undefined) return { text: null, title: '' };
  if (row.modeSource === null)
    return {
      text: 'not told yet',
      title: ' Nothing has told it yet; a Claude Code session tells it at its first prompt.',
    };
  return { text: MODE_SOURCE_WORDS[row.modeSource], title: ` ${SOURCE_TITLE[row.modeSource]}` };
}

const MODE_TEXT: Record<string, string> = {
  default: 'default (asks)',
  acceptEdits: 'accept edits',
  plan: 'plan',
  auto: 'auto',
  dontAsk: "don't ask",
  bypassPermissions: 'bypass permissions',
};

/** The listing says `mode: 'unknown'` when the agent has not said its mode (the hub fails closed). */
function modeUnknown(row: AgentRow): boolean {
  return row.mode === 'unknown';
}

export function modeView(row: AgentRow): ModeView {
  const source = sourceOf(row);
  if (modeUnknown(row)) {
    return {
      text: 'mode unknown',
      tone: 'unknown',
      classText: 'treated as bypass',
      title:
        'Switchboard could not learn this session’s permission mode, so it fails closed: it is treated as bypassing permission prompts for what it receives, and as unclassed for what it sends.' +
        source.title,
      source: source.text,
    };
  }
  if (row.mode === null || row.mode === 'unknown') {
    const why =
      row.kind === 'claude-code' || row.kind === 'qwen-code'
        ? `${row.kind === 'qwen-code' ? 'Qwen Code' : 'Claude Code'} keeps this session’s mode to itself`
        : row.machine !== null
          ? `the hub on ${row.machine} decides for it`
          : 'not reported';
    return { text: '—', tone: 'none', classText: null, title: why, source: null };
  }
  const bypass = row.modeClass === 'bypass';
  const text = MODE_TEXT[row.mode] ?? row.mode;
  return {
    text,
    tone: bypass ? 'bypass' : 'prompting',
    classText: bypass ? 'bypass' : 'prompting',
    title:
      (bypass
        ? `Permission mode ${row.mode}: this session runs tools without asking you (class “bypass”).`
        : `Permission mode ${row.mode}: this session asks you before risky tools (class “prompting”).`) + source.title,
    source: source.text,
  };
}

const VALUE_TEXT = {
  accept: 'accepts every message',
  hold: 'holds every message for you',
  refuse: 'refuses every message',
} as const;

/** What the session's effective inbound policy does, for this session. */
export function inboundText(row: AgentRow): { text: string; title: string } {
  const { value, source } = row.inbound;
  if (value !== null)
    return { text: VALUE_TEXT[value], title: `crossSessionInbound is "${value}" (from ${source} settings)` };
  if (source !== 'parity') return { text: source, title: `decided by ${source}` };
  const tone = modeView(row).tone;
  const parity =
    'No crossSessionInbound set: mode parity decides. A message that crosses permission classes (prompting ↔ bypass) waits for you in Approvals.';
  if (tone === 'bypass')
    return {
      text: 'holds messages from prompting sessions',
      title: `${parity} This session bypasses prompts, so messages from prompting (and unverified) senders are held.`,
    };
  if (tone === 'unknown')
    return {
      text: 'holds messages from prompting sessions',
      title: `${parity} Its mode is unknown, so it is treated as bypass: messages from prompting (and unverified) senders are held.`,
    };
  if (tone === 'prompting')
    return {
      text: 'holds messages from bypass sessions',
      title: `${parity} This session prompts, so messages from sessions that bypass prompts are held.`,
    };
  return { text: 'mode parity', title: parity };
}
