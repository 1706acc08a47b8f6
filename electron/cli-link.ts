// "Install the command-line tool" from Preferences: writes a small
// launcher for the CLI bundle that ships unpacked beside app.asar. The
// launcher runs the system's Node (22.13+), because release builds turn
// Electron's RunAsNode fuse off (docs/decisions.md). Per-user location,
// no administrator rights: ~/.local/bin on macOS and Linux, and
// %LOCALAPPDATA%\Switchboard\bin on Windows (add it to PATH once).

import { replaceFileSync } from '../core/storage/atomic-write.js';
import fs from 'node:fs';
import path from 'node:path';

export interface CliLinkPlan {
  path: string;
  content: string;
  mode: number;
}

/** The CLI bundle inside a packaged app (asarUnpack keeps it a real file). */
export function packagedCliPath(resourcesPath: string): string {
  return path.join(resourcesPath, 'app.asar.unpacked', 'dist', 'cli', 'switchboard.mjs');
}

export function cliLinkPlan(
  platform: NodeJS.Platform,
  env: { HOME?: string; LOCALAPPDATA?: string },
  cliPath: string,
): CliLinkPlan {
  if (platform === 'win32') {
    const dir = path.win32.join(
      env.LOCALAPPDATA ?? path.win32.join(env.HOME ?? 'C:\\', 'AppData', 'Local'),
      'Switchboard',
      'bin',
    );
    return {
      path: path.win32.join(dir, 'switchboard.cmd'),
      content: `@echo off\r\nnode "${cliPath}" %*\r\n`,
      mode: 0o644,
    };
  }
  const quoted = `'${cliPath.replaceAll("'", "'\\''")}'`;
  return {
    path: path.join(env.HOME ?? '/', '.local', 'bin', 'switchboard'),
    content: `#!/bin/sh\n# Written by Switchboard (Preferences → Install command-line tool).\nexec node ${quoted} "$@"\n`,
    mode: 0o755,
  };
}

/** Writes the launcher atomically; true when it already had this content. */
export function writeCliLink(plan: CliLinkPlan): boolean {
  try {
    if (fs.readFileSync(plan.path, 'utf8') === plan.content) return true;
  } catch {
    // not there yet
  }
  fs.mkdirSync(path.dirname(plan.path), { recursive: true });
  replaceFileSync(plan.path, plan.content, plan.mode);
  return false;
}

export function isLinked(plan: CliLinkPlan): boolean {
  try {
    return fs.readFileSync(plan.path, 'utf8') === plan.content;
  } catch {
    return false;
  }
}
