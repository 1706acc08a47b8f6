// The one set of webPreferences every window uses (the Electron checklist in docs/security.md):
// isolated, sandboxed, no Node, web security on, no webviews, no
// experimental or Blink features. Frozen so nothing can loosen it at run time.

import type { WebPreferences } from 'electron';

export const SECURE_WEB_PREFERENCES = Object.freeze({
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  navigateOnDragDrop: false,
  spellcheck: false,
  safeDialogs: true,
  // Middle-click would try to open links in new windows.
  disableBlinkFeatures: 'Auxclick',
} as const satisfies WebPreferences);

/** The preferences for one window: the secure set plus our preload script. */
export function windowWebPreferences(preloadPath: string): WebPreferences {
  return { ...SECURE_WEB_PREFERENCES, preload: preloadPath };
}
