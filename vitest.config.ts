import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Bounds on a hang, never on a slow machine: waits inside tests end on events (test/helpers/hub.ts until()).
    // 120 s: a test that starts several processes (an MCP server that starts its own hub, then CLI calls) took
    // over 60 s in a fresh root on 2 cores at a load average of 7, with nothing hung.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Temp hygiene: a private TMPDIR for the run, failing it when a test leaves a directory
    // behind; tempDir() directories are removed after each file (test/helpers/temp.ts).
    globalSetup: ['test/setup/temp-guard.ts'],
    setupFiles: ['test/setup/temp-cleanup.ts'],
  },
});
