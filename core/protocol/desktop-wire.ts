// Claude Desktop's dialect of the <cross-session-message> wrapper (docs/integrations.md#claude-desktop). Desktop
// runs Claude Code sessions without Claude Code's SendMessage and messages them with its own MCP tool, whose
// frame reads `<cross-session-message from="local_…" name="…" encoded="1">`: the sender's Desktop session id,
// the sending session's title (not `from-name`), and with `encoded="1"` a body whose `&`, `<` and `>` are HTML
// entities. readFrame tells the dialects apart and gives the sender's name and the body as its sender wrote it;
// an encoding it does not know, or a body that is not what that encoding produces, is an error, never a guess.
// Pure; no I/O; never throws.

import { cleanFromName, unwrapMessage } from './cc-wire.js';

/** A Desktop session id as Claude Code itself checks one (its registry's `hostSessionId`, a Desktop frame's `from`). */
export const DESKTOP_SESSION_ID = /^local_[0-9a-f-]{8,72}$/;

/** Claude Code's `entrypoint` values for sessions Claude Desktop runs (Claude Code names their host so). */
export const DESKTOP_ENTRYPOINTS: readonly string[] = ['claude-desktop', 'claude-desktop-3p'];

/** The encodings Desktop marks with `encoded`; only "1" (HTML entities) has been seen. */
export const DESKTOP_ENCODINGS = ['1'] as const;

const OPEN = /^<cross-session-message((?:\s+[a-z-]+="[^"]*")*)\s*>\n?([\s\S]*?)\n?<\/cross-session-message>\s*$/;
const ATTR = /([a-z-]+)="([^"]*)"/g;
/** How much of a bad attribute value an error repeats. */
const SHOWN = 16;

export type FrameDialect = 'claude-code' | 'claude-desktop' | 'none';

export type Frame =
  | {
      ok: true;
      dialect: FrameDialect;
      attrs: Record<string, string>;
      /** The sender's name as the frame gives it (cleaned as Claude Code cleans a from-name); null when none. */
      senderName: string | null;
      /** Claude Desktop's id of the sending session (`local_…`), when the frame names one. */
      desktopSession?: string;
      body: string;
    }
  | { ok: false; dialect: 'claude-desktop'; reason: 'unknown-encoding' | 'bad-encoding'; detail: string };

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6}));/g;

function codePoint(n: number): string | undefined {
  return n > 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : undefined;
}

/**
 * The text an HTML-escaped Desktop body stands for, in one pass (so `&amp;lt;` is `&lt;`, never `<`); undefined
 * when it is not an escaped text: a raw `<` or `>`, an `&` that starts no entity, a code point out of range.
 */
export function decodeDesktopBody(escaped: string): string | undefined {
  if (/[<>]/.test(escaped)) return undefined;
  let bad = false;
  const out = escaped.replace(
    ENTITY,
    (_m, name: string | undefined, dec: string | undefined, hex: string | undefined) => {
      const ch =
        name !== undefined ? ENTITIES[name] : codePoint(dec !== undefined ? Number(dec) : parseInt(hex ?? '', 16));
      if (ch === undefined) bad = true;
      return ch ?? '';
    },
  );
  if (bad) return undefined;
  // Every `&` of an escaped text starts an entity: one left over after the entities are taken out is a bare `&`.
  return escaped.replace(ENTITY, '').includes('&') ? undefined : out;
}

/** A body as Desktop sends it with `encoded="1"` (fixtures, and the round trip decodeDesktopBody must keep). */
export function encodeDesktopBody(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attrsOf(list: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const a of list.matchAll(ATTR)) attrs[a[1] as string] = a[2] as string;
  return attrs;
}

function isDesktop(attrs: Record<string, string>): boolean {
  return (
    attrs['from-name'] === undefined &&
    (attrs.encoded !== undefined || attrs.name !== undefined || DESKTOP_SESSION_ID.test(attrs.from ?? ''))
  );
}

function nameOf(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const name = cleanFromName(decodeDesktopBody(raw) ?? raw).trim();
  return name === '' ? null : name;
}

/**
 * Reads a message's content: Claude Code's wrapper (its from-name), Claude Desktop's (its name, its body
 * decoded), or no wrapper at all (the whole content is the body).
 */
export function readFrame(content: string): Frame {
  const cc = unwrapMessage(content);
  if (Object.keys(cc.attrs).length > 0 && !isDesktop(cc.attrs)) {
    const name = cc.attrs['from-name'];
    return {
      ok: true,
      dialect: 'claude-code',
      attrs: cc.attrs,
      senderName: name === undefined || name === '' ? null : cleanFromName(name),
      body: cc.body,
    };
  }
  const m = OPEN.exec(content);
  const attrs = m === null ? {} : attrsOf(m[1] ?? '');
  // As Claude Code's: a body with a closing tag of its own is not one frame.
  if (m === null || !isDesktop(attrs) || (m[2] ?? '').toLowerCase().includes('</cross-session-message')) {
    // A wrapper with no attributes is still Claude Code's (unwrapMessage took it apart).
    const wrapped = cc.body !== content;
    return { ok: true, dialect: wrapped ? 'claude-code' : 'none', attrs: {}, senderName: null, body: cc.body };
  }
  const raw = m[2] ?? '';
  let body = raw;
  if (attrs.encoded !== undefined) {
    if (!(DESKTOP_ENCODINGS as readonly string[]).includes(attrs.encoded))
      return {
        ok: false,
        dialect: 'claude-desktop',
        reason: 'unknown-encoding',
        detail: `a Claude Desktop frame with encoded="${cleanFromName(attrs.encoded).slice(0, SHOWN)}", an encoding Switchboard does not know`,
      };
    const decoded = decodeDesktopBody(raw);
    if (decoded === undefined)
      return {
        ok: false,
        dialect: 'claude-desktop',
        reason: 'bad-encoding',
        detail: 'a Claude Desktop frame marked encoded="1" whose body is not HTML-escaped text',
      };
    body = decoded;
  }
  const from = attrs.from ?? '';
  return {
    ok: true,
    dialect: 'claude-desktop',
    attrs,
    senderName: nameOf(attrs.name),
    ...(DESKTOP_SESSION_ID.test(from) ? { desktopSession: from } : {}),
    body,
  };
}
