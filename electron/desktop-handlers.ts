// The desktop-only operations (launch at login, installing the CLI
// launcher) over ports, so they are tested without Electron.

import type { DesktopPrefsView } from '../core/contract/desktop.js';
import { cliLinkPlan, isLinked, writeCliLink, type CliLinkPlan } from './cli-link.js';
import type { DesktopHandlers } from './ipc/server.js';
import { loginItemSettings, type DesktopPrefsStore } from './settings/desktop-prefs.js';

export interface DesktopPorts {
  prefs: DesktopPrefsStore;
  setLoginItem(settings: { openAtLogin: boolean; openAsHidden: boolean }): void;
  cliLink: CliLinkPlan;
  paused(): boolean;
}

export function defaultCliLink(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, cliPath: string): CliLinkPlan {
  return cliLinkPlan(platform, { HOME: env.HOME ?? env.USERPROFILE, LOCALAPPDATA: env.LOCALAPPDATA }, cliPath);
}

export function createDesktopHandlers(ports: DesktopPorts): DesktopHandlers {
  const view = (): DesktopPrefsView => ({
    launchAtLogin: ports.prefs.read().prefs.launchAtLogin,
    cliLink: { path: ports.cliLink.path, linked: isLinked(ports.cliLink) },
    paused: ports.paused(),
  });
  return {
    'desktop.get': () => view(),
    'desktop.set': (input) => {
      const prefs = ports.prefs.update(input);
      ports.setLoginItem(loginItemSettings(prefs));
      return view();
    },
    'desktop.linkCli': () => {
      writeCliLink(ports.cliLink);
      return { path: ports.cliLink.path };
    },
  };
}
