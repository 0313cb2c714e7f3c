import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers under 1 KiB are sent as they are: compressing them costs more than the bytes it saves. */
export const COMPRESSION_THRESHOLD = 1024;

/**
 * API answers are compressed when the client accepts it (brotli at quality 4, else gzip) and they are at
 * least 1 KiB. Built client assets are compressed once at build time instead and served as they are
 * (app.ts, @fastify/static's preCompressed); a response that already has a Content-Encoding is left alone.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, { global: true, threshold: COMPRESSION_THRESHOLD, encodings: ['br', 'gzip'] });
}
