// The process boundaries are enforced by ESLint; this proves the rules fire
// on the paths they guard (and stay quiet where imports are allowed).
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { findCycles, graphOf, importsOf } from '../scripts/check-cycles.mjs';

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
    expect(await ruleIds('electron/tray/menu.ts', "import { Menu } from 'electron';\nvoid Menu;")).toContain(
      '@typescript-eslint/no-restricted-imports',
    );
    expect(
      await ruleIds('electron/tray/menu.ts', "import type { Menu } from 'electron';\nexport type M = Menu;"),
    ).not.toContain('@typescript-eslint/no-restricted-imports');
    expect(await ruleIds('electron/main.ts', "import { Menu } from 'electron';\nvoid Menu;")).not.toContain(
      '@typescript-eslint/no-restricted-imports',
    );
  });

  it('the preload may import electron and the contract names', async () => {
    expect(
      await ruleIds(
        'preload/index.ts',
        "import { ipcRenderer } from 'electron';\nimport { IPC_CHANNELS } from '../core/contract/operations.js';\nvoid ipcRenderer; void IPC_CHANNELS;",
      ),
    ).not.toContain('no-restricted-imports');
  });

  it('cli may import core', async () => {
    expect(
      await ruleIds('cli/main.ts', "import { LIMITS } from '../core/protocol/limits.js';\nvoid LIMITS;"),
    ).not.toContain('no-restricted-imports');
  });

  // core/ in layers (docs/architecture.md): each layer may import only itself and the layers below.
  it.each([
    ['core/kit/ring.ts', "import { LIMITS } from '../protocol/limits.js';\nvoid LIMITS;"],
    [
      'core/protocol/limits.ts',
      "import type { SessionRecord } from '../registry/session.js';\nexport type S = SessionRecord;",
    ],
    [
      'core/transport/outbound.ts',
      "import type { SessionTable } from '../registry/table.js';\nexport type T = SessionTable;",
    ],
    [
      'core/registry/table.ts',
      "import type { Admission } from '../messaging/admission.js';\nexport type A = Admission;",
    ],
    [
      'core/registry/table.ts',
      "import type { StockSession } from '../stock/discovery.js';\nexport type S = StockSession;",
    ],
    ['core/stock/stock.ts', "import type { Hub } from '../host/hub.js';\nexport type H = Hub;"],
    ['core/stock/stock.ts', "import { sendMessage } from '../messaging/send.js';\nvoid sendMessage;"],
    ['core/messaging/send.ts', "import type { Hub } from '../host/hub.js';\nexport type H = Hub;"],
    ['core/sessions/lifecycle.ts', "import { startHub } from '../index.js';\nvoid startHub;"],
    ['core/host/hub.ts', "import { createApi } from './api/handlers.js';\nvoid createApi;"],
  ])('%s may not import upward: %s', async (file, code) => {
    expect(await ruleIds(file, code)).toContain('no-restricted-imports');
  });

  it.each([
    ['core/messaging/send.ts', "import { sendToStock } from '../stock/stock-send.js';\nvoid sendToStock;"],
    ['core/stock/stock.ts', "import type { SessionTable } from '../registry/table.js';\nexport type T = SessionTable;"],
    ['core/host/api/handlers.ts', "import type { Hub } from '../hub.js';\nexport type H = Hub;"],
  ])('%s may import down: %s', async (file, code) => {
    expect(await ruleIds(file, code)).not.toContain('no-restricted-imports');
  });

  it('cli/ and electron/ reach the hub through core/index.ts only', async () => {
    expect(
      await ruleIds('cli/main.ts', "import type { Hub } from '../core/host/hub.js';\nexport type H = Hub;"),
    ).toContain('@typescript-eslint/no-restricted-imports');
    expect(
      await ruleIds(
        'electron/tray/menu.ts',
        "import type { Hub } from '../../core/host/hub.js';\nexport type H = Hub;",
      ),
    ).toContain('@typescript-eslint/no-restricted-imports');
    expect(
      await ruleIds('cli/main.ts', "import type { Hub } from '../core/index.js';\nexport type H = Hub;"),
    ).not.toContain('@typescript-eslint/no-restricted-imports');
  });
});

describe('one receipts module', () => {
  const activityLine =
    "export const e = { at: 0, kind: 'receipt', status: 'sent', sender: '', receiver: '', msgId: '', reason: '' };";
  it.each([
    ['core/wake/claude-socket.ts', activityLine],
    ['core/messaging/admission.ts', "import { receiptText } from '../receipts/texts.js';\nvoid receiptText;"],
    ['core/host/api/handlers.ts', "export const r = { kind: 'receipt', id: 'x' };"],
  ])('%s may not build a receipt: %s', async (file, code) => {
    expect(await ruleIds(file, code)).toContain('no-restricted-syntax');
  });

  it('core/receipts builds them; a decision line elsewhere is not a receipt', async () => {
    expect(await ruleIds('core/receipts/receipts.ts', activityLine)).not.toContain('no-restricted-syntax');
    expect(
      await ruleIds('core/host/api/user-handlers.ts', "export const e = { kind: 'decision', status: 'deliver' };"),
    ).not.toContain('no-restricted-syntax');
  });

  it('receipts sit in the domain layer: below messaging, above transport', async () => {
    expect(
      await ruleIds(
        'core/receipts/receipts.ts',
        "import type { Admission } from '../messaging/admission.js';\nexport type A = Admission;",
      ),
    ).toContain('no-restricted-imports');
    expect(
      await ruleIds(
        'core/stock/reply.ts',
        "import type { ReceiptPort } from '../receipts/receipts.js';\nexport type R = ReceiptPort;",
      ),
    ).not.toContain('no-restricted-imports');
  });
});

describe('no silent drops', () => {
  it('in core/, a promise left unawaited goes through drop(), never void', async () => {
    const code = (call: string) =>
      `import { drop } from '../kit/drop.js';\nasync function work(): Promise<void> {}\nexport function f(): void {\n  ${call};\n}\nvoid drop;\n`;
    expect(await ruleIds('core/host/sweep.ts', code('void work()')), 'void is an error').toContain(
      '@typescript-eslint/no-floating-promises',
    );
    expect(
      await ruleIds('core/host/sweep.ts', code("drop(work(), 'work', () => undefined)")),
      'drop() names it',
    ).not.toContain('@typescript-eslint/no-floating-promises');
  });
});

describe('the cycle check over core/', () => {
  it('counts type-only imports and re-exports as edges', () => {
    const edges = importsOf(
      '/r/core/a/x.ts',
      "import type { B } from '../b/y.js';\nexport * from './z.js';\nimport fs from 'node:fs';",
    );
    expect(edges).toEqual(['/r/core/b/y.ts', '/r/core/a/z.ts']);
  });

  it('finds a circle of type imports, and none in a chain', () => {
    const circle = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(findCycles(circle)).toEqual([['a', 'b', 'c']]);
    expect(
      findCycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('core/ today has no import circle', () => {
    expect(findCycles(graphOf(new URL('../core', import.meta.url).pathname))).toEqual([]);
  });
});
