// The desktop app's composition root: the only file that touches the real
// Electron objects. Order matters: the single-instance lock first, then the
// sandbox and the app:// scheme, then the hub (fail closed with a dialog
// when it cannot start: never a second hub), then tray, windows, IPC and
// notifications. Quitting (the menu, or SIGINT, SIGTERM, SIGHUP, SIGQUIT)
// closes the hub cleanly (held messages stay
// journaled for the next start). Everything else lives in small modules
// with ports and is tested under Node.

import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  Notification,
  protocol,
  session,
  shell,
  Tray,
} from 'electron';
import Store from 'electron-store';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BRIDGE_EVENT } from '../core/contract/bridge.js';
import { IPC_CHANNELS } from '../core/contract/operations.js';
import { startHub, type Hub } from '../core/index.js';
import { stderrLogger } from '../core/kit/logger.js';
import { handleSignals } from '../core/kit/signals.js';
import type { RpcConnection } from '../core/transport/rpc-server.js';
import { runBridgeOperation } from '../core/index.js';
import { defaultCliLink, createDesktopHandlers } from './desktop-handlers.js';
import { createIpcServer } from './ipc/server.js';
import { packagedCliPath } from './cli-link.js';
import {
  confirmationNotification,
  heldNotification,
  newHeldItems,
  onAction,
  onClick,
  waitingNotification,
  type NotificationDecision,
  type NotificationSpec,
} from './notifications/route.js';
import type { UserNotice } from '../core/protocol/events.js';
import { APP_SCHEME_PRIVILEGES, appProtocolHandler } from './security/app-protocol.js';
import { APP_SCHEME, hardenContents, hardenSession } from './security/harden.js';
import { DesktopPrefsStore, loginItemSettings, type KeyValueStore } from './settings/desktop-prefs.js';
import { startFailureText } from './startup.js';
import { buildTrayMenu, debounce, trayIconFile, trayStatus, type TrayAction } from './tray/menu.js';
import { readTrayState } from './tray/state.js';
import { toMenuTemplate } from './tray/template.js';
import { Windows } from './windows/windows.js';

const HERE = import.meta.dirname; // dist/electron
const RENDERER_DIR = path.join(HERE, '..', 'renderer');
const PRELOAD = path.join(HERE, 'preload.cjs');
const TRAY_DEBOUNCE_MS = 150; // hub events come in bursts (a send is several events)
const log = stderrLogger('info');

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.enableSandbox();
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
  start().catch((err: unknown) => {
    log.error('desktop start failed', { error: err instanceof Error ? err.stack : String(err) });
    dialog.showErrorBox('Switchboard could not start', err instanceof Error ? err.message : String(err));
    app.exit(1);
  });
}

function openPrefsStore(): KeyValueStore {
  try {
    return new Store({ name: 'preferences' });
  } catch (err) {
    // A broken file is kept for the person to fix; this run uses defaults.
    log.warn('preferences file unreadable; using defaults for this run', { error: String(err) });
    const mem: Record<string, unknown> = {};
    return {
      get store() {
        return mem;
      },
      set: (k, v) => void (mem[k] = v),
    };
  }
}

async function start(): Promise<void> {
  await app.whenReady();
  if (process.platform === 'darwin') app.dock?.hide();
  if (process.platform === 'win32') app.setAppUserModelId('dev.switchboard.app'); // Windows shows notifications only for a named app
  let hub: Hub;
  try {
    hub = await startHub({ logger: log, version: app.getVersion() });
  } catch (err) {
    const { title, detail } = startFailureText(err);
    dialog.showErrorBox(title, detail);
    app.exit(1);
    return;
  }
  const run = <O extends string>(op: O, input: unknown) => runBridgeOperation(hub, op, input);

  hardenSession(session.defaultSession);
  app.on('web-contents-created', (_e, contents) =>
    hardenContents(
      contents,
      (url) => void shell.openExternal(url),
      (why, url) => log.warn(why, { url }),
    ),
  );
  protocol.handle(
    APP_SCHEME,
    appProtocolHandler(RENDERER_DIR, (f) => readFile(f)),
  );

  let quitting = false;
  const windows = new Windows(
    {
      // The call restates the flags that must never loosen, where reviewers and the scanner see them.
      create: (options) =>
        new BrowserWindow({
          ...options,
          webPreferences: {
            ...options.webPreferences,
            contextIsolation: true,
            sandbox: true,
            nodeIntegration: false,
            disableBlinkFeatures: 'Auxclick',
          },
        }),
      setDockVisible: (visible) =>
        void (process.platform === 'darwin' && (visible ? app.dock?.show() : app.dock?.hide())),
      isQuitting: () => quitting,
    },
    PRELOAD,
  );
  const push = (event: unknown): void => {
    for (const w of windows.all()) (w as BrowserWindow).webContents.send(IPC_CHANNELS.event, event);
  };
  const focus = async (view: 'sessions' | 'approvals' | 'preferences', itemId?: string): Promise<void> => {
    await windows.show(view === 'preferences' ? 'preferences' : 'main', view);
    push({ type: 'ui.focus', view, ...(itemId ? { itemId } : {}) });
  };

  const prefs = new DesktopPrefsStore(openPrefsStore());
  for (const problem of prefs.read().problems) log.warn('preferences', { problem });
  const setLoginItem = (s: { openAtLogin: boolean; openAsHidden: boolean }): void => app.setLoginItemSettings(s);
  setLoginItem(loginItemSettings(prefs.read().prefs));
  const cliPath = app.isPackaged
    ? packagedCliPath(process.resourcesPath)
    : path.join(HERE, '..', 'cli', 'switchboard.mjs');
  const desktop = createDesktopHandlers({
    prefs,
    setLoginItem,
    cliLink: defaultCliLink(process.platform, process.env, cliPath),
    paused: () => hub.admission.paused,
  });
  const ipc = createIpcServer({
    trusted: () => windows.trustedIds(),
    bridge: run,
    desktop,
    log: (m, f) => log.warn(m, f),
  });
  ipcMain.handle(IPC_CHANNELS.call, (e, op: unknown, input: unknown) => ipc(e, op, input));

  // Tray: rebuilt from hub state, debounced.
  const icon = (file: string) => nativeImage.createFromPath(path.join(HERE, 'icons', file));
  const tray = new Tray(
    icon(trayIconFile({ sessions: [], held: 0, confirmations: 0, paused: false }, process.platform)),
  );
  const dispatch = (a: TrayAction): void => {
    if (a.kind === 'quit') app.quit();
    else if (a.kind === 'pause') void run('inbound.pause', { paused: a.paused });
    else void focus(a.view);
  };
  const refreshTray = debounce(() => {
    void readTrayState(run, hub.admission.paused).then((state) => {
      tray.setContextMenu(Menu.buildFromTemplate(toMenuTemplate(buildTrayMenu(state), dispatch)));
      const status = trayStatus(state);
      tray.setToolTip(status.tooltip);
      tray.setImage(icon(trayIconFile(state, process.platform)));
      if (process.platform === 'darwin') tray.setTitle(status.badge);
    });
  }, TRAY_DEBOUNCE_MS);
  tray.on('click', () => void focus('sessions'));

  // Notifications for newly held messages and cross-machine sends; buttons: Deny first.
  const announced = { held: new Set<string>(), confirmation: new Set<string>() };
  const decide = (d: NotificationDecision): void => {
    if (d.kind === 'open') void focus(d.view ?? 'approvals', d.view === undefined ? d.itemId : undefined);
    else if (d.item === 'held') void run(d.kind === 'approve' ? 'held.approve' : 'held.deny', { id: d.itemId });
    else void run(d.kind === 'approve' ? 'confirmations.allow' : 'confirmations.deny', { id: d.itemId });
  };
  const show = (spec: NotificationSpec): void => {
    const n = new Notification({
      title: spec.title,
      body: spec.body,
      actions: spec.actions.map((text) => ({ type: 'button' as const, text })),
    });
    n.on('action', (_e, index) => decide(onAction(spec, index)));
    n.on('click', () => decide(onClick(spec)));
    n.show();
  };
  const notifyNew = async (kind: 'held' | 'confirmation'): Promise<void> => {
    if (!Notification.isSupported()) return;
    if (kind === 'held') {
      const r = await run('held.list', {});
      if (r.ok)
        for (const item of newHeldItems(r.result.items, announced.held)) show(heldNotification(item, process.platform));
    } else {
      const r = await run('confirmations.list', {});
      if (r.ok)
        for (const c of newHeldItems(r.result.items, announced.confirmation))
          show(confirmationNotification(c, process.platform));
    }
  };

  // The desktop is a user interface for the whole run: held countdowns run, events flow.
  const ui: RpcConnection = {
    id: -100,
    closed: false,
    notify: (method, params) => {
      if (method !== BRIDGE_EVENT) return;
      push(params);
      refreshTray();
      const type = (params as { type?: unknown }).type;
      if (type === 'held.changed') void notifyNew('held');
      if (type === 'confirmations.changed') void notifyNew('confirmation');
      const waiting = type === 'user.notice' ? (params as { notice?: UserNotice }).notice?.waiting : undefined;
      if (waiting !== undefined && Notification.isSupported()) show(waitingNotification(waiting));
    },
  };
  hub.attachUi(ui);
  refreshTray();
  // Started from a terminal or a test with --show: open the main window at once (login starts stay in the tray).
  if (process.argv.includes('--show')) await focus('sessions');

  app.on('second-instance', () => void focus('sessions'));
  app.on('activate', () => void focus('sessions'));
  app.on('window-all-closed', () => undefined); // a tray app keeps running
  app.on('before-quit', (e) => {
    if (quitting) return;
    quitting = true;
    e.preventDefault();
    refreshTray.cancel();
    hub.detachUi(ui);
    void hub.close().finally(() => {
      tray.destroy();
      app.exit(0);
    });
  });
  // SIGINT, SIGTERM, SIGHUP and SIGQUIT quit as the menu does; other signals are logged and ignored.
  handleSignals(process, log, () => app.quit());
}
