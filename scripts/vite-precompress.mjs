// A Vite plugin: writes a .br (quality 11) and a .gz (level 9) beside every compressible built file of
// 1 KiB or more, once at build time; the server sends the one the browser accepts (@fastify/static
// preCompressed). Files under 1 KiB are served as they are, as the API's threshold
// (server/plugins/compression.ts). Used by vite.config.ts and bench/template/vite.config.ts.
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest)$/;
const MIN_BYTES = 1024;

/** @returns {import('vite').Plugin} */
export function precompress() {
  /** @type {import('vite').ResolvedConfig} */
  let config;
  return {
    name: 'adcrm:precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file) || file.includes(`${path.sep}.vite${path.sep}`)) continue;
        const content = fs.readFileSync(file);
        if (content.length < MIN_BYTES) continue;
        const params = {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        };
        fs.writeFileSync(`${file}.br`, brotliCompressSync(content, { params }));
        fs.writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

/** @param {string} dir @returns {Generator<string>} */
function* walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}
