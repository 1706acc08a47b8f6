// The desktop app's composition root: the only file that touches the real
// Electron objects. Order matters: the single-instance lock first, then the
// sandbox and the app:// scheme, then the hub (fail closed with a dialog
// when it cannot start: never a second hub), then tray, windows, IPC and
// notifications. Quitting (the menu, or SIGINT, SIGTERM, SIGHUP, SIGQUIT,
// or an uncaught exception: the process guards `serve` has too) closes the
// hub cleanly (held messages stay journaled for the next start). Everything
// else lives in small modules with ports and is tested under Node.

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
import { desktopSetupEnv } from './setup-node.js';
import { createNotifier } from './notifications/notifier.js';
import { drop } from '../core/kit/drop.js';
import { EXIT_INTERNAL, FATAL_EXIT_MS, installProcessGuards } from '../core/kit/process-guards.js';
import { APP_SCHEME_PRIVILEGES, appProtocolHandler } from './security/app-protocol.js';
import { APP_SCHEME, hardenContents, hardenSession } from './security/harden.js';
import { DesktopPrefsStore, loginItemSettings, type KeyValueStore } from './settings/desktop-prefs.js';
import { startFailureText } from './startup.js';
import { startMcpHttp } from '../cli/mcp-http/start.js';
import { buildTrayMenu, debounce, trayDecision, trayIconFile, trayStatus, type TrayAction } from './tray/menu.js';
import { readTrayState } from './tray/state.js';
import { toMenuTemplate } from './tray/template.js';
import { Windows } from './windows/windows.js';

const HERE = import.meta.dirname; // dist/electron
const RENDERER_DIR = path.join(HERE, '..', 'renderer');
const PRELOAD = path.join(HERE, 'preload.cjs');
const TRAY_DEBOUNCE_MS = 150; // hub events come in bursts (a send is several events)
const log = stderrLogger('info');
const warn = (m: string, f: Record<string, unknown>): void => log.warn(m, f);

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
  const cliPath = app.isPackaged
    ? packagedCliPath(process.resourcesPath)
    : path.join(HERE, '..', 'cli', 'switchboard.mjs');
  let hub: Hub;
  try {
    // Setup from the UI writes commands that start the bundled CLI with a node on PATH new enough to run it (this
    // executable is Electron); with none, setup refuses and says why (electron/setup-node.ts).
    hub = await startHub({ logger: log, version: app.getVersion(), setupEnv: desktopSetupEnv(cliPath) });
  } catch (err) {
    const { title, detail } = startFailureText(err);
    dialog.showErrorBox(title, detail);
    app.exit(1);
    return;
  }
  const mcpHttp = await startMcpHttp(hub.info().socket, log);
  const run = <O extends string>(op: O, input: unknown) => runBridgeOperation(hub, op, input);

  hardenSession(session.defaultSession);
  app.on('web-contents-created', (_e, contents) =>
    hardenContents(
      contents,
      (url) => drop(shell.openExternal(url), 'opening a link outside the app', warn),
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
      setDockVisible: (visible) => {
        if (process.platform !== 'darwin') return;
        if (visible) drop(app.dock?.show() ?? Promise.resolve(), 'showing the dock icon', warn);
        else app.dock?.hide();
      },
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
  const tray = new Tray(icon(trayIconFile({ held: 0, confirmations: 0 }, process.platform)));
  let quiet = false; // for this run: a focused hour, not a setting
  const dispatch = (a: TrayAction): void => {
    if (a.kind === 'quit') app.quit();
    else if (a.kind === 'pause') drop(run('inbound.pause', { paused: a.paused }), 'pausing from the tray', warn);
    else if (a.kind === 'quiet') {
      quiet = a.quiet;
      refreshTray();
    } else if (a.kind === 'held') drop(notifier.decide(trayDecision(a)), 'deciding from the tray', warn);
    else drop(focus(a.view), 'opening a view from the tray', warn);
  };
  const refreshTray = debounce(() => {
    const refreshed = readTrayState(run, hub.admission.paused, quiet).then((state) => {
      tray.setContextMenu(Menu.buildFromTemplate(toMenuTemplate(buildTrayMenu(state), dispatch)));
      const status = trayStatus(state);
      tray.setToolTip(status.tooltip);
      tray.setImage(icon(trayIconFile(state, process.platform)));
      if (process.platform === 'darwin') tray.setTitle(status.badge);
    });
    drop(refreshed, 'refreshing the tray', warn);
  }, TRAY_DEBOUNCE_MS);
  tray.on('click', () => drop(focus('sessions'), 'opening the app from the tray', warn));

  // Notifications for newly held messages and cross-machine sends (notifications/notifier.ts); buttons: Deny first.
  const notifier = createNotifier({
    run,
    focus,
    platform: process.platform,
    quiet: () => quiet,
    log: (m, f) => log.warn(m, f),
    native: {
      supported: () => Notification.isSupported(),
      show(spec, onActionIndex, onClicked) {
        const n = new Notification({
          title: spec.title,
          body: spec.body,
          actions: spec.actions.map((text) => ({ type: 'button' as const, text })),
        });
        n.on('action', (_e, index) => onActionIndex(index));
        n.on('click', onClicked);
        n.show();
      },
    },
  });

  // The desktop is a user interface for the whole run: held countdowns run, events flow.
  const ui: RpcConnection = {
    id: -100,
    closed: false,
    notify: (method, params) => {
      if (method !== BRIDGE_EVENT) return;
      push(params);
      refreshTray();
      notifier.event(params);
    },
  };
  hub.connections.attachUi(ui);
  refreshTray();
  // Started from a terminal or a test with --show: open the main window at once (login starts stay in the tray).
  if (process.argv.includes('--show')) await focus('sessions');

  app.on('second-instance', () => drop(focus('sessions'), 'opening the app', warn));
  app.on('activate', () => drop(focus('sessions'), 'opening the app', warn));
  app.on('window-all-closed', () => undefined); // a tray app keeps running
  app.on('before-quit', (e) => {
    if (quitting) return;
    quitting = true;
    e.preventDefault();
    refreshTray.cancel();
    hub.connections.detachUi(ui);
    const closed = (mcpHttp?.close() ?? Promise.resolve())
      .finally(() => hub.close())
      .finally(() => {
        tray.destroy();
        app.exit(0);
      });
    drop(closed, 'closing the hub', (m, f) => log.error(m, f));
  });
  // SIGINT, SIGTERM, SIGHUP and SIGQUIT quit as the menu does; other signals are logged and ignored.
  handleSignals(process, log, () => app.quit());
  // As `serve`: a stray rejection is logged and the app keeps running; an uncaught exception quits in order
  // (the hub closes, held messages stay journaled), and exits anyway if that does not finish in time.
  installProcessGuards(process, log, () => {
    setTimeout(() => app.exit(EXIT_INTERNAL), FATAL_EXIT_MS).unref();
    app.quit();
  });
}
