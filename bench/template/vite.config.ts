import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from '../../scripts/vite-precompress.mjs';

/**
 * A bare Vite + React app (the create-vite template's page), built like the product's client (same Vite,
 * React plugin, minifier, manifest and precompression): the yardstick of scripts/check-budget.mjs and of
 * the page-load row of `npm run bench`.
 */
export default defineConfig({
  root: import.meta.dirname,
  logLevel: 'warn',
  plugins: [react(), precompress()],
  build: {
    outDir: path.resolve(import.meta.dirname, '../../dist/bench-template'),
    emptyOutDir: true,
    sourcemap: false,
    manifest: true,
  },
});
