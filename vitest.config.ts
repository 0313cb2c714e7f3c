/// <reference types="vitest/config" />
import path from 'node:path';
import { defineConfig } from 'vitest/config';

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
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

// Integration tests run on embedded PGlite always, and also on PostgreSQL when TEST_DATABASE_URL is set.
export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: 'unit', include: ['shared/**/*.test.ts', 'client/src/**/*.test.{ts,tsx}'], environment: 'node' },
      },
      apiProject('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [apiProject('postgres')] : []),
    ],
  },
});
