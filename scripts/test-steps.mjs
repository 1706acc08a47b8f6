// The steps of `npm test`, in order, each with the command that re-runs it
// alone, and the words `npm test` ends with when one fails: which step, how
// to run only that step again, and how to narrow a suite to one file.

/**
 * [{ label, argv, rerun, oneFile? }] for this environment. `second` is the
 * pinned Node 22 build ({ path, version }) for the second unit pass, or null.
 */
export function testSteps({ skipInterop, skipAgents, second }) {
  const vitest = (label, config, extra = {}) => {
    const args = config === undefined ? [] : ['--config', config];
    return {
      label,
      argv: ['npx', 'vitest', 'run', ...args],
      rerun: ['npx', 'vitest', 'run', ...args].join(' '),
      oneFile: ['npx', 'vitest', 'run', ...args, '<file>'].join(' '),
      ...extra,
    };
  };
  const steps = [
    { label: 'build', argv: ['npm', 'run', 'build'], rerun: 'npm run build' },
    { label: 'lint', argv: ['npm', 'run', 'lint'], rerun: 'npm run lint' },
    {
      label: 'electron security scan',
      argv: [process.execPath, 'scripts/scan-electron.mjs'],
      rerun: 'npm run scan:electron',
    },
    {
      label: 'installable package: npm pack, install into an empty prefix, run',
      argv: [process.execPath, 'scripts/pack-check.mjs'],
      rerun: 'npm run pack:check',
    },
    vitest('unit and integration tests'),
  ];
  if (!skipInterop) steps.push(vitest('real Claude Code interop', 'vitest.interop.config.ts'));
  if (!skipAgents)
    steps.push(
      vitest('real agents: Claude Code, Codex CLI, Gemini CLI with scripted models', 'vitest.agents.config.ts'),
    );
  steps.push({
    label: 'browser tests (Chromium)',
    argv: ['npx', 'playwright', 'test'],
    rerun: 'npx playwright test',
    oneFile: 'npx playwright test <file>',
  });
  if (second !== null)
    steps.push({
      label: `unit and integration tests on Node ${second.version}`,
      argv: [second.path, 'node_modules/vitest/vitest.mjs', 'run'],
      rerun: `${second.path} node_modules/vitest/vitest.mjs run`,
      oneFile: `${second.path} node_modules/vitest/vitest.mjs run <file>`,
    });
  return steps;
}

/** What `npm test` prints last when step `index` (0-based) of `total` failed with `how` (an exit code, signal or error). */
export function failureReport(step, index, total, how) {
  const lines = [
    `npm test: step ${index + 1} of ${total}, "${step.label}", failed (${how}); the steps after it did not run.`,
    `Re-run only this step: ${step.rerun}`,
  ];
  if (step.oneFile !== undefined) lines.push(`Or one failing file of it: ${step.oneFile}`);
  lines.push('Then `npm test` again runs every step.');
  return lines.join('\n');
}
