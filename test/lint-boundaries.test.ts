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
  ])('%s may not run %s', async (file, code) => {
    expect(await ruleIds(file, code)).toContain('no-restricted-imports');
  });

  it('cli may import core', async () => {
    expect(await ruleIds('cli/main.ts', "import { LIMITS } from '../core/protocol/limits.js';\nvoid LIMITS;")).not.toContain('no-restricted-imports');
  });
});
