import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://127.0.0.1:${PORT}`;

/**
 * Browser tests: Debian's Chromium driven by Playwright against the real server on a fresh embedded
 * database filled with the demo data (server/demo.ts), as a user would see it.
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: `test-results/${PORT}`,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two files at a time against the one demo server: the tests mostly wait (on the server, on the browser's
  // idle network), so two workers halve the run on two cores. Each test makes or looks up its own records.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  // One line per test as it finishes, so a long run shows its progress.
  reporter: [['list']],
  use: {
    baseURL: BASE_URL,
    viewport: { width: 1366, height: 860 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
  webServer: {
    command: 'npx tsx server/demo.ts',
    url: `${BASE_URL}/api/health`,
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DEMO_DATA_DIR: `./.e2e-data-${PORT}`,
      LOG_LEVEL: 'warn',
      // A client build of its own (npx vite build --outDir ...), so that several builds can be tested side by side.
      ...(process.env.CLIENT_DIST ? { CLIENT_DIST: process.env.CLIENT_DIST } : {}),
    },
    reuseExistingServer: false,
    // Seeding the demo business takes a while on a busy machine.
    timeout: 300_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
