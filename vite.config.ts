import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './scripts/vite-precompress.mjs';

/** Lazy chunks whose dependencies are not preloaded with them (see build.modulePreload below). */
const LOAD_WHEN_NEEDED = /(^|\/)line-availability-[\w-]+\.js$/;

export default defineConfig({
  root: 'client',
  plugins: [react(), tailwindcss(), precompress()],
  resolve: {
    alias: {
      '@shared': path.resolve(import.meta.dirname, 'shared'),
      '@': path.resolve(import.meta.dirname, 'client/src'),
    },
  },
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/client'),
    emptyOutDir: true,
    sourcemap: false,
    // scripts/check-budget.mjs walks it to add up what each screen loads.
    manifest: true,
    modulePreload: {
      // A part a screen loads lazily once it is needed (the contract form's availability line) fetches its
      // modules then; a preload list of its dependencies would weigh on the screen's first load instead.
      resolveDependencies: (filename, deps) => (LOAD_WHEN_NEEDED.test(filename) ? [] : deps),
    },
    rolldownOptions: {
      output: {
        // React in a long-lived chunk of its own: an app release does not invalidate the browser's copy.
        // Everything else is split where it is imported, so each screen loads only what it uses
        // (docs/decisions/017-performance.md).
        codeSplitting: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ }],
        },
      },
    },
  },
  server: { port: 5173, proxy: { '/api': 'http://localhost:3000' } },
});
