// The process boundaries are enforced by ESLint; this proves the rules fire
// on the paths they guard (and stay quiet where imports are allowed).
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('import boundaries', () => {
  it.each([
    ['core/host/hub.ts', "import 'electron';"],
    ['core/host/hub.ts', "import Store from 'electron-store';\nvoid Store;"],
    ['cli/main.ts', "import React from 'react';\nvoid React;"],
    ['core/host/hub.ts', "import '../../renderer/app.js';"],
    ['core/host/hub.ts', "import '../../cli/main.js';"],
    ['preload/bridge.ts', "import { z } from 'zod';\nvoid z;"],
    ['preload/bridge.ts', "import '../core/contract/bridge.js';"],
    ['renderer/app.tsx', "import { ipcRenderer } from 'electron';\nvoid ipcRenderer;"],
  ])('%s may not run %s', async (file, code) => {
    expect(await ruleIds(file, code)).toContain('no-restricted-imports');
  });

  it('only electron/main.ts takes Electron values; the rest of electron/ takes types', async () => {
    expect(await ruleIds('electron/tray/menu.ts', "import { Menu } from 'electron';\nvoid Menu;")).toContain('@typescript-eslint/no-restricted-imports');
    expect(await ruleIds('electron/tray/menu.ts', "import type { Menu } from 'electron';\nexport type M = Menu;")).not.toContain('@typescript-eslint/no-restricted-imports');
    expect(await ruleIds('electron/main.ts', "import { Menu } from 'electron';\nvoid Menu;")).not.toContain('@typescript-eslint/no-restricted-imports');
  });

  it('the preload may import electron and the contract names', async () => {
    expect(await ruleIds('preload/index.ts', "import { ipcRenderer } from 'electron';\nimport { IPC_CHANNELS } from '../core/contract/operations.js';\nvoid ipcRenderer; void IPC_CHANNELS;")).not.toContain('no-restricted-imports');
  });

  it('cli may import core', async () => {
    expect(await ruleIds('cli/main.ts', "import { LIMITS } from '../core/protocol/limits.js';\nvoid LIMITS;")).not.toContain('no-restricted-imports');
  });
});
