/**
 * Serves the bare Vite + React template (dist/bench-template) the way the product serves its client:
 * Fastify with @fastify/static and its precompressed files. The page-load rows of `npm run bench` load it.
 */
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
await app.register(fastifyStatic, {
  root: path.resolve(process.env.TEMPLATE_DIST ?? 'dist/bench-template'),
  preCompressed: true,
  cacheControl: false,
  setHeaders: (response, filePath) => {
    response.setHeader(
      'Cache-Control',
      filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
    );
  },
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('ready');
