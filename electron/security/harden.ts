// Deny-by-default for every webContents: no navigation or redirects away
// from the loaded page, no new windows (https links go to the system
// browser, nothing else), no webviews, and every permission request or
// check refused. Works on narrow ports so tests can drive it with fakes.

export const APP_SCHEME = 'app';
export const APP_HOST = 'switchboard';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

interface Preventable {
  preventDefault(): void;
}

/** The parts of Electron's WebContents that hardening touches. */
export interface HardenableContents {
  on(
    event: 'will-navigate' | 'will-redirect' | 'will-attach-webview',
    listener: (e: Preventable, ...rest: unknown[]) => void,
  ): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/** The parts of Electron's Session that hardening touches. */
export interface HardenableSession {
  setPermissionRequestHandler(
    handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(handler: () => boolean): void;
}

/** Only https URLs ever leave the app, and only to the system browser. */
export function safeExternalUrl(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && u.username === '' && u.password === '' ? u.toString() : null;
  } catch {
    return null;
  }
}

export function hardenContents(
  contents: HardenableContents,
  openExternal: (url: string) => void,
  log: (why: string, url: string) => void,
): void {
  const refuse =
    (what: string) =>
    (e: Preventable, ...rest: unknown[]): void => {
      e.preventDefault();
      log(`${what} refused`, typeof rest[0] === 'string' ? rest[0] : '');
    };
  contents.on('will-navigate', refuse('navigation'));
  contents.on('will-redirect', refuse('redirect'));
  contents.on('will-attach-webview', refuse('webview'));
  contents.setWindowOpenHandler(({ url }) => {
    const external = safeExternalUrl(url);
    if (external !== null) openExternal(external);
    else log('window.open refused', url);
    return { action: 'deny' };
  });
}

export function hardenSession(session: HardenableSession): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
