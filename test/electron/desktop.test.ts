// Desktop preferences (electron-store mapping), the desktop operations, the
// CLI launcher, the window manager and the start-up failure texts.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EndpointError } from '../../core/transport/endpoint.js';
import { HubRunningError } from '../../core/transport/hub-lock.js';
import { cliLinkPlan, isLinked, packagedCliPath, writeCliLink } from '../../electron/cli-link.js';
import { createDesktopHandlers } from '../../electron/desktop-handlers.js';
import {
  DesktopPrefsStore,
  loginItemSettings,
  readDesktopPrefs,
  type KeyValueStore,
} from '../../electron/settings/desktop-prefs.js';
import { startFailureText } from '../../electron/startup.js';
import { JournalError } from '../../core/journal/journal.js';
import { viewUrl, Windows, type WindowLike } from '../../electron/windows/windows.js';
import { CLI } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

function memoryStore(initial: unknown = {}): KeyValueStore & { data: Record<string, unknown> } {
  const data = (initial ?? {}) as Record<string, unknown>;
  return {
    data,
    get store() {
      return data;
    },
    set: (k, v) => void (data[k] = v),
  };
}

describe('desktop preferences from electron-store', () => {
  it('keeps valid values and ignores unknown keys', () => {
    expect(readDesktopPrefs({ launchAtLogin: true, windowBounds: {} })).toEqual({
      prefs: { launchAtLogin: true },
      problems: [],
    });
    expect(readDesktopPrefs(undefined)).toEqual({ prefs: { launchAtLogin: false }, problems: [] });
  });

  it('a bad value falls back to its default with a report', () => {
    expect(readDesktopPrefs({ launchAtLogin: 'yes' })).toEqual({
      prefs: { launchAtLogin: false },
      problems: ['launchAtLogin: Invalid input: expected boolean, received string; using false'],
    });
  });

  it('a file that is not an object falls back to the defaults, reported', () => {
    expect(readDesktopPrefs([1, 2]).problems).toEqual(['the preferences file is not a JSON object; using defaults']);
  });

  it('writes validated values only and maps them to login-item settings', () => {
    const kv = memoryStore();
    const store = new DesktopPrefsStore(kv);
    expect(store.update({ launchAtLogin: true })).toEqual({ launchAtLogin: true });
    expect(kv.data).toEqual({ launchAtLogin: true });
    expect(() => store.update({ launchAtLogin: 'x' as unknown as boolean })).toThrow();
    expect(loginItemSettings({ launchAtLogin: true })).toEqual({ openAtLogin: true, openAsHidden: true });
  });
});

describe('the command-line launcher', () => {
  it('is a per-user script that runs the bundled CLI with the system Node', () => {
    const home = tempDir('sb-home-');
    const plan = cliLinkPlan('linux', { HOME: home }, CLI);
    expect(plan.path).toBe(path.join(home, '.local', 'bin', 'switchboard'));
    expect(isLinked(plan)).toBe(false);
    expect(writeCliLink(plan)).toBe(false);
    expect(writeCliLink(plan)).toBe(true);
    expect(fs.statSync(plan.path).mode & 0o777).toBe(0o755);
    const r = spawnSync(plan.path, ['--version'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\d+\.\d+\.\d+/);
  });

  it('quotes paths and targets the unpacked bundle inside a package', () => {
    expect(packagedCliPath('/Applications/Switchboard.app/Contents/Resources')).toBe(
      '/Applications/Switchboard.app/Contents/Resources/app.asar.unpacked/dist/cli/switchboard.mjs',
    );
    expect(cliLinkPlan('darwin', { HOME: '/Users/a' }, "/tmp/it's here.mjs").content).toContain(
      `exec node '/tmp/it'\\''s here.mjs' "$@"`,
    );
    const win = cliLinkPlan('win32', { LOCALAPPDATA: 'C:\\Users\\a\\AppData\\Local' }, 'C:\\App\\cli.mjs');
    expect(win.path).toBe('C:\\Users\\a\\AppData\\Local\\Switchboard\\bin\\switchboard.cmd');
    expect(win.content).toBe('@echo off\r\nnode "C:\\App\\cli.mjs" %*\r\n');
  });

  /** The desktop.* handlers over an in-memory store, a temp HOME and a recorded login item. */
  const desktop = () => {
    const home = tempDir('sb-home-');
    const loginItems: unknown[] = [];
    const handlers = createDesktopHandlers({
      prefs: new DesktopPrefsStore(memoryStore()),
      setLoginItem: (s) => loginItems.push(s),
      cliLink: cliLinkPlan('linux', { HOME: home }, CLI),
      paused: () => true,
    });
    return { home, loginItems, handlers };
  };

  it('desktop.get reports launch-at-login, the launcher and pause', () => {
    const { home, handlers } = desktop();
    expect(handlers['desktop.get']({})).toEqual({
      launchAtLogin: false,
      cliLink: { path: path.join(home, '.local/bin/switchboard'), linked: false },
      paused: true,
    });
  });

  it('desktop.set launch-at-login sets the login item', () => {
    const { loginItems, handlers } = desktop();
    expect(handlers['desktop.set']({ launchAtLogin: true })).toMatchObject({ launchAtLogin: true });
    expect(loginItems).toEqual([{ openAtLogin: true, openAsHidden: true }]);
  });

  it('desktop.linkCli installs the launcher', () => {
    const { home, handlers } = desktop();
    expect(handlers['desktop.linkCli']({})).toEqual({ path: path.join(home, '.local/bin/switchboard') });
    expect(handlers['desktop.get']({})).toMatchObject({ cliLink: { linked: true } });
  });
});

class FakeWindow implements WindowLike {
  static next = 1;
  readonly webContents = { id: FakeWindow.next++ };
  readonly listeners = new Map<string, Array<(e?: { preventDefault(): void }) => void>>();
  visible = false;
  destroyed = false;
  loaded: string[] = [];
  on(event: string, l: (e: { preventDefault(): void }) => void): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), l as (e?: { preventDefault(): void }) => void]);
    return this;
  }
  fire(event: string): boolean {
    let prevented = false;
    for (const l of this.listeners.get(event) ?? []) l({ preventDefault: () => (prevented = true) });
    return prevented;
  }
  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
  }
  show(): void {
    this.visible = true;
    this.fire('show');
  }
  hide(): void {
    this.visible = false;
    this.fire('hide');
  }
  focus(): void {}
  isDestroyed(): boolean {
    return this.destroyed;
  }
  isVisible(): boolean {
    return this.visible;
  }
}

describe('windows', () => {
  /** Windows over fake BrowserWindows, with the main window shown. */
  const opened = async () => {
    const created: FakeWindow[] = [];
    const options: unknown[] = [];
    const dock: boolean[] = [];
    let quitting = false;
    const windows = new Windows(
      {
        create: (o) => (options.push(o), created[created.push(new FakeWindow()) - 1]!),
        setDockVisible: (v) => dock.push(v),
        isQuitting: () => quitting,
      },
      '/app/preload.cjs',
    );
    const main = (await windows.show('main', 'approvals')) as FakeWindow;
    return { windows, main, created, options, dock, quit: () => (quitting = true) };
  };

  it('creates each window once, with the secure preferences', async () => {
    const { windows, main, created, options } = await opened();
    await windows.show('main', 'sessions');
    expect(created).toHaveLength(1);
    expect(main.loaded).toEqual([viewUrl('approvals')]);
    expect(viewUrl('approvals')).toBe('app://switchboard/index.html#approvals');
    expect(options[0]).toMatchObject({
      show: false,
      webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, preload: '/app/preload.cjs' },
    });
  });

  it('closing the main window hides it, unless the app is quitting', async () => {
    const { windows, main, quit } = await opened();
    expect(main.fire('close')).toBe(true); // hidden, not closed
    expect(main.visible).toBe(false);
    const prefs = (await windows.show('preferences', 'preferences')) as FakeWindow;
    expect(prefs.fire('close')).toBe(false); // the preferences window really closes
    quit();
    expect(main.fire('close')).toBe(false);
  });

  it('shows the dock icon only while a window is shown', async () => {
    const { windows, main, dock } = await opened();
    main.fire('close');
    expect(dock.at(-1)).toBe(false);
    await windows.show('preferences', 'preferences');
    expect(dock.at(-1)).toBe(true);
  });

  it('trusts the ids of its open windows only', async () => {
    const { windows, main } = await opened();
    expect(windows.trustedIds()).toEqual(new Set([main.webContents.id]));
    const prefs = (await windows.show('preferences', 'preferences')) as FakeWindow;
    main.destroyed = true;
    main.fire('closed');
    expect(windows.trustedIds()).toEqual(new Set([prefs.webContents.id]));
  });
});

describe('start-up failures', () => {
  it('name each start-up failure in words, another hub running among them', () => {
    expect(startFailureText(new HubRunningError('/run/sb/hub.sock'))).toMatchObject({
      title: 'Another Switchboard hub is running',
      detail: expect.stringContaining('/run/sb/hub.sock'),
    });
    expect(startFailureText(new EndpointError('loose_mode', '/run/sb has mode 0777'))).toMatchObject({
      title: 'Switchboard refused an unsafe runtime directory',
      detail: expect.stringContaining('0777'),
    });
    expect(startFailureText(new EndpointError('loose_mode', '/home/u/.switchboard', 'state')).title).toBe(
      'Switchboard refused an unsafe state directory',
    );
    expect(
      startFailureText(
        new JournalError('state_locked', '/home/u/.switchboard', 'is locked by another hub', {
          holder: { pid: 42, socket: '/run/sb/hub.sock' },
        }),
      ),
    ).toMatchObject({
      title: 'Another Switchboard hub uses this state directory',
      detail: expect.stringContaining('pid 42'),
    });
    expect(startFailureText(new JournalError('not_regular', '/home/u/.switchboard/journal.ndjson')).title).toBe(
      'Switchboard refused its message journal',
    );
    expect(startFailureText(new Error('boom')).title).toBe('Switchboard could not start');
  });
});
