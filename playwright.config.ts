// End-to-end tests in Debian's Chromium (no browser download): the path
// comes from CHROMIUM_PATH or /usr/bin/chromium (`.ci/run` installs it).
import { defineConfig } from '@playwright/test';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.e2e.ts',
  timeout: 120_000,
  // A bound only a hang reaches: an assertion waits for its state, and a fresh 2-core machine running the hubs,
  // Chromium and a CPU-bound neighbour took over Playwright's default 5 s to show a team a hub had just found.
  expect: { timeout: 30_000 },
  workers: 1,
  reporter: [['list']],
  use: {
    headless: true,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
