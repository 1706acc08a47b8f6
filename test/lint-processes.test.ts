// Tests wait for every process they start to exit before their directories
// are removed (test/helpers/processes.ts). ESLint forbids a bare `.kill(` in
// test/: this proves the rule fires on the pattern that leaked a temporary
// directory (fd-limit.test.ts ended its hub with an unawaited SIGTERM) and
// stays quiet for the helper and its callers.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

/** The stop of the old test/attacks/fd-limit.test.ts, as it was. */
const OLD_FD_LIMIT = `import { spawn } from 'node:child_process';
const stops: Array<() => void> = [];
export function serve(): void {
  const child = spawn('bash', ['-c', 'sleep 1']);
  stops.push(() => child.kill('SIGTERM'));
}
`;

describe('process stops in tests', () => {
  it('refuses the unawaited kill that fd-limit.test.ts had', async () => {
    expect(await ruleIds('test/attacks/fd-limit.test.ts', OLD_FD_LIMIT)).toContain('no-restricted-syntax');
  });

  it('refuses process.kill by pid and a kill in a test helper', async () => {
    expect(await ruleIds('test/core/sessions.test.ts', 'process.kill(1234, "SIGKILL");\n')).toContain(
      'no-restricted-syntax',
    );
    expect(
      await ruleIds('test/helpers/nats.ts', 'export const f = (p: { kill(): void }): void => p.kill();\n'),
    ).toContain('no-restricted-syntax');
  });

  it('allows the helper itself and calls to it', async () => {
    expect(await ruleIds('test/helpers/processes.ts', 'process.kill(1234, "SIGKILL");\n')).not.toContain(
      'no-restricted-syntax',
    );
    const caller = `import { spawn } from 'node:child_process';
import { stopProcess } from '../helpers/processes.js';
export async function f(): Promise<void> {
  await stopProcess(spawn('true'));
}
`;
    expect(await ruleIds('test/attacks/fd-limit.test.ts', caller)).not.toContain('no-restricted-syntax');
  });
});
