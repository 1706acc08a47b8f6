// The real-agent suite (npm run test:agents): the real Claude Code, Codex CLI
// and Gemini CLI, offline against scripted model servers. Slow, needs unshare
// and the npm registry (once, for the pinned builds). One file at a time.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/agents/**/*.agents.ts'],
    testTimeout: 600_000, // a hang bound: a loaded machine starts agents slowly; waits inside end on events
    hookTimeout: 600_000,
    fileParallelism: false,
    setupFiles: ['test/setup/temp-remove.ts'],
  },
});
