/// <reference types="vitest/config" />
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { skipsReporter } from './server/test/skips-reporter';

const alias = {
  '@shared': path.resolve(import.meta.dirname, 'shared'),
  '@': path.resolve(import.meta.dirname, 'client/src'),
};

const apiProject = (engine: 'pglite' | 'postgres') => ({
  resolve: { alias },
  test: {
    name: `api-${engine}`,
    include: ['server/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['server/test/global-setup.ts'],
    env: { TEST_ENGINE: engine },
    // A worker keeps the modules it imported from one file to the next instead of importing the whole server
    // again per file (2-5 s each). Every file still builds its own app on its own database; a file undoes what
    // it changes in the process (fake timers, stubbed variables, open handles). docs/decisions/030.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

// Integration tests run on embedded PGlite always, and also on PostgreSQL when TEST_DATABASE_URL is set.
export default defineConfig({
  test: {
    // Two files at a time on two cores (Vitest's default there is one): each API file has its own database.
    maxWorkers: 2,
    // The skipped tests listed at the end, and held to server/test/expected-skips.ts.
    reporters: ['default', skipsReporter({ postgres: Boolean(process.env.TEST_DATABASE_URL) })],
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['shared/**/*.test.ts', 'client/src/**/*.test.{ts,tsx}', 'bench/lib/*.test.ts'],
          environment: 'node',
        },
      },
      apiProject('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [apiProject('postgres')] : []),
    ],
  },
});
