// Claude Code's peer protocol 1 (docs/claude-code-formats.md#5-cross-session-messaging): addresses, the user event
// line, control lines and the <cross-session-message> wrapper. Pure; no I/O.
// Claude Code owns this format, so schemas keep unknown keys.

import { z } from 'zod';

const KEEP = /^[A-Za-z0-9:_/.-]$/;

/** Percent-encodes a socket path the way Claude Code does (per UTF-8 byte). */
export function percentEncode(path: string): string {
  let out = '';
  for (const byte of Buffer.from(path, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && KEEP.test(ch) ? ch : '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

export function percentDecode(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '%' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(ch, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

export function udsAddress(socketPath: string): string {
  return 'uds:' + percentEncode(socketPath);
}

/** The socket path of a `uds:` address or absolute path, else undefined. */
export function socketPathOf(address: string): string | undefined {
  if (address.startsWith('uds:')) {
    const path = percentDecode(address.slice(4));
    return path.startsWith('/') || path.startsWith('\\\\') ? path : undefined;
  }
  if (address.startsWith('/')) return address;
  return undefined;
}

const TEXT = z.string().max(1024 * 1024);

export const AuthLine = z.looseObject({ type: z.literal('auth'), token: z.string().min(1).max(256) });

export const UserEventLine = z.looseObject({
  type: z.literal('user'),
  msgV: z.number().optional(),
  msg_id: z.string().min(1).max(128).optional(),
  message: z.looseObject({ role: z.literal('user'), content: TEXT.min(1) }),
  priority: z.enum(['now', 'next', 'later']).optional(),
  from: z.string().max(4096).optional(),
});
export type UserEventLine = z.infer<typeof UserEventLine>;

export const RenameControl = z.looseObject({
  type: z.literal('control'),
  action: z.literal('rename'),
  name: z.string().min(1).max(256),
});

export const PEER_STATUSES = ['held', 'denied', 'expired', 'delivered', 'refused', 'dropped'] as const;
export type PeerStatus = (typeof PEER_STATUSES)[number];

export const PeerMessageStatus = z.looseObject({
  type: z.literal('control'),
  action: z.literal('peer_message_status'),
  status: z.enum(PEER_STATUSES),
  reason: z.string().max(4096).optional(),
  from: z.string().max(4096).optional(),
  orig_msg_id: z.string().max(128),
});
export type PeerMessageStatus = z.infer<typeof PeerMessageStatus>;

/** Claude Code's answer to a notify_when_idle control frame (fields as its 2.1.332 schema has them). */
export const PeerIdleNotice = z.looseObject({
  type: z.literal('control'),
  action: z.literal('peer_idle_notice'),
  orig_msg_id: z.string().max(128),
  state: z.string().max(64),
  finished_at: z.union([z.string().max(64), z.number()]).optional(),
  detail: z.string().max(4096).optional(),
  from: z.string().max(4096).optional(),
});
export type PeerIdleNotice = z.infer<typeof PeerIdleNotice>;

/**
 * Claude Code version since which a socket message that arrives mid-turn joins
 * that turn's next model request (seen with the real 2.1.332 interactive): the
 * hub writes busy turns' messages there, and setup writes no PostToolUse hook.
 */
export const CLAUDE_MID_TURN_SINCE = '2.1.332';

export function userEventLine(args: { msgId: string; content: string; from: string }): string {
  return JSON.stringify({
    msgV: 1,
    msg_id: args.msgId,
    type: 'user',
    message: { role: 'user', content: args.content },
    priority: 'next',
    from: args.from,
  });
}

export function peerStatusLine(args: {
  status: PeerStatus;
  reason: string;
  from: string;
  origMsgId: string;
  msgId: string;
}): string {
  return JSON.stringify({
    type: 'control',
    action: 'peer_message_status',
    status: args.status,
    reason: args.reason,
    from: args.from,
    orig_msg_id: args.origMsgId,
    msgV: 1,
    msg_id: args.msgId,
  });
}

// ---- the wrapper -----------------------------------------------------------

const TAG = 'cross-session-message';
const CLOSE_TAG = `</${TAG}`;

export interface WrapperAttrs {
  from?: string;
  fromSession?: string;
  fromName?: string;
  fromMode?: 'prompting' | 'bypass';
  /** Set when the receiver's user approved the message after a hold. */
  approved?: 'after-hold';
}

/** Claude Code's from-name rule: no `"<>` or control characters, ≤ 64 chars. */
export function cleanFromName(name: string): string {
  // eslint-disable-next-line no-control-regex
  return name.replace(/["<>\u0000-\u001f\u007f-\u009f]/g, '').slice(0, 64);
}

function attr(value: string): string {
  if (!/[&"<>]/.test(value)) return value;
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes any closing tag inside a body so the frame cannot be ended early. */
export function escapeBody(body: string): string {
  if (!body.includes('</')) return body;
  return body.replace(/<\/(\s*)cross-session-message/gi, '&lt;/$1cross-session-message');
}

export function wrapMessage(body: string, attrs: WrapperAttrs): string {
  const parts: string[] = [];
  if (attrs.from !== undefined) parts.push(`from="${attr(attrs.from)}"`);
  if (attrs.fromSession !== undefined) parts.push(`from-session="${attr(attrs.fromSession)}"`);
  if (attrs.fromName !== undefined) parts.push(`from-name="${attr(cleanFromName(attrs.fromName))}"`);
  if (attrs.fromMode !== undefined) parts.push(`from-mode="${attrs.fromMode}"`);
  if (attrs.approved !== undefined) parts.push(`approved="${attrs.approved}"`);
  const open = parts.length > 0 ? `<${TAG} ${parts.join(' ')}>` : `<${TAG}>`;
  return `${open}\n${escapeBody(body)}\n</${TAG}>`;
}

/**
 * Splits a wrapped content into its attributes and body when it is exactly
 * one well-formed wrapper; otherwise the whole content is the body.
 */
export function unwrapMessage(content: string): { attrs: Record<string, string>; body: string } {
  const m = /^<cross-session-message((?:\s+[a-z-]+="[^"]*")*)\s*>\n([\s\S]*)\n<\/cross-session-message>\s*$/.exec(
    content,
  );
  if (m === null) return { attrs: {}, body: content };
  const body = m[2] ?? '';
  if (body.toLowerCase().includes(CLOSE_TAG)) return { attrs: {}, body: content };
  const attrs: Record<string, string> = {};
  for (const a of (m[1] ?? '').matchAll(/([a-z-]+)="([^"]*)"/g)) attrs[a[1] as string] = a[2] as string;
  return { attrs, body };
}
