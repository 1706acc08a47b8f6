// The desktop-only operations (served by electron/ipc, absent from the
// headless web bridge): their input schemas and result types.

import { z } from 'zod';
import type { DesktopOperationName } from './operations.js';

export const DESKTOP_SCHEMAS = {
  'desktop.get': z.strictObject({}),
  'desktop.set': z.strictObject({ launchAtLogin: z.boolean().optional() }),
  'desktop.linkCli': z.strictObject({}),
} as const satisfies Record<DesktopOperationName, z.ZodType>;

export interface DesktopPrefsView {
  launchAtLogin: boolean;
  /** Where `desktop.linkCli` puts the command, and whether it is there now. */
  cliLink: { path: string; linked: boolean };
  paused: boolean;
}

export interface DesktopResults {
  'desktop.get': DesktopPrefsView;
  'desktop.set': DesktopPrefsView;
  'desktop.linkCli': { path: string };
}

export type DesktopInput<O extends DesktopOperationName> = z.infer<(typeof DESKTOP_SCHEMAS)[O]>;
