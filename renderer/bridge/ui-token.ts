// Where the browser page keeps the UI token: it arrives once in the URL
// fragment (`/#token=…`, never sent to any server), leaves the address bar
// at once, and lives in this tab's sessionStorage, which browsers scope to
// scheme, host and port (unlike cookies) and never send anywhere. So a
// reload keeps working; another port, tab or site never sees the token.

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
