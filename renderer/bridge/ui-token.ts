// Where the browser page keeps the UI token: it arrives once in the URL
// fragment (`/#token=…`, never sent to any server), leaves the address bar
// at once, and lives in this tab's sessionStorage, which browsers scope to
// scheme, host and port (unlike cookies) and never send anywhere. So a
// reload keeps working; another port, tab or site never sees the token.
// The sign-in screen hands a pasted token (or the token of a pasted URL for
// this page) to the same place, never through the address bar.

const KEY = 'switchboard.uiToken';
const TOKEN = /^[0-9a-f]{16,128}$/; // the hub's token is 48 hex digits

export interface TokenHome {
  location: { hash: string; pathname: string; search: string };
  history: { replaceState(data: unknown, unused: string, url: string): void };
  sessionStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
}

/** Takes the token out of the fragment (or finds the one this tab kept); undefined when there is none. */
export function takeUiToken(w: TokenHome): string | undefined {
  const m = /^#token=([^&]*)$/.exec(w.location.hash);
  if (m) {
    w.history.replaceState(null, '', w.location.pathname + w.location.search); // out of the address bar and this tab's history
    if (TOKEN.test(m[1]!)) {
      w.sessionStorage.setItem(KEY, m[1]!);
      return m[1]!;
    }
  }
  const kept = w.sessionStorage.getItem(KEY);
  return kept !== null && TOKEN.test(kept) ? kept : undefined;
}

/** Keeps a token the sign-in screen was given, as takeUiToken keeps one from the fragment. */
export function keepUiToken(w: Pick<TokenHome, 'sessionStorage'>, token: string): void {
  if (TOKEN.test(token)) w.sessionStorage.setItem(KEY, token);
}

/** What the sign-in screen was given: this page's token, the URL of another loopback UI to open, or nothing usable. */
export type SignInInput =
  { kind: 'token'; token: string } | { kind: 'elsewhere'; url: string } | { kind: 'invalid'; why: string };

const LOOPBACK = new Set(['127.0.0.1', 'localhost']);
const NOT_A_TOKEN =
  'That is neither a Switchboard URL (http://127.0.0.1:…/#token=…) nor a token (48 hex digits). Run `switchboard ui` and paste what it prints.';

/** Reads a pasted token or URL; `origin` is this page's. A URL for another port is opened, never one off this machine. */
export function readSignIn(text: string, origin: string): SignInInput {
  const t = text.trim();
  if (TOKEN.test(t)) return { kind: 'token', token: t };
  let url: URL;
  try {
    url = new URL(t);
  } catch {
    return { kind: 'invalid', why: NOT_A_TOKEN };
  }
  const m = /^#token=([0-9a-f]{16,128})$/.exec(url.hash);
  if (url.protocol !== 'http:' || !LOOPBACK.has(url.hostname) || m === null)
    return { kind: 'invalid', why: NOT_A_TOKEN };
  if (url.origin === origin) return { kind: 'token', token: m[1]! };
  return { kind: 'elsewhere', url: url.href };
}
