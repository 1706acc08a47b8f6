// The page's Content-Security-Policy, one string for both bridges: the web
// UI's response header (core/host/ui/web-http.ts) and the app:// protocol of
// the desktop app (electron/security/app-protocol.ts).

export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'; frame-ancestors 'none'";
