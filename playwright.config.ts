import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3100);

/**
 * Browser tests: Debian's Chromium driven by Playwright against the real server, compiled as `npm start` runs
 * it, on an embedded database filled with the demo data, as a user would see it. The global setup builds the
 * server and seeds the demo business once (e2e/global-setup.ts); each worker starts a server of its own on a
 * copy of that database, on E2E_PORT + its index (e2e/fixtures.ts), which is where `baseURL` points.
 */
export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  outputDir: `test-results/${PORT}`,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two files at a time, each worker against its own demo server: the tests mostly wait (on the server, on
  // the browser's idle network), so two workers halve the run on two cores.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  // One line per test as it finishes, so a long run shows its progress.
  reporter: [['list']],
  use: {
    viewport: { width: 1366, height: 860 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // No GPU and no software stand-in for one (compositing in the browser process): about 10% less CPU
      // for the same tests, measured on two spec files with one worker (CONTRIBUTING.md, "Test run").
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-software-rasterizer',
        '--disable-gpu-compositing',
        '--disable-renderer-backgrounding',
        '--disable-extensions',
        '--mute-audio',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
