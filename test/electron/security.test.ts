// The Electron security checklist as behaviour: the webPreferences constant,
// deny-by-default webContents and session, https-only external links, and
// the app:// protocol's containment and headers.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CSP } from '../../core/contract/csp.js';
import { appProtocolHandler, APP_SCHEME_PRIVILEGES, resolveAppPath } from '../../electron/security/app-protocol.js';
import {
  hardenContents,
  hardenSession,
  safeExternalUrl,
  type HardenableContents,
} from '../../electron/security/harden.js';
import { SECURE_WEB_PREFERENCES, windowWebPreferences } from '../../electron/security/web-preferences.js';
import { tempDir } from '../helpers/temp.js';

describe('webPreferences', () => {
  it('is the checklist, frozen', () => {
    expect(SECURE_WEB_PREFERENCES).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      disableBlinkFeatures: 'Auxclick',
    });
    expect(SECURE_WEB_PREFERENCES).not.toHaveProperty('enableBlinkFeatures');
    expect(Object.isFrozen(SECURE_WEB_PREFERENCES)).toBe(true);
    expect(() => ((SECURE_WEB_PREFERENCES as Record<string, unknown>).sandbox = false)).toThrow();
    expect(windowWebPreferences('/app/preload.cjs')).toEqual({
      ...SECURE_WEB_PREFERENCES,
      preload: '/app/preload.cjs',
    });
  });
});

class FakeContents extends EventEmitter implements HardenableContents {
  openHandler: ((d: { url: string }) => { action: 'deny' }) | undefined;
  setWindowOpenHandler(h: (d: { url: string }) => { action: 'deny' }): void {
    this.openHandler = h;
  }
  /** Emits like Electron does and says whether a listener prevented the default. */
  attempt(event: string, url: string): boolean {
    let prevented = false;
    this.emit(event, { preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

describe('webContents hardening', () => {
  const setup = () => {
    const contents = new FakeContents();
    const opened: string[] = [];
    const logs: string[] = [];
    hardenContents(
      contents,
      (u) => opened.push(u),
      (why, url) => logs.push(`${why} ${url}`),
    );
    return { contents, opened, logs };
  };

  // Navigation, redirects and webviews are each refused.
  it('keeps the page where it is, logging each refused attempt to leave', () => {
    const { contents, logs } = setup();
    expect(contents.attempt('will-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.attempt('will-navigate', 'app://switchboard/other.html')).toBe(true);
    expect(contents.attempt('will-redirect', 'http://127.0.0.1:9/')).toBe(true);
    expect(contents.attempt('will-attach-webview', '')).toBe(true);
    expect(logs, 'each refusal is logged with why').toEqual([
      'navigation refused https://evil.example/',
      'navigation refused app://switchboard/other.html',
      'redirect refused http://127.0.0.1:9/',
      'webview refused ',
    ]);
  });

  it('denies every new window, handing only https links to the system browser', () => {
    const { contents, opened } = setup();
    for (const url of [
      'https://docs.example/guide',
      'http://docs.example/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'app://switchboard/index.html',
      'https://user:pw@host.example/',
      'not a url',
    ])
      expect(contents.openHandler!({ url })).toEqual({ action: 'deny' });
    expect(opened, 'only the https link goes to the system browser').toEqual(['https://docs.example/guide']);
  });

  it('safeExternalUrl is https only', () => {
    expect(safeExternalUrl('https://a.example/x?y=1')).toBe('https://a.example/x?y=1');
    for (const bad of ['http://a.example', 'smb://host/share', 'ms-msdt:foo', 'file:///C:/x', ''])
      expect(safeExternalUrl(bad)).toBeNull();
  });

  it('refuses every permission request and check', () => {
    let request: ((c: unknown, p: string, cb: (g: boolean) => void) => void) | undefined;
    let check: (() => boolean) | undefined;
    hardenSession({ setPermissionRequestHandler: (h) => (request = h), setPermissionCheckHandler: (h) => (check = h) });
    const answers: boolean[] = [];
    for (const p of ['media', 'notifications', 'clipboard-read', 'geolocation', 'openExternal'])
      request!(null, p, (g) => answers.push(g));
    expect(answers).toEqual([false, false, false, false, false]);
    expect(check!()).toBe(false);
  });
});

describe('app:// protocol', () => {
  // The renderer directory sits inside the test's own temp directory, beside a secret it must not serve.
  const root = path.join(tempDir('sb-app-'), 'renderer');
  fs.mkdirSync(path.join(root, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>x</title>');
  fs.writeFileSync(path.join(root, 'assets', 'app.js'), 'console.log(1)');
  fs.writeFileSync(path.join(path.dirname(root), 'secret.txt'), 'secret');

  it('is registered standard and secure, without fetch or CORS', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({
      scheme: 'app',
      privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false, stream: false },
    });
  });

  it('resolves only files inside the renderer directory on our host', () => {
    expect(resolveAppPath(root, 'app://switchboard/')).toBe(path.join(root, 'index.html'));
    expect(resolveAppPath(root, 'app://switchboard/assets/app.js')).toBe(path.join(root, 'assets', 'app.js'));
    // A literal or encoded ../ segment is normalised away by URL parsing: it stays inside the root.
    expect(resolveAppPath(root, 'app://switchboard/../secret.txt')).toBe(path.join(root, 'secret.txt'));
    expect(resolveAppPath(root, 'app://switchboard/%2e%2e/secret.txt')).toBe(path.join(root, 'secret.txt'));
    for (const bad of [
      'app://switchboard/assets/..%2f..%2fsecret.txt',
      'app://switchboard/%00',
      'app://other/index.html',
      'https://switchboard/index.html',
      'app://switchboard/%E0%A4%A',
      '::',
    ])
      expect(resolveAppPath(root, bad), bad).toBeNull();
  });

  const handler = () => appProtocolHandler(root, (f) => fs.promises.readFile(f));

  it('serves a file with the strict CSP, uncached', async () => {
    const ok = await handler()({ url: 'app://switchboard/assets/app.js', method: 'GET' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-security-policy')).toBe(CSP);
    expect(CSP).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'; frame-ancestors 'none'",
    );
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(ok.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await ok.text()).toBe('console.log(1)');
  });

  it('answers 404 for anything but a GET of a file inside', async () => {
    const h = handler();
    expect((await h({ url: 'app://switchboard/%2e%2e/secret.txt', method: 'GET' })).status).toBe(404);
    expect((await h({ url: 'app://switchboard/missing.js', method: 'GET' })).status).toBe(404);
    expect((await h({ url: 'app://switchboard/index.html', method: 'POST' })).status).toBe(404);
  });
});
