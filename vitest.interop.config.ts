// The real-peer interop suite (npm run test:interop): slow, needs tmux,
// unshare and the npm registry (for the Claude Code builds). Sequential.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/interop/**/*.interop.ts'],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    fileParallelism: false,
    setupFiles: ['test/setup/temp-remove.ts'],
  },
});
