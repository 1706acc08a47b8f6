// The two windows (main and preferences). Both load the renderer over
// app:// with the secure webPreferences (hardened by main.ts's
// web-contents-created hook before anything loads);
// closing the main window hides it to the tray (quitting is explicit). On
// macOS the dock icon shows only while a window is visible.

import type { BrowserWindowConstructorOptions } from 'electron';
import { APP_ORIGIN } from '../security/harden.js';
import { windowWebPreferences } from '../security/web-preferences.js';

export type WindowKind = 'main' | 'preferences';

/** The parts of BrowserWindow used here. */
export interface WindowLike {
  readonly webContents: { readonly id: number };
  on(event: 'close', listener: (e: { preventDefault(): void }) => void): unknown;
  on(event: 'closed' | 'show' | 'hide', listener: () => void): unknown;
  loadURL(url: string): Promise<void>;
  show(): void;
  hide(): void;
  focus(): void;
  isDestroyed(): boolean;
  isVisible(): boolean;
}

export interface WindowPorts {
  /** Creates a window; its webContents is hardened by the app-wide web-contents-created hook. */
  create(options: BrowserWindowConstructorOptions): WindowLike;
  /** macOS dock visibility follows whether any window is visible. */
  setDockVisible(visible: boolean): void;
  isQuitting(): boolean;
}

export function windowOptions(kind: WindowKind, preloadPath: string): BrowserWindowConstructorOptions {
  const size =
    kind === 'main'
      ? { width: 1100, height: 720, minWidth: 720, minHeight: 480 }
      : { width: 760, height: 640, minWidth: 560, minHeight: 420 };
  return {
    ...size,
    show: false,
    title: kind === 'main' ? 'Switchboard' : 'Switchboard Preferences',
    backgroundColor: '#00000000',
    webPreferences: windowWebPreferences(preloadPath),
  };
}

export function viewUrl(view: string): string {
  return `${APP_ORIGIN}/index.html#${encodeURIComponent(view)}`;
}

export class Windows {
  readonly #ports: WindowPorts;
  readonly #preload: string;
  readonly #open = new Map<WindowKind, WindowLike>();

  constructor(ports: WindowPorts, preloadPath: string) {
    this.#ports = ports;
    this.#preload = preloadPath;
  }

  /** webContents ids of our windows: the only trusted IPC senders. */
  trustedIds(): Set<number> {
    return new Set([...this.#open.values()].filter((w) => !w.isDestroyed()).map((w) => w.webContents.id));
  }

  all(): WindowLike[] {
    return [...this.#open.values()].filter((w) => !w.isDestroyed());
  }

  /** Shows (creating when needed) the window for a view; returns it. */
  async show(kind: WindowKind, view: string): Promise<WindowLike> {
    let w = this.#open.get(kind);
    if (w === undefined || w.isDestroyed()) {
      const created = this.#ports.create(windowOptions(kind, this.#preload));
      w = created;
      created.on('close', (e) => {
        if (kind === 'main' && !this.#ports.isQuitting()) {
          e.preventDefault();
          created.hide();
        }
      });
      created.on('closed', () => {
        this.#open.delete(kind);
        this.#syncDock();
      });
      created.on('show', () => this.#syncDock());
      created.on('hide', () => this.#syncDock());
      this.#open.set(kind, created);
      await created.loadURL(viewUrl(view));
    }
    w.show();
    w.focus();
    this.#syncDock();
    return w;
  }

  #syncDock(): void {
    this.#ports.setDockVisible(this.all().some((w) => w.isVisible()));
  }
}
