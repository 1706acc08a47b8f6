// `npm test` ends a failed run by naming the step that failed and the
// command that re-runs only it; every step has one, and each re-run command
// is the step's own command line (or its npm script).
import { describe, expect, it } from 'vitest';
import { failureReport, testSteps } from '../../scripts/test-steps.mjs';

const all = testSteps({ skipInterop: false, skipAgents: false, second: { path: '/n22/bin/node', version: '22.23.3' } });

describe('npm test steps', () => {
  it('runs every suite, each with a command that re-runs it alone', () => {
    expect(all.map((s) => s.label)).toEqual([
      'build',
      'lint',
      'electron security scan',
      'installable package: npm pack, install into an empty prefix, run',
      'unit and integration tests',
      'real Claude Code interop',
      'real agents: Claude Code, Codex CLI, Gemini CLI with scripted models',
      'browser tests (Chromium)',
      'unit and integration tests on Node 22.23.3',
    ]);
    for (const s of all.filter((x) => x.argv[0] === 'npx' || x.argv[0] === '/n22/bin/node'))
      expect(s.rerun).toBe(s.argv.join(' '));
  });

  it('leaves out what the environment opts out of', () => {
    const labels = testSteps({ skipInterop: true, skipAgents: true, second: null }).map((s) => s.label);
    expect(labels.some((l) => /interop|real agents|Node 22/.test(l))).toBe(false);
  });

  it('says which step failed, how to re-run it and one file of it', () => {
    const i = all.findIndex((s) => s.label === 'real Claude Code interop');
    const text = failureReport(all[i]!, i, all.length, 'exit 1');
    expect(text).toContain('step 6 of 9, "real Claude Code interop", failed (exit 1)');
    expect(text).toContain('Re-run only this step: npx vitest run --config vitest.interop.config.ts\n');
    expect(text).toContain('Or one failing file of it: npx vitest run --config vitest.interop.config.ts <file>');
  });
});
